"""The NeoPixel factory picks the library the config names, imports it only then, and
builds the buffer with auto_write off; here with stand-in modules for `board` and the
Adafruit drivers, so it runs on any PC."""

from __future__ import annotations

import sys
import types
from typing import Any, ClassVar

import pytest
from reedboard.config import LedConfig, LedDriver
from reedboard.errors import HardwareError
from reedboard.hal.recording_pixelbuf import RecordingPixelBuf
from reedboard.wiring import open_strip


class Made:
    calls: ClassVar[list[tuple[str, Any, int, dict[str, Any]]]] = []


def fake_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    Made.calls = []
    board = types.ModuleType("board")
    board.__dict__.update(D10="D10", D18="D18", SPI=lambda: "SPI0")

    def maker(name: str) -> Any:
        def make(where: Any, count: int, **options: Any) -> RecordingPixelBuf:
            Made.calls.append((name, where, count, options))
            return RecordingPixelBuf(
                count, byteorder=options["pixel_order"], brightness=options["brightness"]
            )

        return make

    neopixel = types.ModuleType("neopixel")
    neopixel.__dict__.update(NeoPixel=maker("NeoPixel"))
    neopixel_spi = types.ModuleType("neopixel_spi")
    neopixel_spi.__dict__.update(NeoPixel_SPI=maker("NeoPixel_SPI"))
    for module in (board, neopixel, neopixel_spi):
        monkeypatch.setitem(sys.modules, module.__name__, module)


@pytest.mark.parametrize(
    ("driver", "library", "where"),
    [("spi", "NeoPixel_SPI", "SPI0"), ("pwm", "NeoPixel", "D18"), ("pi5", "NeoPixel", "D10")],
)
def test_each_driver_uses_its_library_and_pin(
    monkeypatch: pytest.MonkeyPatch, driver: LedDriver, library: str, where: str
) -> None:
    fake_modules(monkeypatch)
    config = LedConfig(driver=driver, count=81, order="RGB", brightness=0.5)
    strip = open_strip(config)
    ((name, pin, count, options),) = Made.calls
    assert (name, pin, count) == (library, where, 81)
    reset = {"reset_time": 300e-6} if driver == "spi" else {}  # a WS2812B's frame pause
    assert options == {"pixel_order": "RGB", "brightness": 0.5, "auto_write": False, **reset}
    assert isinstance(strip.buffer, RecordingPixelBuf)
    assert strip.buffer.transmitted == [bytes(81 * 3)]  # starts dark


def test_a_missing_library_is_a_hardware_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "board", None)
    with pytest.raises(HardwareError, match="board"):
        open_strip(LedConfig())
