"""The board's TOML configuration: defaults, the example file, and errors that name the key."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from reedboard.config import BoardConfig, MatrixConfig, default_keys, load_config, parse_config
from reedboard.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parents[1] / "board.example.toml"


def test_no_file_means_defaults() -> None:
    assert load_config(None) == BoardConfig()
    assert parse_config("") == BoardConfig()


def test_default_pin_map_fits_the_header_and_leaves_led_pins_free() -> None:
    matrix = MatrixConfig()
    pins = set(matrix.rows) | set(matrix.columns)
    assert len(pins) == 16
    assert pins <= set(range(2, 28))
    assert not pins & {10, 18}  # SPI MOSI and PWM0: the LED data line
    assert not pins & {7, 8, 9, 11, 14, 15, 2, 3}  # the rest of SPI0, the UART, I2C


def test_example_file_gives_the_defaults_and_documents_every_key() -> None:
    assert load_config(EXAMPLE) == BoardConfig()
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    documented = {section: set(keys) for section, keys in data.items()}
    assert documented == {section: set(keys) for section, keys in default_keys().items()}


def test_values_are_read() -> None:
    config = parse_config(
        """
        [matrix]
        rows = [4, 5, 6, 7, 8, 9, 10, 20]
        columns = [11, 12, 13, 14, 15, 16, 17, 19]
        a1 = "R8C1"
        rows_are = "files"
        settle_us = 50
        [debounce]
        hold_ms = 15
        [leds]
        driver = "pwm"
        brightness = 0.5
        [serial]
        port = "loop://"
        [arbiter]
        mode = "strict"
        """
    )
    assert config.matrix.rows == (4, 5, 6, 7, 8, 9, 10, 20)
    assert config.matrix.a1 == "R8C1" and config.matrix.rows_are == "files"
    assert config.matrix.settle_us == 50.0
    assert config.debounce.hold_ms == 15
    assert config.leds.driver == "pwm" and config.leds.brightness == 0.5
    assert config.serial.port == "loop://"
    assert config.arbiter.mode == "strict"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[matrix]\nrows = [1, 2, 3]", "matrix.rows: expected a list of 8 BCM pin numbers"),
        ("[matrix]\nrows = [4, 17, 27, 22, 5, 6, 13, 40]", "matrix.rows: GPIO40 is not usable"),
        ('[matrix]\nrows = [4, 17, 27, 22, 5, 6, 13, "x"]', "matrix.rows: 'x' is not a BCM pin"),
        (
            "[matrix]\ncolumns = [26, 23, 24, 25, 12, 16, 20, 4]",
            "matrix.columns: GPIO4 is used twice",
        ),
        (
            "[matrix]\ncolumns = [2, 23, 24, 25, 12, 16, 20, 21]",
            "matrix.columns: GPIO2 has a fixed pull-up",
        ),
        ("[matrix]\nrows = [10, 17, 27, 22, 5, 6, 13, 19]", "matrix.rows: GPIO10 drives the LEDs"),
        (
            "[matrix]\nrows = [3, 17, 27, 22, 5, 6, 13, 19]",
            "matrix.rows: GPIO3 has a fixed pull-up on the Pi: the row sits HIGH while idle",
        ),
        (
            "[matrix]\nrows = [4, 17, 27, 22, 5, 6, 13, 9]",
            'matrix.rows: GPIO9 is SPI0 MISO, and SPI0 drives the LEDs (leds.driver = "spi")',
        ),
        (
            "[matrix]\ncolumns = [26, 23, 24, 25, 12, 16, 20, 14]",
            "matrix.columns: GPIO14 is the UART's TXD, which the link to the PC uses "
            "(serial.port = '/dev/serial0')",
        ),
        (
            '[serial]\nport = "/dev/ttyAMA0"\n[matrix]\nrows = [4, 17, 27, 22, 5, 6, 13, 15]',
            "matrix.rows: GPIO15 is the UART's RXD",
        ),
        ('[matrix]\na1 = "R2C2"', "matrix.a1: 'R2C2' is not one of"),
        ('[matrix]\nrows_are = "diagonals"', "matrix.rows_are: 'diagonals' is not one of"),
        ("[matrix]\nsettle_us = -1", "matrix.settle_us: -1 is outside"),
        ("[matrix]\nscan_hz = true", "matrix.scan_hz: expected a number"),
        ("[matrix]\nrow = []", "matrix.row: unknown key"),
        ('[debounce]\nhold_ms = "12"', "debounce.hold_ms: expected an integer"),
        ("[debounce]\nhold_ms = 0", "debounce.hold_ms: 0 is outside 1..1000"),
        ("[leds]\nbrightness = 1.5", "leds.brightness: 1.5 is outside"),
        ('[leds]\norder = "XYZ"', "leds.order: 'XYZ' is not one of"),
        ('[leds]\ntype = "apa102"', "leds.type: 'apa102' is not one of"),
        ("[leds]\ncount = 0", "leds.count: 0 is outside"),
        (
            '[leds]\ndriver = "pwm"\n[matrix]\nrows = [18, 17, 27, 22, 5, 6, 13, 19]',
            "GPIO18 drives the LEDs",
        ),
        ('[serial]\nport = ""', "serial.port: expected a non-empty string"),
        ('[arbiter]\nmode = "blitz"', "arbiter.mode: 'blitz' is not one of"),
        ("[arbiter]\nknock_wait_ms = 0", "arbiter.knock_wait_ms: 0 is outside"),
        ("[mqtt]\nretry_ms = 5", "mqtt.retry_ms: 5 is outside 10..600000"),
        ('[mqtt]\nretry_ms = "1s"', "mqtt.retry_ms: expected an integer"),
        ("matrix = 3", "matrix: expected a table"),
        ("[lights]\nx = 1", "lights: unknown key"),
        ("[matrix\n", "not valid TOML"),
    ],
)
def test_bad_values_name_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    assert message in str(caught.value)


def test_config_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_config("[debounce]\nhold_ms = -3")


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read config file"):
        load_config(tmp_path / "nope.toml")


def test_error_names_the_file_when_toml_is_broken(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    path.write_text("[matrix]\nrows = [", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"board\.toml: not valid TOML"):
        load_config(path)


def test_configs_are_frozen() -> None:
    with pytest.raises(AttributeError):
        BoardConfig().matrix.rows = ()  # type: ignore[misc]  # mypy sees the frozen field too: the test is that run time refuses it


def test_the_file_speaks_the_words_of_the_parts_it_configures() -> None:
    """The configuration spells its choices itself, so that the matrix and the LED chain
    need not know it; the spellings must stay the ones those parts take."""
    from typing import get_args

    from reedboard import config
    from reedboard.hal import matrix_layout
    from reedboard.lights import strip_layout

    assert config.CORNERS == matrix_layout.CORNERS
    assert config.LINE_KINDS == matrix_layout.LINE_KINDS
    assert get_args(config.LedLayout) == strip_layout.CHAIN_KINDS
    assert get_args(config.LedCorner) == strip_layout.FIRST_CORNERS
    assert config.LINE_KINDS == strip_layout.ALONG


def test_bus_pins_are_free_when_the_bus_is_not_used() -> None:
    # PWM LEDs leave SPI0 free; a USB serial link leaves the UART free.
    config = parse_config(
        '[leds]\ndriver = "pwm"\n[serial]\nport = "/dev/ttyGS0"\n'
        "[matrix]\nrows = [4, 7, 8, 9, 11, 14, 15, 19]"
    )
    assert config.matrix.rows == (4, 7, 8, 9, 11, 14, 15, 19)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[clock]\ncontrol = "5+"\n', "clock.control: time control '5.': expected MIN"),
        ("[clock]\ncontrol = 5\n", "clock.control: expected a time control"),
        ("[clock]\nwhite_pin = 2\n", "clock.white_pin: clock buttons come in pairs"),
        ("[clock]\nwhite_pin = 2\nblack_pin = 2\n", "clock.black_pin: GPIO2 is also white_pin"),
        ("[clock]\nwhite_pin = 1\nblack_pin = 2\n", "clock.white_pin: GPIO1 is not usable"),
        ("[clock]\nwhite_pin = 4\nblack_pin = 2\n", "clock.white_pin: GPIO4 is a matrix line"),
        ("[clock]\nwhite_pin = 10\nblack_pin = 2\n", "clock.white_pin: GPIO10 drives the LEDs"),
        ("[clock]\nwhite_pin = 14\nblack_pin = 2\n", "clock.white_pin: GPIO14 is the UART's"),
    ],
)
def test_clock_keys_are_checked(text: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        parse_config(text)


def test_clock_buttons_on_the_free_pins() -> None:
    clock = parse_config('[clock]\ncontrol = "90/40:30+30"\nwhite_pin = 2\nblack_pin = 3\n').clock
    assert (clock.control, clock.white_pin, clock.black_pin) == ("90/40:30+30", 2, 3)


def test_the_mqtt_files_are_found_next_to_the_config_file(tmp_path: Path) -> None:
    """A board's TOML, password and CA are copied to the board together: the files it
    names are beside it, wherever the board is started from."""
    folder = tmp_path / "club"
    folder.mkdir()
    toml = folder / "board-b1.toml"
    toml.write_text(
        '[mqtt]\nurl = "mqtts://club:8883"\npassword_file = "board-b1.password"\n'
        f'ca_file = "{tmp_path / "elsewhere.crt"}"\n'
    )
    mqtt = load_config(toml).mqtt
    assert mqtt.password_file == str(folder / "board-b1.password")
    assert mqtt.ca_file == str(tmp_path / "elsewhere.crt")  # an absolute path stays
    assert load_config(None).mqtt.password_file == ""
