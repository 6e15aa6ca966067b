"""The board's configuration: one TOML file, read into named tuples.

Every key has a default, so an empty file (or none) describes the reference build of
`hardware/`. `board.example.toml` at the top of the repository documents every key. A file
that cannot be used raises `ConfigError` naming the key (`matrix.rows`, ...) and the fault;
unknown keys are refused too, because a misspelt key silently ignored is a wrong board.
"""

import os
from collections.abc import Mapping
from typing import Any, Literal, NamedTuple, get_args

from reedboard.ble.settings import BleConfig
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.config_section import HEADER_GPIOS, ConfigSection
from reedboard.errors import ConfigError, InvalidInputError
from reedboard.link.mqtt_retry import RETRY_MS, RETRY_MS_RANGE
from reedboard.plain_toml import plain_toml
from reedboard.reader.mode import MODES, Mode
from reedboard.reader.waits import (
    DEFAULT_CASTLE_WAIT_MS,
    DEFAULT_KNOCK_WAIT_MS,
    DEFAULT_SETTLE_MS,
)
from reedboard.voice.codes import LANGUAGE_CODES

# The file's own words, as the parts it configures spell them (a test keeps them equal):
# the parts take plain values and know nothing of the file.
Corner = Literal["R1C1", "R1C8", "R8C1", "R8C8"]
LineKind = Literal["ranks", "files"]
CORNERS: tuple[Corner, ...] = get_args(Corner)
LINE_KINDS: tuple[LineKind, ...] = get_args(LineKind)
LedType = Literal["ws2812", "sk6812"]
LedDriver = Literal["spi", "pwm", "pi5"]
LedOrder = Literal["RGB", "RBG", "GRB", "GBR", "BRG", "BGR"]
LedLayout = Literal["serpentine", "rows"]
LedCorner = Literal["a1", "h1", "a8", "h8"]

# GPIO2 and GPIO3 have fixed 1.8 kohm pull-ups (I2C), which would hold a pulled-down column
# HIGH, and an idle (floating) row HIGH too: every piece on that row would then read, so
# one piece reads as a whole line.
_PULLED_UP_GPIOS = (2, 3)
# The pins of the buses the board may use, by the name a message gives them.
_SPI0_PINS = {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}
_UART_PINS = {14: "the UART's TXD", 15: "the UART's RXD"}
# Serial ports that are the header UART (GPIO14/15); a USB adapter or gadget is not.
_UART_PORTS = ("/dev/serial0", "/dev/serial1", "/dev/ttyAMA0", "/dev/ttyS0")
# Where each LED driver takes its data pin from.
LED_DATA_PIN: dict[str, int] = {"spi": 10, "pwm": 18, "pi5": 10}


# The sections are named tuples rather than frozen dataclasses: they are read before the
# board's first scan, and at a Pi Zero 2 W's speed creating the dataclasses (and importing
# `dataclasses`) cost that scan about a quarter of a second (bench/startup.py).
class MatrixConfig(NamedTuple):
    """The switch matrix: pins, orientation, timing.

    The default pins use only the header GPIOs that no interface the board needs claims:
    SPI0 (GPIO7-11, MOSI = GPIO10 drives the LEDs), PWM0 (GPIO18), the UART (GPIO14/15),
    I2C (GPIO2/3) and the ID EEPROM (GPIO0/1) all stay free.
    """

    rows: tuple[int, ...] = (4, 17, 27, 22, 5, 6, 13, 19)  # header pins 7 11 13 15 29 31 33 35
    columns: tuple[int, ...] = (26, 23, 24, 25, 12, 16, 20, 21)  # 37 16 18 22 32 36 38 40
    a1: Corner = "R1C1"
    rows_are: LineKind = "ranks"
    settle_us: float = 20.0
    scan_hz: float = 200.0


class DebounceConfig(NamedTuple):
    hold_ms: int = 12


