"""The board's WS2812 chain through Adafruit's CircuitPython NeoPixel libraries.

Three drivers, chosen by `[leds] driver`:

- `spi` (default): `adafruit-circuitpython-neopixel-spi` on SPI0 MOSI (GPIO10). Runs
  without root on every Pi, including the Pi 5, because the bit timing comes from the
  SPI clock.
- `pwm`: `adafruit-circuitpython-neopixel` on GPIO18 (PWM/DMA through rpi_ws281x). Pi 4
  and older only; needs root.
- `pi5`: `adafruit-circuitpython-neopixel` on GPIO10 with the
  `adafruit-blinka-raspberry-pi5-neopixel` package, which drives the Pi 5's RP1 PIO.

The libraries (and `board`) are imported here only, inside `open_neopixel_strip`, so this
module imports on any PC. What they raise at start is one `HardwareError` line
(`hal/setup_trouble.py` knows their words).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from reedboard.errors import ReedboardError
from reedboard.hal.led_power import DEFAULT_BUDGET_MA
from reedboard.hal.pixelbuf_strip import PixelBufStrip
from reedboard.hal.setup_trouble import led_trouble

logger = logging.getLogger(__name__)

RESET_S = {"ws2812": 300e-6, "sk6812": 80e-6}


@dataclass(frozen=True)
class NeoPixelChain:
    """The chain as the libraries need it: `driver` (`spi`, `pwm`, `pi5`), `data_pin`
    (the BCM pin the driver sends on; SPI's is fixed, MOSI), `chip` (`ws2812`, `sk6812`),
    the colour `order` on the wire and the `brightness` (0..1)."""

    driver: str
    data_pin: int
    count: int = 64
    chip: str = "ws2812"
    order: str = "GRB"
    brightness: float = 0.25


def open_neopixel_strip(
    chain: NeoPixelChain, *, budget_ma: float = DEFAULT_BUDGET_MA
) -> PixelBufStrip:
    """The chain, ready for `show`; the LEDs start dark."""
    try:
        strip = PixelBufStrip(_buffer(chain), budget_ma=budget_ma)
        # The first frame is where a driver that opens its device lazily (rpi_ws281x's
        # PWM and DMA) meets its trouble: at start, not in the middle of a game.
        strip.show([(0, 0, 0)] * chain.count)
    except ReedboardError:
        raise
    except Exception as error:
        # Whatever the libraries raise (ImportError, Blinka's RuntimeError about a missing
        # platform library, OSError for SPI not enabled...) becomes one line saying what
        # to do; the whole traceback stays in the debug log.
        logger.debug("the LEDs did not start", exc_info=True)
        raise led_trouble(error, chain.driver, chain.data_pin) from error
    return strip


def _buffer(chain: NeoPixelChain) -> Any:
    import board

    options: dict[str, Any] = {
        "pixel_order": chain.order,
        "brightness": chain.brightness,
        "auto_write": False,
    }
    if chain.driver == "spi":
        import neopixel_spi

        # The pause that ends a frame is the SPI driver's to make, and the chips differ:
        # WS2812B (since its V5) wants 280 us, SK6812 80 us (the library's default).
        options["reset_time"] = RESET_S[chain.chip]
        return neopixel_spi.NeoPixel_SPI(board.SPI(), chain.count, **options)
    import neopixel

    pin = getattr(board, f"D{chain.data_pin}")
    return neopixel.NeoPixel(pin, chain.count, **options)


__all__ = ["NeoPixelChain", "open_neopixel_strip"]
