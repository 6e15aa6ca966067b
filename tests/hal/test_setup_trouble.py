"""What the Pi's libraries raise when the Pi is not set up for the board reaches the person
as one line that says what to do: the adapters really import stand-ins that fail with the
real libraries' exceptions and words (`tests/support/pi_libraries.py`)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from reedboard.config import LedConfig, LedDriver, MatrixConfig
from reedboard.errors import HardwareError, HardwareSetupError
from reedboard.hal.clock_buttons import open_clock_buttons
from reedboard.hal.recording_pixelbuf import RecordingPixelBuf
from reedboard.wiring import open_scanner, open_strip

from tests.support import pi_libraries as libs

StandIns = Callable[..., None]


@pytest.fixture
def stand_ins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[StandIns]:
    """Puts the given stand-in modules first on the import path, none of them imported yet;
    they are forgotten again after the test."""

    def install(**sources: str) -> None:
        directory = libs.write_stand_ins(tmp_path / "site", **sources)
        monkeypatch.syspath_prepend(str(directory))
        importlib.invalidate_caches()

    (tmp_path / "site").mkdir()
    for name in libs.STAND_IN_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield install
    for name in libs.STAND_IN_MODULES:
        sys.modules.pop(name, None)


def leds_fail(driver: LedDriver) -> HardwareError:
    with pytest.raises(HardwareError) as caught:
        open_strip(LedConfig(driver=driver))
    return caught.value


def one_line_setup_error(error: HardwareError) -> str:
    assert isinstance(error, HardwareSetupError), error
    text = str(error)
    assert "\n" not in text
    return text


INSTALL = f"{sys.executable} -m pip install"


@pytest.mark.parametrize(
    ("driver", "modules", "says"),
    [
        pytest.param(
            "spi",
            {"board": libs.BOARD_WITHOUT_GPIOD, "neopixel_spi": libs.NEOPIXEL_SPI},
            f"leds.driver = 'spi' needs gpiod, which is not installed: run {INSTALL} "
            "'gpiod>=2.2.2,<3'",
            id="blinka-without-gpiod",
        ),
        pytest.param(
            "spi",
            {"board": libs.BOARD_WITH_OLD_GPIOD, "neopixel_spi": libs.NEOPIXEL_SPI},
            "leds.driver = 'spi': a GPIO library has a version Blinka does not support: run "
            f"{INSTALL} 'gpiod>=2.2.2,<3'",
            id="blinka-with-old-gpiod",
        ),
        pytest.param(
            "spi",
            {"board": libs.BOARD_INSTALL_REFUSED, "neopixel_spi": libs.NEOPIXEL_SPI},
            f"leds.driver = 'spi': Blinka could not install what it needs: run {INSTALL} "
            "'gpiod>=2.2.2,<3' (with sudo when the board's venv is root's)",
            id="blinka-could-not-install",
        ),
        pytest.param(
            "spi",
            {"board": libs.BOARD_INSTALLED_NOW, "neopixel_spi": libs.NEOPIXEL_SPI},
            "leds.driver = 'spi': Blinka has installed what it needs: start the board again",
            id="blinka-installed-now",
        ),
        pytest.param(
            "spi",
            {"board": libs.BOARD_WITHOUT_SPI, "neopixel_spi": libs.NEOPIXEL_SPI},
            "leds.driver = 'spi' needs SPI, which is not enabled (no /dev/spidev0.0): run "
            "sudo raspi-config nonint do_spi 0, then reboot",
            id="spi-not-enabled",
        ),
        pytest.param(
            "spi",
            {"board": libs.BOARD_SPI_PORT_UNKNOWN, "neopixel_spi": libs.NEOPIXEL_SPI},
            "leds.driver = 'spi' needs SPI, which is not enabled: run sudo raspi-config "
            "nonint do_spi 0, then reboot",
            id="spi-port-unknown",
        ),
        pytest.param(
            "spi",
            {"board": libs.BOARD_SPI_DENIED, "neopixel_spi": libs.NEOPIXEL_SPI},
            "leds.driver = 'spi': no permission to open /dev/spidev0.0: add the user to the "
            "spi group (sudo usermod -aG spi USER, then log in again; the service's unit has "
            "SupplementaryGroups=spi)",
            id="spi-not-allowed",
        ),
        pytest.param(
            "spi",
            {"board": libs.BOARD},
            "leds.driver = 'spi' needs neopixel_spi, which is not installed: install the "
            "board's extra (pip install 'reedboard[pi]')",
            id="neopixel-spi-missing",
        ),
        pytest.param(
            "spi",
            {"board": libs.BOARD, "neopixel_spi": libs.NEOPIXEL_SPI_OLD},
            "leds.driver = 'spi': adafruit-circuitpython-neopixel-spi (version unknown) is too "
            "old (it has no reset_time): pip install --upgrade "
            "adafruit-circuitpython-neopixel-spi",
            id="neopixel-spi-too-old",
        ),
        pytest.param(
            "pwm",
            {"board": libs.BOARD, "neopixel": libs.NEOPIXEL_WITHOUT_WS281X},
            f"leds.driver = 'pwm' needs _rpi_ws281x, which is not installed: run {INSTALL} "
            "'rpi_ws281x>=4.0.0'",
            id="pwm-without-rpi-ws281x",
        ),
        pytest.param(
            "pwm",
            {"board": libs.BOARD, "neopixel": libs.NEOPIXEL_WITHOUT_ROOT},
            "leds.driver = 'pwm' needs root: set User=root in the service's unit, or use "
            "driver = 'spi'",
            id="pwm-without-root",
        ),
        pytest.param(
            "pwm",
            {"board": libs.BOARD, "neopixel": libs.NEOPIXEL_PIN_BUSY},
            "leds.driver = 'pwm': GPIO18 (the LEDs' data pin) is held by another program: "
            "stop it (gpioinfo names each line's user) or wire the board to free pins",
            id="pwm-pin-busy",
        ),
        pytest.param(
            "pwm",
            {"board": libs.BOARD, "neopixel": libs.NEOPIXEL_GPIO_DENIED},
            "leds.driver = 'pwm': no permission to open /dev/gpiochip*: add the user to the "
            "gpio group",
            id="pwm-gpio-not-allowed",
        ),
        pytest.param(
            "pi5",
            {"board": libs.BOARD, "neopixel": libs.NEOPIXEL_PIO_DENIED},
            "leds.driver = 'pi5': no permission to open /dev/pio0: add the user to the gpio group",
            id="pi5-pio-not-allowed",
        ),
        pytest.param(
            "pi5",
            {"board": libs.BOARD, "neopixel": libs.NEOPIXEL_PIO_MISSING},
            "leds.driver = 'pi5': the Pi 5's PIO does not open (Failed to open PIO device "
            "(error -2)): update Raspberry Pi OS (sudo apt full-upgrade) and reboot, or use "
            "driver = 'spi'",
            id="pi5-pio-missing",
        ),
    ],
)
def test_led_trouble_is_one_line_saying_what_to_do(
    stand_ins: StandIns, driver: LedDriver, modules: dict[str, str], says: str
) -> None:
    stand_ins(**modules)
    assert one_line_setup_error(leds_fail(driver)).startswith(says)


def test_a_machine_blinka_does_not_know_says_fake(stand_ins: StandIns) -> None:
    stand_ins(board=libs.BOARD_UNKNOWN_MACHINE, neopixel_spi=libs.NEOPIXEL_SPI)
    text = one_line_setup_error(leds_fail("spi"))
    assert text.startswith("leds.driver = 'spi': the LED library does not know this machine")
    assert "on a PC, run with --fake" in text


@pytest.mark.parametrize("driver", ["spi", "pwm"])
def test_a_board_without_the_pins_says_fake(stand_ins: StandIns, driver: LedDriver) -> None:
    # Blinka on a PC it takes for a generic x86 machine: a `board` without SPI or D18.
    stand_ins(board="", neopixel_spi=libs.NEOPIXEL_SPI, neopixel=libs.NEOPIXEL)
    text = one_line_setup_error(leds_fail(driver))
    assert text.startswith(f"leds.driver = '{driver}': the LED library does not know this")
    assert "module 'board' has no attribute" in text and "on a PC, run with --fake" in text


@pytest.mark.parametrize(
    ("path", "fix"),
    [
        ("/dev/mem", "only root may open it: set User=root in the service's unit"),
        ("/dev/ttyAMA0", "run the board as a user who may (ls -l shows the file's owner"),
    ],
)
def test_a_permission_names_the_file_and_who_may_open_it(
    stand_ins: StandIns, path: str, fix: str
) -> None:
    board = f'def SPI():\n    raise PermissionError(13, "Permission denied", "{path}")\n'
    stand_ins(board=board, neopixel_spi=libs.NEOPIXEL_SPI)
    text = one_line_setup_error(leds_fail("spi"))
    assert text.startswith(f"leds.driver = 'spi': no permission to open {path}: {fix}")


def test_the_stand_ins_that_work_light_the_strip(stand_ins: StandIns) -> None:
    # The failing cases above differ from these in the trouble only.
    stand_ins(board=libs.BOARD, neopixel_spi=libs.NEOPIXEL_SPI, neopixel=libs.NEOPIXEL)
    for driver in ("spi", "pwm"):
        buffer = open_strip(LedConfig(driver=driver, count=64)).buffer
        assert isinstance(buffer, RecordingPixelBuf)
        assert buffer.transmitted == [bytes(64 * 3)]


def test_an_unknown_failure_is_one_line_but_not_a_setup_error(stand_ins: StandIns) -> None:
    # Not one a person is known to fix: the service may try again (exit status 1).
    stand_ins(board='def SPI():\n    raise ValueError("odd\\nthing")\n')
    stand_ins(neopixel_spi=libs.NEOPIXEL_SPI)
    error = leds_fail("spi")
    assert not isinstance(error, HardwareSetupError)
    assert str(error) == "leds.driver = 'spi': the LEDs did not start: ValueError: odd thing"


@pytest.mark.parametrize(
    ("gpio", "says"),
    [
        pytest.param(
            libs.RPI_GPIO_NOT_A_PI,
            "RPi.GPIO says this is not a Raspberry Pi: on a PC, run with --fake",
            id="not-a-pi",
        ),
        pytest.param(
            libs.RPI_GPIO_NO_GPIOMEM,
            "the switch matrix: no permission to open /dev/gpiomem: add the user to the gpio group",
            id="no-gpiomem",
        ),
        pytest.param(
            libs.RPI_GPIO_ON_A_PI_5,
            "the switch matrix: RPi.GPIO does not run on this Pi (Cannot determine SOC "
            "peripheral base address): on a Pi 5, pip uninstall RPi.GPIO, then pip install "
            "rpi-lgpio",
            id="rpi-gpio-on-a-pi-5",
        ),
        pytest.param(
            libs.RPI_LGPIO_BUSY,
            "the switch matrix: a pin is held by another program: stop it",
            id="lgpio-busy",
        ),
        pytest.param(
            libs.RPI_LGPIO_NO_CHIP,
            "the switch matrix: cannot open the GPIO chip (can not open gpiochip): add the "
            "user to the gpio group",
            id="lgpio-no-chip",
        ),
    ],
)
def test_gpio_trouble_is_one_line_saying_what_to_do(
    stand_ins: StandIns, gpio: str, says: str
) -> None:
    stand_ins(RPi_GPIO=gpio, lgpio=libs.LGPIO)
    with pytest.raises(HardwareError) as caught:
        open_scanner(MatrixConfig())
    assert one_line_setup_error(caught.value).startswith(says)


def test_rpi_gpio_missing_says_what_to_install(stand_ins: StandIns) -> None:
    stand_ins()
    with pytest.raises(HardwareError) as caught:
        open_scanner(MatrixConfig())
    text = one_line_setup_error(caught.value)
    assert text.startswith("RPi.GPIO is not installed: on the board, install the board's extra")
    assert "on a Pi 5, pip install rpi-lgpio instead" in text


def test_rpi_lgpio_without_lgpio_names_lgpio(stand_ins: StandIns) -> None:
    stand_ins(RPi_GPIO="import lgpio\n")
    with pytest.raises(HardwareError) as caught:
        open_scanner(MatrixConfig())
    assert one_line_setup_error(caught.value) == (
        "RPi.GPIO needs lgpio, which does not load (No module named 'lgpio'): "
        "pip install --force-reinstall lgpio in the board's venv"
    )


def test_clock_buttons_on_a_busy_pin(stand_ins: StandIns) -> None:
    stand_ins(RPi_GPIO=libs.RPI_LGPIO_BUSY, lgpio=libs.LGPIO)
    with pytest.raises(HardwareError) as caught:
        open_clock_buttons(20, 21)
    assert one_line_setup_error(caught.value).startswith(
        "the clock buttons (GPIO20, GPIO21): a pin is held by another program"
    )


def test_clock_buttons_without_gpiomem(stand_ins: StandIns) -> None:
    stand_ins(RPi_GPIO=libs.RPI_GPIO_NO_GPIOMEM)
    with pytest.raises(HardwareError) as caught:
        open_clock_buttons(20, 21)
    assert "no permission to open /dev/gpiomem" in one_line_setup_error(caught.value)
