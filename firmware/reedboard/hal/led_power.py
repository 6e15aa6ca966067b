"""The LEDs' power budget: a cap on what one frame may draw from the supply.

A WS2812 draws about 20 mA per colour channel at full drive, so 60 mA for full white;
64 of them at full white want about 3.8 A, nearly all the LEDs' own 5 V 4 A supply gives.
Brightness (the `[leds] brightness` setting, for daylight or a dim room) scales every
frame; on top of it the cap scales down only a frame that would draw more than the
budget, so ordinary scenes (a few squares lit) keep their full brightness.
"""

from __future__ import annotations

from collections.abc import Sequence

RGB = tuple[int, int, int]

CHANNEL_MA = 20.0  # one WS2812 channel at 255
# What the LEDs may draw. They have a 5 V 4 A supply of their own (the Pi has its own
# supply and never feeds them): 2 A, plus about 1 mA per dark LED, keeps it under two
# thirds of its rating, cool and with the voltage up at the far end of the chain.
DEFAULT_BUDGET_MA = 2000.0


def frame_current_ma(pixels: Sequence[RGB], brightness: float = 1.0) -> float:
    """What the strip draws showing `pixels` at `brightness` (LED colour current only)."""
    total = 0
    for red, green, blue in pixels:
        total += red + green + blue
    return total * CHANNEL_MA / 255 * brightness


def power_scale(
    pixels: Sequence[RGB], brightness: float, budget_ma: float = DEFAULT_BUDGET_MA
) -> float:
    """The factor (0..1) that brings the frame within the budget at `brightness`."""
    current = frame_current_ma(pixels, brightness)
    return 1.0 if current <= budget_ma else budget_ma / current


def within_budget(
    pixels: Sequence[RGB], brightness: float, budget_ma: float = DEFAULT_BUDGET_MA
) -> list[RGB]:
    """`pixels`, scaled down if the frame would draw more than `budget_ma`."""
    scale = power_scale(pixels, brightness, budget_ma)
    if scale >= 1.0:
        return list(pixels)
    return [(int(r * scale), int(g * scale), int(b * scale)) for r, g, b in pixels]


__all__ = [
    "CHANNEL_MA",
    "DEFAULT_BUDGET_MA",
    "frame_current_ma",
    "power_scale",
    "within_budget",
]