class LedConfig(NamedTuple):
    type: LedType = "ws2812"
    count: int = 64  # type: ignore[assignment]  # the file's key; hides tuple.count
    order: LedOrder = "GRB"
    brightness: float = 0.25
    driver: LedDriver = "spi"
    layout: LedLayout = "serpentine"
    first: LedCorner = "a1"
    along: LineKind = "ranks"


class SerialConfig(NamedTuple):
    port: str = "/dev/serial0"
    baud: int = 115200


class MqttConfig(NamedTuple):
    """Publishing the game to an MQTT broker as well as the serial link ("": not at all)."""

    url: str = ""
    board_id: str = ""
    username: str = ""
    password_file: str = ""
    ca_file: str = ""
    retry_ms: int = RETRY_MS  # the longest wait between attempts to reach the broker


class ArbiterConfig(NamedTuple):
    mode: Mode = "casual"
    settle_ms: int = DEFAULT_SETTLE_MS
    castle_wait_ms: int = DEFAULT_CASTLE_WAIT_MS
    knock_wait_ms: int = DEFAULT_KNOCK_WAIT_MS
    tournament: bool = False


class VoiceConfig(NamedTuple):
    """The board's voice (espeak-ng): off unless enabled. Empty `voice` and `device` mean
    the language's own espeak-ng voice and the system's default audio output."""

    enabled: bool = False
    language: str = "fr"
    voice: str = ""
    rate: int = 160  # words per minute
    volume: int = 100  # espeak-ng's amplitude: 0..200
    device: str = ""  # an ALSA device ("plughw:1,0"), or the default output


class ClockConfig(NamedTuple):
    """Timed games: the time control ("" for none) and the GPIOs of two momentary clock
    buttons, each wired to ground (0 for none: then a move's completion stops the time)."""

    control: str = ""
    white_pin: int = 0
    black_pin: int = 0


class WebConfig(NamedTuple):
    """The board's page (docs/page.md): served on `address`:`port` unless not `enabled`."""

    enabled: bool = True
    address: str = "0.0.0.0"
    port: int = 80


class EngineConfig(NamedTuple):
    """The board's own engine (docs/opponents.md): `play` it from the start, at `level`
    1-20 or an `elo` rating (0: the level), on `side`, `movetime_ms` a move when the game
    is untimed, its process `nice` below the scan loop."""

    play: bool = False
    path: str = "stockfish"
    level: int = 5
    elo: int = 0
    side: Literal["white", "black"] = "black"
    movetime_ms: int = 1000
    nice: int = 10


class LichessConfig(NamedTuple):
    """Lichess played by the board itself (docs/opponents.md): `play` it from the start
    (waiting for a challenge), on `server`, a challenge's `clock` when none is named."""

    play: bool = False
    server: str = "https://lichess.org"
    clock: str = "10+5"


class BoardConfig(NamedTuple):
    matrix: MatrixConfig = MatrixConfig()
    debounce: DebounceConfig = DebounceConfig()
    leds: LedConfig = LedConfig()
    serial: SerialConfig = SerialConfig()
    arbiter: ArbiterConfig = ArbiterConfig()
    mqtt: MqttConfig = MqttConfig()
    clock: ClockConfig = ClockConfig()
    voice: VoiceConfig = VoiceConfig()
    web: WebConfig = WebConfig()
    ble: BleConfig = BleConfig()
    engine: EngineConfig = EngineConfig()
    lichess: LichessConfig = LichessConfig()


def load_config(path: str | os.PathLike[str] | None = None) -> BoardConfig:
    """Read a board's TOML file; without a path, the defaults."""
    if path is None:
        return BoardConfig()
    try:
        # os.path, not pathlib: the configuration is read before the board's first scan,
        # and pathlib (with urllib.parse) costs that scan about 0.1 s at a Zero 2 W's speed.
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror or exc}") from None
    config = parse_config(text, source=str(path))
    return config._replace(mqtt=_files_beside(config.mqtt, os.path.dirname(os.fspath(path))))


