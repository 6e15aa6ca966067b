"""The check that the Pi's install still resolves to the pinned versions."""

from __future__ import annotations

import pytest

from scripts import pi_constraints
from scripts.pi_constraints import ResolutionError, drift, read_pins


def test_the_pins_are_read_by_normalized_name() -> None:
    text = "# a comment\n\nRPi.GPIO==0.7.1\nAdafruit_Blinka==9.2.0  # why\n"
    assert read_pins(text) == {"rpi-gpio": "0.7.1", "adafruit-blinka": "9.2.0"}


def test_the_checked_in_pins_name_the_board_libraries() -> None:
    pins = read_pins(pi_constraints.CONSTRAINTS.read_text(encoding="utf-8"))
    assert pins["rpi-gpio"] == "0.7.1"
    # Blinka 10 drives the pins through gpiod, which it does not install.
    assert pins["adafruit-blinka"].split(".")[0] == "9"
    assert {"rpi-ws281x", "adafruit-circuitpython-neopixel-spi", "pyserial"} <= pins.keys()
    assert "dbus-fast" in pins  # the `ble` extra: a board for phone apps


def test_a_new_dependency_and_a_dropped_one_are_both_reported() -> None:
    pins = {"rpi-gpio": "0.7.1", "gone": "1.0"}
    resolved = {"rpi-gpio": "0.7.1", "gpiod": "2.5.0"}
    assert drift(pins, resolved) == [
        "gpiod==2.5.0 would be installed but is not pinned",
        "gone==1.0 is pinned but no longer installed",
    ]
    assert drift(pins, dict(pins)) == []


def test_an_unreachable_index_is_said_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # Nothing listens on port 9 of the loopback: the index cannot be reached.
    monkeypatch.setenv("UV_INDEX_URL", "http://127.0.0.1:9/simple")
    monkeypatch.setenv("UV_NO_CACHE", "1")
    monkeypatch.delenv("UV_OFFLINE", raising=False)
    with pytest.raises(ResolutionError, match="cannot reach the package index"):
        pi_constraints.resolve("3.11", pi_constraints.CONSTRAINTS)
