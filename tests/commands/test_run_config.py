"""Every key of the board's TOML file changes the board `reedboard run` runs: each is set
away from its default and its effect is seen on the assembled board (the real scanner on a
fake GPIO, the NeoPixel driver on stand-in modules, the link, the game's settings). And
`[arbiter] castle_wait_ms`, once silently ignored, decides when a rook move that castling
may follow is committed."""

from __future__ import annotations

import io
import json
import sys
import tomllib
import types
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from reedboard.ble.peripheral import BluetoothError
from reedboard.cli import build_parser, main
from reedboard.commands.run_board import assemble
from reedboard.config import load_config
from reedboard.errors import ReedboardError
from reedboard.hal.espeak import EspeakSpeaker
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.recording_pixelbuf import RecordingPixelBuf
from reedboard.lights.output import LightsRenderer
from reedboard.link.serial_port import SerialPort
from reedboard.speaking import BoardVoice

EXAMPLE = Path(__file__).resolve().parents[2] / "board.example.toml"

# (section, key, a value other than the default, the observation it changes)
CHANGES = [
    ("matrix", "rows", [4, 17, 27, 22, 5, 6, 13, 18], "pins"),
    ("matrix", "columns", [26, 23, 24, 25, 12, 16, 20, 18], "pins"),
    ("matrix", "a1", "R8C8", "square"),
    ("matrix", "rows_are", "files", "square"),
    ("matrix", "settle_us", 50.0, "settle_s"),
    ("matrix", "scan_hz", 100.0, "period_ms"),
    ("debounce", "hold_ms", 20, "settings"),
    ("leds", "type", "sk6812", "driver"),
    ("leds", "count", 81, "driver"),
    ("leds", "order", "RGB", "driver"),
    ("leds", "brightness", 0.5, "driver"),
    ("leds", "driver", "pwm", "driver"),
    ("leds", "layout", "rows", "chain"),
    ("leds", "first", "h8", "chain"),
    ("leds", "along", "files", "chain"),
    ("serial", "port", "loop://", "link"),
    ("serial", "baud", 9600, "link"),
    ("arbiter", "mode", "strict", "settings"),
    ("arbiter", "settle_ms", 500, "settings"),
    ("arbiter", "castle_wait_ms", 700, "settings"),
    ("clock", "control", "5+3", "settings"),
    ("clock", "white_pin", 2, "pins"),
    ("clock", "black_pin", 3, "pins"),
    ("arbiter", "knock_wait_ms", 900, "settings"),
    ("arbiter", "tournament", True, "fair_play"),
    # A broker on a port where none listens: the board publishes (queues) all the same.
    ("mqtt", "url", "mqtt://127.0.0.1:1", "broker"),
    ("mqtt", "board_id", "club-7", "broker"),
    ("mqtt", "username", "board7", "broker"),
    ("mqtt", "password_file", "/dev/null", "broker"),
    ("mqtt", "ca_file", "/dev/null", "broker"),
    ("mqtt", "retry_ms", 100, "broker"),
    ("voice", "enabled", True, "voice"),
    ("voice", "language", "en", "voice"),
    ("voice", "voice", "en-us", "voice"),
    ("voice", "rate", 200, "voice"),
    ("voice", "volume", 150, "voice"),
    ("voice", "device", "plughw:1,0", "voice"),
    ("web", "enabled", False, "page"),
    ("web", "address", "127.0.0.1", "page"),
    ("web", "port", 8080, "page"),
    # Without BlueZ (a bus that is not there), what the board names as it refuses to start.
    ("ble", "enabled", True, "phone"),
    ("ble", "adapter", "hci1", "phone"),
    ("ble", "name", "board7", "phone"),
    ("engine", "play", True, "engine"),
    ("engine", "path", "/usr/games/stockfish", "engine"),
    ("engine", "level", 12, "engine"),
    ("engine", "elo", 1800, "engine"),
    ("engine", "side", "white", "engine"),
    ("engine", "movetime_ms", 300, "engine"),
    ("engine", "nice", 5, "engine"),
    ("lichess", "play", True, "lichess"),
    ("lichess", "server", "http://127.0.0.1:1", "lichess"),
    ("lichess", "clock", "5+3", "lichess"),
]

PAIRED = {("clock", "white_pin"): "black_pin = 3\n", ("clock", "black_pin"): "white_pin = 2\n"}


def stand_in_neopixel(monkeypatch: pytest.MonkeyPatch, made: list[Any]) -> None:
    """`board`, `neopixel` and `neopixel_spi` as on a Pi, recording how the buffer is made."""
    board = types.ModuleType("board")
    board.__dict__.update(D10="D10", D18="D18", SPI=lambda: "SPI0")

    def maker(name: str) -> Any:
        def make(where: Any, count: int, **options: Any) -> RecordingPixelBuf:
            made.append((name, where, count, sorted(options.items())))
            return RecordingPixelBuf(count, byteorder=options["pixel_order"])

        return make

    neopixel = types.ModuleType("neopixel")
    neopixel.__dict__.update(NeoPixel=maker("NeoPixel"))
    neopixel_spi = types.ModuleType("neopixel_spi")
    neopixel_spi.__dict__.update(NeoPixel_SPI=maker("NeoPixel_SPI"))
    for module in (board, neopixel, neopixel_spi):
        monkeypatch.setitem(sys.modules, module.__name__, module)