def _files_beside(mqtt: MqttConfig, folder: str) -> MqttConfig:
    """The `[mqtt]` files named relative to the TOML file, not to wherever the board
    is started: a board's file and its password and CA are copied to it together."""

    def beside(name: str) -> str:
        return os.path.join(folder, name) if name and not os.path.isabs(name) else name

    return mqtt._replace(password_file=beside(mqtt.password_file), ca_file=beside(mqtt.ca_file))


def parse_config(text: str, *, source: str = "config") -> BoardConfig:
    """The configuration in TOML text; `source` names it in error messages."""
    # A plain file (every board's, as board.example.toml is written) is read without
    # tomllib, before the board's first scan; any other is tomllib's, with its messages.
    data: Mapping[str, Any] | None = plain_toml(text)
    if data is None:
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    return config_from_mapping(data)


def config_from_mapping(data: Mapping[str, Any]) -> BoardConfig:
    """The configuration from already-parsed TOML (nested mappings)."""
    sections = ConfigSection(data, "")
    config = BoardConfig(
        matrix=_matrix(sections.table("matrix")),
        debounce=_debounce(sections.table("debounce")),
        leds=_leds(sections.table("leds")),
        serial=_serial(sections.table("serial")),
        arbiter=_arbiter(sections.table("arbiter")),
        mqtt=_mqtt(sections.table("mqtt")),
        clock=_clock(sections.table("clock")),
        voice=_voice(sections.table("voice")),
        web=_web(sections.table("web")),
        ble=_ble(sections.table("ble")),
        engine=_engine(sections.table("engine")),
        lichess=_lichess(sections.table("lichess")),
    )
    sections.refuse_unknown()
    _check_pin_conflicts(config)
    return config


def _matrix(s: ConfigSection) -> MatrixConfig:
    d = MatrixConfig()
    config = MatrixConfig(
        rows=s.pins("rows", d.rows),
        columns=s.pins("columns", d.columns),
        a1=s.choice("a1", d.a1, CORNERS),
        rows_are=s.choice("rows_are", d.rows_are, LINE_KINDS),
        settle_us=s.number("settle_us", d.settle_us, 0.0, 10_000.0),
        scan_hz=s.number("scan_hz", d.scan_hz, 1.0, 2000.0),
    )
    s.refuse_unknown()
    for pin in config.columns:
        if pin in _PULLED_UP_GPIOS:
            raise ConfigError(
                f"{s.key('columns')}: GPIO{pin} has a fixed pull-up on the Pi and cannot read "
                "a pulled-down column; pick another pin"
            )
    for pin in config.rows:
        if pin in _PULLED_UP_GPIOS:
            raise ConfigError(
                f"{s.key('rows')}: GPIO{pin} has a fixed pull-up on the Pi: the row sits HIGH "
                "while idle, so one piece on it reads as a whole line; pick another pin"
            )
    seen: dict[int, str] = {}
    for name in ("rows", "columns"):
        for pin in getattr(config, name):
            if pin in seen:
                raise ConfigError(f"{s.key(name)}: GPIO{pin} is used twice (also in {seen[pin]})")
            seen[pin] = s.key(name)
    return config


def _debounce(s: ConfigSection) -> DebounceConfig:
    config = DebounceConfig(hold_ms=s.integer("hold_ms", DebounceConfig().hold_ms, 1, 1000))
    s.refuse_unknown()
    return config


def _leds(s: ConfigSection) -> LedConfig:
    d = LedConfig()
    config = LedConfig(
        type=s.choice("type", d.type, get_args(LedType)),
        count=s.integer("count", d.count, 1, 1024),
        order=s.choice("order", d.order, get_args(LedOrder)),
        brightness=s.number("brightness", d.brightness, 0.0, 1.0),
        driver=s.choice("driver", d.driver, get_args(LedDriver)),
        layout=s.choice("layout", d.layout, get_args(LedLayout)),
        first=s.choice("first", d.first, get_args(LedCorner)),
        along=s.choice("along", d.along, LINE_KINDS),
    )
    s.refuse_unknown()
    return config


