"""The board `reedboard run` runs: its parts assembled from the command line and the
board's configuration (every key of the TOML file goes somewhere here), and its loop
turned until SIGINT or SIGTERM. What only some boards use (a broker, a voice, a serial
port) is imported only by a board that uses it, so a board starts in what it needs.

The same board may run inside another program, on a thread of its own (`InProcess`):
asked to end by that program rather than by a signal, which only a main thread takes."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import serial

from reedboard.app import App
from reedboard.app_ports import Endpoint, GameSetup, HostLink, Identity, Lights, Sensing
from reedboard.board_game import BoardGame, Settings
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.command_line import BAD_ARGUMENTS, NEEDS_A_PERSON
from reedboard.commands.board_assembly import (
    Assembled,
    board_page,
    broker_voice,
    close_board,
    journal_path,
    page_starts,
)
from reedboard.commands.run_opponents import board_opponents
from reedboard.commands.run_script import board_script, warn
from reedboard.config import BoardConfig, LedConfig, VoiceConfig, load_config
from reedboard.errors import HardwareSetupError, ReedboardError
from reedboard.hal.clock import MonotonicClock
from reedboard.hal.clock_buttons import ClockButtons, open_clock_buttons
from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.gpio import GpioModule
from reedboard.hal.ports import LedStrip, SwitchMatrix
from reedboard.hal.recording_strip import RecordingStrip
from reedboard.hal.speech import Speaker
from reedboard.journal.opening import open_journal
from reedboard.journal.writer import JournalWriter
from reedboard.lights.output import LightsOutput, LightsRenderer
from reedboard.link.board import BoardEndpoint
from reedboard.link.board_messages import EffectMessage
from reedboard.link.clients import Clients
from reedboard.link.port import LinkPort
from reedboard.opponents.chosen import Opponents
from reedboard.opponents.client import OpponentClient
from reedboard.reader.mode import Mode
from reedboard.replay.live_script import LIVE, Lines, LiveScript
from reedboard.replay.script import Script, parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game
from reedboard.stopping import stop_asked
from reedboard.web.running import page_address
from reedboard.wiring import matrix_wiring, open_scanner, open_strip, strip_layout

if TYPE_CHECKING:
    from reedboard.ble.phone import PhoneClient
    from reedboard.commands.first_scan import FirstScan
    from reedboard.link.emulation import EmulatedEndpoint
    from reedboard.link.mqtt_client import BoardBroker
    from reedboard.speaking import BoardVoice


@dataclass(frozen=True)
class InProcess:
    """A board run inside another program rather than as `reedboard run`: ended once
    `stop()` says so rather than by SIGINT or SIGTERM, each effect's JSON line (what a fake
    board prints) handed to `show` rather than written to stdout, and `--script -` read
    from `lines` rather than stdin."""

    stop: Callable[[], bool]
    show: Callable[[str], None] | None = None
    lines: Lines | None = None


def run_board(
    args: argparse.Namespace, first: FirstScan | None = None, *, inside: InProcess | None = None
) -> int:
    """The board, from its command line; `first`: its matrix and clock, opened and read
    since its first moments (`commands.first_scan`); `inside`: run in another program."""
    try:
        return _run(args, first, inside)
    except ReedboardError as error:
        return board_failed(error)


def board_failed(error: ReedboardError) -> int:
    """What stopped the board, in one line on stderr; its exit status."""
    print(f"reedboard run: {error}", file=sys.stderr)
    return exit_status(error)


def exit_status(error: ReedboardError) -> int:
    """Bad input (arguments, config, script) BAD_ARGUMENTS; hardware the Pi is not set up
    for NEEDS_A_PERSON (the service's unit does not restart on either); anything else 1."""
    if isinstance(error, HardwareSetupError):
        return NEEDS_A_PERSON
    return BAD_ARGUMENTS if isinstance(error, ValueError) else 1


def _run(
    args: argparse.Namespace, first: FirstScan | None = None, inside: InProcess | None = None
) -> int:
    random_game = args.random_game is not None
    if not args.fake and (args.script or random_game or args.until_done or args.speed != 1.0):
        print(
            "reedboard run: --script, --random-game, --speed and --until-done need --fake",
            file=sys.stderr,
        )
        return 2
    if args.script and random_game:
        print("reedboard run: give --script or --random-game, not both", file=sys.stderr)
        return 2
    config = first.config if first is not None else load_config(args.config)
    script, live = _script(args, inside)
    if script is None and args.until_done:
        print("reedboard run: --until-done needs --script", file=sys.stderr)
        return 2
    show = _print_line if inside is None or inside.show is None else inside.show
    board = assemble(args, config, script, first=first, show=show)
    if live is not None and isinstance(board.scanner, FakeBoard):
        live.feed(board.scanner, board.app.clock.now_ms, warn)
    stop = stop_asked() if inside is None else inside.stop
    undelivered = 0
    page = board_page(args, board)
    try:
        board.app.run(page_starts(stop, page), until_done=args.until_done)
    finally:
        undelivered = close_board(board, page)
    # A scripted game that ends with moves the broker never had has not been done: a
    # script or a test that waits for it must not read success (the log said how many).
    return 1 if args.until_done and undelivered else 0


def _script(
    args: argparse.Namespace, inside: InProcess | None
) -> tuple[Script | None, LiveScript | None]:
    """`board_script`'s, with `--script -` read from the lines `inside` gives if any."""
    if inside is None or inside.lines is None or args.script != LIVE:
        return board_script(args)
    live = LiveScript(inside.lines)
    return live.headers(), live


def assemble(
    args: argparse.Namespace,
    config: BoardConfig,
    script: Script | None,
    *,
    gpio: GpioModule | None = None,
    speaker: Speaker | None = None,
    first: FirstScan | None = None,
    show: Callable[[str], None] | None = None,
) -> Assembled:
    """The board `reedboard run` runs, from its arguments and its configuration (every key
    of the board's TOML file goes somewhere here). `gpio` stands in for RPi.GPIO, `speaker`
    for espeak-ng; `first`: the matrix and clock already opened, and reading; `show`: where
    a printing board's effects go, as JSON lines (stdout by default). With a page
    (`[web]`, `--web`), the board has in-process clients (the page hears it as a host)."""
    settings = _game_settings(args, config, script)
    page_at = page_address(args.web, config.web, fake=args.fake)
    parts = _board_parts(args, config, script, gpio, first)
    link = _link_settings(args, config)
    path = journal_path(args)
    journal = open_journal(path) if path else None
    printing = args.print or (args.fake and not args.serial)
    broker = _broker(args, config)
    clients, opponents = _clients(args, config, path, listening=page_at is not None)
    phone = None if clients is None else _phone(args, config, clients)
    opponent = None if clients is None else OpponentClient.attach(opponents, clients)
    # Tournament mode: the voice is silent (fair play), whatever [voice] says.
    voice = None if config.arbiter.tournament else board_voice(config.voice, speaker)
    emulating = _turning(_emulating(link.emulation, broker), phone, opponent)
    clock = first.clock if first is not None else MonotonicClock(args.speed)
    host = HostLink(
        # The port is opened by the loop, and a port that is not there (a USB gadget port
        # appears only when a PC plugs in) or goes away is tried again every second,
        # whatever the protocol: the board never stops for want of a link.
        reopen=link.reopen if link.url is not None else None,
        endpoint=emulating.endpoint,
        session_id=secrets.token_hex(4),
        identity=Identity(board=args.board_id or config.mqtt.board_id or "reedboard"),
        clients=clients,
        on_effect=_shown(show or _print_line) if printing else None,
        watch=emulating.watch,
    )
    app = App(
        Sensing(
            parts.scanner,
            scan_hz=config.matrix.scan_hz,
            matrix=config.matrix,
            buttons=parts.buttons,
            ahead=first.ahead if first is not None else None,
            source=parts.source,
        ),
        clock,
        link=host,
        # Off the scan loop: an SD card's flush would stall the scans it waits through.
        journal=None if journal is None else JournalWriter(journal),
        lights=board_lights(config.leds, parts.strip, tournament=config.arbiter.tournament),
        voice=voice,
        game=GameSetup(settings=settings, start=Game(script.start) if script else None),
    )
    if phone is not None:  # who controls it by Bluetooth: told the host and the page
        phone.announce = app.endpoint.send
    if broker is not None and voice is not None:
        broker.watch(broker_voice(voice))
    return Assembled(app, journal, parts.scanner, voice, broker, page_at, phone, opponents)


def _clients(
    args: argparse.Namespace, config: BoardConfig, journal: str | None, *, listening: bool
) -> tuple[Clients | None, Opponents]:
    """The board's in-process clients (its page if `listening`, a phone's app, the engine
    or Lichess it plays), and its opponents; no clients at all (no wrapper around the
    endpoint) when nobody would listen."""
    clients: Clients | None = Clients()
    opponents = board_opponents(args, config, journal, clients)
    playing = opponents.playing is not None or opponents.lichess_plan is not None
    if not (listening or args.ble or config.ble.enabled or playing):
        clients = opponents.clients = None
    return clients, opponents


def _game_settings(
    args: argparse.Namespace, config: BoardConfig, script: Script | None
) -> Settings:
    """The game's settings from the configuration, the command line and the script."""
    settings = board_settings(config, mode=args.mode or (script.mode if script else None),
                              settle_ms=args.settle_ms)  # fmt: skip
    if script is not None and script.clock is not None:
        # The script's own game is timed as it says, its presses its players' buttons.
        settings = replace(
            settings,
            time_control=script.clock,
            clock_buttons=script.clock_buttons or settings.clock_buttons,
        )
    return settings


@dataclass
class BoardParts:
    """What the board senses and lights with: a fake, scripted matrix or the real one."""

    scanner: SwitchMatrix
    strip: LedStrip
    source: FakeBoard | None = None
    buttons: ClockButtons | None = None


def _board_parts(
    args: argparse.Namespace,
    config: BoardConfig,
    script: Script | None,
    gpio: GpioModule | None,
    first: FirstScan | None = None,
) -> BoardParts:
    """The fake board playing the script with `--fake`; otherwise the GPIO matrix, the
    LED strip and the clock's buttons if they are wired. The matrix (a fake board too)
    may have been opened `first`."""
    if first is not None and first.source is not None:
        strip = RecordingStrip(config.leds.count, keep=8)
        return BoardParts(first.scanner, strip, source=first.source)
    if args.fake:
        wiring = matrix_wiring(config.matrix)
        source = scripted_board(
            script or parse_script(""),
            rows=wiring.rows,
            columns=wiring.columns,
            layout=wiring.layout,
            finished=args.script != LIVE,  # a live script's lines are still to come
        )
        return BoardParts(source, RecordingStrip(config.leds.count, keep=8), source=source)
    if first is not None:
        return BoardParts(first.scanner, open_strip(config.leds), buttons=first.buttons)
    buttons = None
    if config.clock.white_pin:
        buttons = open_clock_buttons(config.clock.white_pin, config.clock.black_pin, gpio=gpio)
    return BoardParts(
        open_scanner(config.matrix, gpio=gpio), open_strip(config.leds), buttons=buttons
    )


@dataclass
class LinkSettings:
    """Where the link goes and at which serial settings, and the emulated board if any."""

    url: str | None
    baud: int
    bytesize: int = serial.EIGHTBITS
    parity: str = serial.PARITY_NONE
    emulation: EmulatedEndpoint | None = None

    def reopen(self) -> LinkPort:
        # pyserial's port finder is loaded by a board that has a port to open.
        from reedboard.link.serial_port import open_port

        assert self.url is not None
        return open_port(self.url, baud=self.baud, bytesize=self.bytesize, parity=self.parity)


def _link_settings(args: argparse.Namespace, config: BoardConfig) -> LinkSettings:
    """The link from `--serial` (or the configured port on the board) and `--protocol`."""
    url = args.serial or (None if args.fake else config.serial.port)
    if args.protocol == "native":
        return LinkSettings(url, config.serial.baud)
    # The emulations are loaded by a board that speaks one (most never do).
    from reedboard.link import chesslink, dgt
    from reedboard.link.emulation import Emulated, EmulatedEndpoint

    # The client software opens the port as the emulated board's own serial settings.
    emulated: Emulated = "dgt" if args.protocol == "dgt" else "chesslink"
    emulation = EmulatedEndpoint(emulated, secrets.token_hex(4))
    if emulated == "dgt":
        return LinkSettings(url, dgt.BAUD, emulation=emulation)
    return LinkSettings(
        url, chesslink.BAUD, serial.SEVENBITS, serial.PARITY_ODD, emulation=emulation
    )


def _shown(show: Callable[[str], None]) -> Callable[[EffectMessage], None]:
    """An effect handed to `show` as a JSON line, without the link's envelope."""

    def effect_shown(message: EffectMessage) -> None:
        wire = message.to_wire()
        show(json.dumps({k: v for k, v in wire.items() if k not in ("type", "seq", "game")}))

    return effect_shown


def _print_line(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def board_voice(config: VoiceConfig, speaker: Speaker | None = None) -> BoardVoice | None:
    """The board's voice from `[voice]`: espeak-ng (or `speaker`) in the configured
    language, or None when the voice is not enabled."""
    if not config.enabled:
        return None
    # The phrasebooks and the narrator are loaded by a board that speaks.
    from reedboard.speaking import BoardVoice
    from reedboard.voice.languages import phrasebook

    book = phrasebook(config.language)
    if speaker is None:
        # A board that speaks loads espeak-ng's adapter (and subprocess); others never do.
        from reedboard.hal.espeak import EspeakSettings, EspeakSpeaker

        settings = EspeakSettings(
            voice=config.voice or book.espeak_voice,
            rate=config.rate,
            volume=config.volume,
            device=config.device or None,
        )
        speaker = EspeakSpeaker(settings)
    return BoardVoice(speaker, book)


def board_lights(config: LedConfig, strip: LedStrip, *, tournament: bool = False) -> Lights:
    """The board's lights on a strip: the scenes, their animation, the host's dimming and
    the LED test the host asks for, and whose time runs low; in tournament mode, no
    assistance (fair play)."""
    return LightsRenderer(LightsOutput(strip_layout(config), strip), tournament=tournament)


def board_settings(
    config: BoardConfig, *, mode: str | None = None, settle_ms: int | None = None
) -> Settings:
    """The game's settings from the board's configuration (every key of `[arbiter]`,
    `[debounce]` and `[clock]`), with what the command line or the script names instead."""
    chosen: Mode = "strict" if (mode or config.arbiter.mode) == "strict" else "casual"
    clock = config.clock
    return Settings(
        mode=chosen,
        settle_ms=settle_ms or config.arbiter.settle_ms,
        castle_wait_ms=config.arbiter.castle_wait_ms,
        knock_wait_ms=config.arbiter.knock_wait_ms,
        hold_ms=config.debounce.hold_ms,
        time_control=parse_time_control(clock.control) if clock.control else None,
        clock_buttons=bool(clock.white_pin),
        tournament=config.arbiter.tournament,
    )


@dataclass(frozen=True)
class Emulating:
    """The link's endpoint (the board's own, an emulated board's, a broker's tee) and
    what watches the board each turn for an emulation (None: the native protocol)."""

    endpoint: Callable[[str], Endpoint] = BoardEndpoint
    watch: Callable[[BoardGame, int], None] | None = None


def _broker(args: argparse.Namespace, config: BoardConfig) -> BoardBroker | None:
    """The broker the game is published to as well, from `--mqtt` or `[mqtt]`, or None."""
    url = args.mqtt or config.mqtt.url
    if not url:
        return None
    # paho-mqtt brings ssl, http and email: a Pi takes seconds over them, so only a board
    # that publishes to a broker loads them.
    from reedboard.link.mqtt_client import BoardBroker, BrokerSettings

    settings = BrokerSettings(
        url,
        args.board_id or config.mqtt.board_id or "reedboard",
        config.mqtt.username,
        config.mqtt.password_file,
        config.mqtt.ca_file,
        config.mqtt.retry_ms,
    )
    return BoardBroker(settings)


def _emulating(emulation: EmulatedEndpoint | None, broker: BoardBroker | None = None) -> Emulating:
    """The link's endpoint for an emulated protocol, fed the board each turn; with a
    broker, the endpoint's talk published there too."""
    if broker is not None:
        from reedboard.link.mqtt_endpoint import BrokerTee

        inner = _emulating(emulation)
        return replace(
            inner, endpoint=lambda session_id: BrokerTee(inner.endpoint(session_id), broker)
        )
    if emulation is None:
        return Emulating()

    def watch(board_game: BoardGame, now: int) -> None:
        emulation.observe(board_game.game.position, board_game.debouncer.occupancy, now)

    return Emulating(lambda _session_id: emulation, watch)


def _phone(args: argparse.Namespace, config: BoardConfig, clients: Clients) -> PhoneClient | None:
    """Phone apps over Bluetooth LE (`--ble`, `[ble]`): the GATT peripheral started (a
    `BluetoothError` naming what is missing otherwise), dbus-fast loaded only then; or None."""
    if not (args.ble or config.ble.enabled):
        return None
    try:
        from reedboard.ble.peripheral import Peripheral
    except ImportError as error:
        needs = f"--ble needs dbus-fast ({error}): pip install 'reedboard[ble]'"
        raise HardwareSetupError(needs) from None
    from reedboard.ble.cpp_options import BoardOptions
    from reedboard.ble.phone import SERVICES, PhoneClient

    arbiter = config.arbiter
    options = BoardOptions(args.mode or arbiter.mode, args.settle_ms or arbiter.settle_ms,
                           arbiter.castle_wait_ms, arbiter.knock_wait_ms, arbiter.tournament)  # fmt: skip
    peripheral = Peripheral(config.ble.name, SERVICES, adapter=config.ble.adapter)
    peripheral.start()
    return PhoneClient(peripheral, options, clients.attach("phone"), secrets.token_hex(4))


def _turning(
    emulating: Emulating, phone: PhoneClient | None, opponent: OpponentClient | None
) -> Emulating:
    """The in-process clients the loop turns each turn, after the emulation's watch: the
    phone's, with the board as it stands, and the opponents', with its time."""
    if phone is None and opponent is None:
        return emulating

    def watch(board_game: BoardGame, now: int) -> None:
        if emulating.watch is not None:
            emulating.watch(board_game, now)
        if phone is not None:
            phone.turn(board_game.game, board_game.debouncer.occupancy, now)
        if opponent is not None:
            opponent.turn(now)

    return replace(emulating, watch=watch)
