"""The LED test a maker runs on a new build (`reedboard-host led-test`). Pure.

First each LED alone, one after the other in chain order: a wrong `[leds]` layout, first
corner or direction shows as a dot that does not run the way the squares do, and a dead
LED (or a broken data line after it) as the place where the dot goes dark. Then the
whole chain red, green, blue and white: a wrong colour order shows as the wrong colour,
and a weak supply as white turning yellow towards the end of the chain."""

from __future__ import annotations

from reedboard.lights.palette import RGB

STEP_MS = 40  # each LED alone: 64 LEDs take 2.6 s, long enough to follow with the eye
COLOUR_MS = 600
COLOURS: tuple[RGB, ...] = ((255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255))
DOT: RGB = (255, 255, 255)
_DARK: RGB = (0, 0, 0)


def duration_ms(count: int) -> int:
    """How long the test lasts on a chain of `count` LEDs."""
    return count * STEP_MS + len(COLOURS) * COLOUR_MS


def pattern_pixels(count: int, elapsed_ms: int) -> list[RGB] | None:
    """The chain's pixels `elapsed_ms` into the test; None once it is over."""
    if elapsed_ms < 0:
        elapsed_ms = 0
    step = elapsed_ms // STEP_MS
    if step < count:
        pixels = [_DARK] * count
        pixels[step] = DOT
        return pixels
    shade = (elapsed_ms - count * STEP_MS) // COLOUR_MS
    if shade < len(COLOURS):
        return [COLOURS[shade]] * count
    return None


__all__ = ["COLOURS", "DOT", "duration_ms", "pattern_pixels"]
