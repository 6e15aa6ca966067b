"""`reedboard run` on a Pi that is not set up for the board, as a real process: one line on
stderr saying what to do, no traceback, and the exit status that tells the service not to
start it again (NEEDS_A_PERSON); a failure nobody knows a fix for stays status 1, which
the service restarts after. The Pi's libraries are stand-ins that fail as the real ones
do (`tests/support/pi_libraries.py`), first on the process's import path."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reedboard.command_line import BAD_ARGUMENTS, NEEDS_A_PERSON

from tests.support import pi_libraries as libs

SCRIPT = shutil.which("reedboard", path=str(Path(sys.executable).parent))


def run_board(
    tmp_path: Path, config: str = "", log: str = "info", **modules: str
) -> subprocess.CompletedProcess[str]:
    """`reedboard run` as the service runs it, with these stand-ins for the Pi's libraries,
    logging at `log`; ended (killed) if it is still running after a minute."""
    assert SCRIPT is not None, "the reedboard console script is not installed"
    site = tmp_path / "site"
    site.mkdir()
    libs.write_stand_ins(site, **modules)
    (tmp_path / "board.toml").write_text(config, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(site), "REEDBOARD_LOG": log}
    command = [SCRIPT, "run", "--config", str(tmp_path / "board.toml")]
    command += ["--journal", str(tmp_path / "journal.sqlite")]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, check=False)


def said(result: subprocess.CompletedProcess[str]) -> str:
    """The one line the board wrote on stderr, and nothing on stdout."""
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("reedboard run: ")
    return line.removeprefix("reedboard run: ")


@pytest.mark.parametrize(
    ("config", "modules", "pattern"),
    [
        pytest.param(
            "",
            {"RPi_GPIO": libs.RPI_GPIO, "board": libs.BOARD_WITHOUT_GPIOD},
            # Blinka names the Python it runs in (the venv's).
            r"leds.driver = 'spi' needs gpiod, which is not installed: run \S+python3? -m pip "
            r"install 'gpiod>=2\.2\.2,<3'$",
            id="blinka-without-gpiod",
        ),
        pytest.param(
            "",
            {
                "RPi_GPIO": libs.RPI_GPIO,
                "board": libs.BOARD_WITHOUT_SPI,
                "neopixel_spi": libs.NEOPIXEL_SPI,
            },
            r"leds.driver = 'spi' needs SPI, which is not enabled \(no /dev/spidev0\.0\): run "
            r"sudo raspi-config nonint do_spi 0, then reboot$",
            id="spi-not-enabled",
        ),
        pytest.param(
            '[leds]\ndriver = "pwm"\n',
            {
                "RPi_GPIO": libs.RPI_GPIO,
                "board": libs.BOARD,
                "neopixel": libs.NEOPIXEL_WITHOUT_WS281X,
            },
            r"leds.driver = 'pwm' needs _rpi_ws281x, which is not installed: run \S+python3? "
            r"-m pip install 'rpi_ws281x>=4\.0\.0'$",
            id="pwm-without-rpi-ws281x",
        ),
        pytest.param(
            "",
            {"RPi_GPIO": libs.RPI_GPIO_NOT_A_PI},
            r"RPi\.GPIO says this is not a Raspberry Pi: on a PC, run with --fake$",
            id="not-a-pi",
        ),
        pytest.param(
            "[clock]\nwhite_pin = 2\nblack_pin = 3\n",
            {"RPi_GPIO": libs.RPI_LGPIO_BUSY, "lgpio": libs.LGPIO},
            r"the clock buttons \(GPIO2, GPIO3\): a pin is held by another program: stop it ",
            id="lgpio-busy",
        ),
    ],
)
def test_a_pi_not_set_up_is_one_line_and_needs_a_person(
    tmp_path: Path, config: str, modules: dict[str, str], pattern: str
) -> None:
    result = run_board(tmp_path, config, **modules)
    assert re.match(pattern, said(result)), said(result)
    assert result.returncode == NEEDS_A_PERSON


def test_a_failure_without_a_known_fix_is_one_line_and_status_1(tmp_path: Path) -> None:
    odd = 'def SPI():\n    raise ValueError("odd")\n'
    result = run_board(tmp_path, RPi_GPIO=libs.RPI_GPIO, board=odd, neopixel_spi=libs.NEOPIXEL_SPI)
    assert said(result) == "leds.driver = 'spi': the LEDs did not start: ValueError: odd"
    assert result.returncode == 1


def test_the_debug_log_keeps_the_librarys_traceback(tmp_path: Path) -> None:
    # For a report: REEDBOARD_LOG=debug shows where the library failed, then the one line.
    result = run_board(
        tmp_path, log="debug", RPi_GPIO=libs.RPI_GPIO, board=libs.BOARD_WITHOUT_GPIOD
    )
    assert result.returncode == NEEDS_A_PERSON
    assert "Traceback (most recent call last)" in result.stderr
    assert "RuntimeError: The platform library 'gpiod' was not found." in result.stderr
    last = result.stderr.splitlines()[-1]
    assert last.startswith("reedboard run: leds.driver = 'spi' needs gpiod")


def test_the_debug_log_keeps_the_gpio_librarys_traceback(tmp_path: Path) -> None:
    # The pins are set up before the board's log (its first scan waits for no logging):
    # the library's traceback is still in the debug log, then the one line.
    config = "[clock]\nwhite_pin = 2\nblack_pin = 3\n"
    modules = {"RPi_GPIO": libs.RPI_LGPIO_BUSY, "lgpio": libs.LGPIO}
    result = run_board(tmp_path, config, log="debug", **modules)
    assert result.returncode == NEEDS_A_PERSON
    assert "what the GPIO library raised\nTraceback (most recent call last)" in result.stderr
    last = result.stderr.splitlines()[-1]
    assert last.startswith("reedboard run: the clock buttons (GPIO2, GPIO3): a pin is held")


def unit_settings() -> dict[str, str]:
    """The `key=value` lines of the service's unit (comments and sections aside)."""
    unit = Path(__file__).resolve().parents[2] / "deploy" / "reedboard.service"
    lines = unit.read_text(encoding="utf-8").splitlines()
    pairs = (line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))
    return {key.strip(): value.strip() for key, value in pairs}


def test_the_service_restarts_after_a_crash_but_not_for_a_person() -> None:
    settings = unit_settings()
    assert settings["Restart"] == "on-failure"  # a crash exits 1: started again
    kept = {int(status) for status in settings["RestartPreventExitStatus"].split()}
    assert kept == {BAD_ARGUMENTS, NEEDS_A_PERSON}