def observe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> dict[str, Any]:
    """What the board `reedboard run --config` assembles from this TOML shows of it."""
    path = tmp_path / "board.toml"
    path.write_text(text)
    config = load_config(path)
    made: list[Any] = []
    stand_in_neopixel(monkeypatch, made)
    journal = str(tmp_path / "journal.sqlite")
    args = build_parser().parse_args(["run", "--config", str(path), "--journal", journal])
    gpio = FakeGPIO(config.matrix.rows, config.matrix.columns)
    gpio.set_switch(0, 1, True)  # ROW1 x COL2: under b1 in the reference build
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", f"unix:path={tmp_path}/no_bus")
    try:
        board = assemble(args, config, None, gpio=gpio)
    except BluetoothError as error:
        return {"phone": str(error)}
    app = board.app
    opponents = board.opponents
    assert isinstance(board.scanner, MatrixScanner) and opponents is not None
    try:
        square = board.scanner.scan()
        try:
            assert app.link.reopen is not None
            port = app.link.reopen()
            assert isinstance(port, SerialPort)
            link: Any = (port._port.port, port._port.baudrate)
            port.close()
        except ReedboardError as error:
            link = str(error)
        renderer = app.lights
        assert isinstance(renderer, LightsRenderer)
        return {
            "pins": sorted(p for p in range(2, 28) if gpio.is_setup(p)),
            "square": square,
            "settle_s": board.scanner._settle_s,
            "period_ms": app.period_ms,
            "settings": app._settings,
            "driver": made,
            "chain": renderer.output.layout.sources,
            "fair_play": renderer.tournament,
            "link": link,
            "broker": None if board.broker is None else board.broker.settings,
            "voice": heard(board.voice),
            "page": board.page_at,
            "phone": board.phone,
            "engine": (opponents.engine, opponents.current()),
            "lichess": (opponents.lichess_settings, opponents.current()),
        }
    finally:
        opponents.close()
        if board.voice is not None:
            board.voice.close()
        if board.journal is not None:
            board.journal.close()
        if board.broker is not None:
            board.broker.close(timeout_s=0.1)


def heard(voice: BoardVoice | None) -> Any:
    """The voice's language and how espeak-ng is run, or None without a voice."""
    if voice is None:
        return None
    assert isinstance(voice.speaker, EspeakSpeaker)
    return voice.book.code, voice.speaker.settings


def test_every_key_of_the_example_file_is_covered() -> None:
    example = tomllib.loads(EXAMPLE.read_text())
    keys = {(section, key) for section, table in example.items() for key in table}
    assert keys == {(section, key) for section, key, _value, _seen in CHANGES}


@pytest.mark.parametrize(("section", "key", "value", "seen"), CHANGES)
def test_each_key_changes_the_board(
    section: str, key: str, value: Any, seen: str, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    # The baud rate shows on a port that opens here.
    base = 'port = "loop://"\n' if (section, key) == ("serial", "baud") else ""
    if section == "mqtt" and key != "url":
        base = 'url = "mqtt://127.0.0.1:1"\n'  # the other keys matter only with a broker
    if section == "ble" and key != "enabled":
        base = "enabled = true\n"  # the other keys show on a board that speaks Bluetooth
    if section == "voice" and key != "enabled":
        base = "enabled = true\n"  # the other keys show on a voice that speaks
    default = observe(tmp_path, monkeypatch, f"[{section}]\n{base}")
    # Clock buttons come in pairs: the other one is set with the one that changes.
    base += PAIRED.get((section, key), "")
    changed = observe(tmp_path, monkeypatch, f"[{section}]\n{base}{key} = {json.dumps(value)}\n")
    assert changed[seen] != default[seen]


def test_castle_wait_decides_when_a_rook_move_castling_may_follow_counts(
    tmp_path: Path,
) -> None:
    script = tmp_path / "rook-first.events"
    script.write_text(
        "@start fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\n@mode casual\n"
        "1000 lift h1\n1400 place f1\n"
    )
    config = tmp_path / "board.toml"
    config.write_text("[arbiter]\ncastle_wait_ms = 700\n")
    times = []
    for extra in ([], ["--config", str(config)]):
        # In this process (`main`): the command's process itself is started elsewhere.
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main(["run", "--fake", "--script", str(script), "--speed", "20",
                         "--until-done", "--web", "off", *extra])  # fmt: skip
        assert code == 0, err.getvalue()
        moves = [json.loads(line) for line in out.getvalue().splitlines() if '"move"' in line]
        times.append(moves[0]["t_ms"])
    assert times == [1400 + 2000, 1400 + 700]
