"""From the board's configuration to its parts: the one place that turns the sections of
the TOML file into the plain values the hardware adapters, the self-test and the lights
take, so that none of them needs to know the configuration."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from reedboard.config import LED_DATA_PIN, LedConfig, MatrixConfig
from reedboard.hal.gpio import GpioModule
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout, MatrixWiring
from reedboard.hal.rpi import open_matrix_scanner

if TYPE_CHECKING:
    from reedboard.hal.pixelbuf_strip import PixelBufStrip
    from reedboard.lights.strip_layout import StripLayout


def matrix_wiring(matrix: MatrixConfig) -> MatrixWiring:
    """The switch matrix's pins and orientation, as `[matrix]` gives them."""
    return MatrixWiring(matrix.rows, matrix.columns, MatrixLayout(matrix.a1, matrix.rows_are))


def open_scanner(
    matrix: MatrixConfig,
    *,
    gpio: GpioModule | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> MatrixScanner:
    """The configured matrix's scanner, on `RPi.GPIO` unless another module is given."""
    wiring = matrix_wiring(matrix)
    return open_matrix_scanner(
        wiring.rows,
        wiring.columns,
        wiring.layout,
        settle_us=matrix.settle_us,
        gpio=gpio,
        sleep=sleep,
    )


def open_strip(leds: LedConfig) -> PixelBufStrip:
    """The configured LED chain, through the NeoPixel driver `[leds] driver` names."""
    # The lights are loaded after the matrix is scanning (`open_scanner` comes first).
    from reedboard.hal.neopixel_strip import NeoPixelChain, open_neopixel_strip

    chain = NeoPixelChain(
        driver=leds.driver,
        data_pin=LED_DATA_PIN[leds.driver],
        count=leds.count,
        chip=leds.type,
        order=leds.order,
        brightness=leds.brightness,
    )
    return open_neopixel_strip(chain)


def strip_layout(leds: LedConfig) -> StripLayout:
    """Where each square's light is on the configured chain."""
    from reedboard.lights.strip_layout import StripLayout

    return StripLayout.of_chain(leds.layout, leds.first, leds.along, leds.count)


__all__ = ["matrix_wiring", "open_scanner", "open_strip", "strip_layout"]