def _serial(s: ConfigSection) -> SerialConfig:
    d = SerialConfig()
    config = SerialConfig(
        port=s.text("port", d.port), baud=s.integer("baud", d.baud, 300, 4_000_000)
    )
    s.refuse_unknown()
    return config


def _arbiter(s: ConfigSection) -> ArbiterConfig:
    d = ArbiterConfig()
    config = ArbiterConfig(
        mode=s.choice("mode", d.mode, MODES),
        settle_ms=s.integer("settle_ms", d.settle_ms, 1, 60_000),
        castle_wait_ms=s.integer("castle_wait_ms", d.castle_wait_ms, 1, 60_000),
        knock_wait_ms=s.integer("knock_wait_ms", d.knock_wait_ms, 1, 60_000),
        tournament=s.boolean("tournament", d.tournament),
    )
    s.refuse_unknown()
    return config


def _mqtt(s: ConfigSection) -> MqttConfig:
    config = MqttConfig(
        url=s.optional_text("url"),
        board_id=s.optional_text("board_id"),
        username=s.optional_text("username"),
        password_file=s.optional_text("password_file"),
        ca_file=s.optional_text("ca_file"),
        retry_ms=s.integer("retry_ms", RETRY_MS, *RETRY_MS_RANGE),
    )
    s.refuse_unknown()
    return config


def _ble(s: ConfigSection) -> BleConfig:
    ble = BleConfig(s.boolean("enabled", False), s.optional_text("adapter") or "hci0",
                    s.optional_text("name"))  # fmt: skip
    if (problem := ble.problem()) is not None:
        raise ConfigError(f"{s.key(problem[0])}: {problem[1]}")
    s.refuse_unknown()
    return ble


def _engine(s: ConfigSection) -> EngineConfig:
    d = EngineConfig()
    elo = s.integer("elo", d.elo, 0, 3190)
    config = EngineConfig(
        play=s.boolean("play", d.play),
        path=s.text("path", d.path),
        level=s.integer("level", d.level, 1, 20),
        elo=elo if elo == 0 else s.integer("elo", d.elo, 1320, 3190),
        side=s.choice("side", d.side, ("white", "black")),
        movetime_ms=s.integer("movetime_ms", d.movetime_ms, 10, 600_000),
        nice=s.integer("nice", d.nice, 0, 19),
    )
    s.refuse_unknown()
    return config


def _lichess(s: ConfigSection) -> LichessConfig:
    d = LichessConfig()
    config = LichessConfig(
        play=s.boolean("play", d.play),
        server=s.text("server", d.server),
        clock=s.text("clock", d.clock),
    )
    s.refuse_unknown()
    if config == d:
        return config  # the defaults are good: nothing of Lichess loaded before the first scan
    from argparse import ArgumentTypeError

    from reedboard.lichess.game import parse_clock
    from reedboard.lichess.settings import BadSetting, server_url

    try:
        server_url(config.server, s.key("server"))
    except BadSetting as error:
        raise ConfigError(str(error)) from None
    try:
        parse_clock(config.clock)
    except ArgumentTypeError as error:
        raise ConfigError(f"{s.key('clock')}: {error}") from None
    return config


def _voice(s: ConfigSection) -> VoiceConfig:
    d = VoiceConfig()
    enabled = s.get("enabled", d.enabled)
    if not isinstance(enabled, bool):
        raise ConfigError(f"{s.key('enabled')}: expected true or false, got {enabled!r}")
    optional: dict[str, str] = {}
    for name in ("voice", "device"):
        value = s.get(name, getattr(d, name))
        if not isinstance(value, str):
            raise ConfigError(f"{s.key(name)}: expected a string, got {value!r}")
        optional[name] = value
    config = VoiceConfig(
        enabled=enabled,
        language=s.choice("language", d.language, LANGUAGE_CODES),
        rate=s.integer("rate", d.rate, 80, 450),
        volume=s.integer("volume", d.volume, 0, 200),
        **optional,
    )
    s.refuse_unknown()
    return config


def _web(s: ConfigSection) -> WebConfig:
    d = WebConfig()
    config = WebConfig(
        enabled=s.boolean("enabled", d.enabled),
        address=s.text("address", d.address),
        port=s.integer("port", d.port, 0, 65535),
    )
    s.refuse_unknown()
    return config


def _clock(s: ConfigSection) -> ClockConfig:
    d = ClockConfig()
    control = s.get("control", d.control)
    if not isinstance(control, str):
        raise ConfigError(
            f'{s.key("control")}: expected a time control like "5+3", got {control!r}'
        )
    if control:
        try:
            parse_time_control(control)
        except InvalidInputError as error:
            raise ConfigError(f"{s.key('control')}: {error}") from None
    config = ClockConfig(
        control=control,
        white_pin=s.integer("white_pin", d.white_pin, 0, 27),
        black_pin=s.integer("black_pin", d.black_pin, 0, 27),
    )
    s.refuse_unknown()
    pins = {"white_pin": config.white_pin, "black_pin": config.black_pin}
    if (config.white_pin == 0) != (config.black_pin == 0):
        raise ConfigError(
            f"{s.key('white_pin')}: clock buttons come in pairs: set both pins or neither"
        )
    for name, pin in pins.items():
        if pin and pin not in HEADER_GPIOS:
            raise ConfigError(f"{s.key(name)}: GPIO{pin} is not usable (use GPIO2..GPIO27)")
    if config.white_pin and config.white_pin == config.black_pin:
        raise ConfigError(f"{s.key('black_pin')}: GPIO{config.black_pin} is also white_pin")
    return config


def _check_pin_conflicts(config: BoardConfig) -> None:
    led_pin = LED_DATA_PIN[config.leds.driver]
    uart = config.serial.port in _UART_PORTS
    matrix_pins = {
        pin: f"matrix.{name}"
        for name in ("rows", "columns")
        for pin in getattr(config.matrix, name)
    }
    for name in ("white_pin", "black_pin"):
        pin = getattr(config.clock, name)
        if not pin:
            continue
        if pin in matrix_pins:
            raise ConfigError(
                f"clock.{name}: GPIO{pin} is a matrix line ({matrix_pins[pin]}); pick another pin"
            )
        if pin == led_pin or (config.leds.driver == "spi" and pin in _SPI0_PINS):
            raise ConfigError(
                f"clock.{name}: GPIO{pin} drives the LEDs (leds.driver = {config.leds.driver!r}); pick another pin"
            )
        if uart and pin in _UART_PINS:
            raise ConfigError(
                f"clock.{name}: GPIO{pin} is {_UART_PINS[pin]}, which the link to the PC uses; pick another pin"
            )
    for name in ("rows", "columns"):
        for pin in getattr(config.matrix, name):
            if pin == led_pin:
                raise ConfigError(
                    f"matrix.{name}: GPIO{pin} drives the LEDs (leds.driver = "
                    f"{config.leds.driver!r}); pick another pin"
                )
            if config.leds.driver == "spi" and pin in _SPI0_PINS:
                # The SPI driver claims the whole bus, not only MOSI.
                raise ConfigError(
                    f"matrix.{name}: GPIO{pin} is {_SPI0_PINS[pin]}, and SPI0 drives the LEDs "
                    '(leds.driver = "spi"); pick another pin'
                )
            if uart and pin in _UART_PINS:
                raise ConfigError(
                    f"matrix.{name}: GPIO{pin} is {_UART_PINS[pin]}, which the link to the PC "
                    f"uses (serial.port = {config.serial.port!r}); pick another pin"
                )


def default_keys() -> dict[str, dict[str, object]]:
    """Every key and its default, by section: documentation and tests use it."""
    board = BoardConfig()
    return {name: section._asdict() for name, section in board._asdict().items()}
