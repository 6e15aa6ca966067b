"""What each role looks like: a colour and an effect.

Chosen for colour-blind players first: no two roles that can be lit at the same time rely
on hue alone. Each such pair differs in effect (steady, blink, pulse) or clearly in
lightness (relative luminance at least `MIN_LIGHTNESS_GAP` apart), which survives any
kind of colour blindness and a grey-scale photo. Red and green never meet without it.
Which roles can be lit together is written down in `TOGETHER`, and tested.

The host's own squares (`marked`, `marked_blink`: a chess program lighting squares that are
not a move) are lime, steady or blinking as the program asks. They show only while no
piece is in the hands, with the last move, a check, a hint, a touched piece and a
promotion square: lime is far lighter than the last move's dim blue-white and than the
check's red, and every other role there pulses. Lime is a hue no other role has, so a
player who tells hues apart never takes a marked square for one of the board's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from reedboard.lights.roles import ROLES, LightEffect, Role

RGB = tuple[int, int, int]

MIN_LIGHTNESS_GAP = 0.2


@dataclass(frozen=True, slots=True)
class Look:
    colour: RGB
    effect: LightEffect


Palette = Mapping[Role, Look]

PALETTE: dict[Role, Look] = {
    "origin": Look((255, 255, 255), "steady"),  # white
    "target": Look((0, 64, 255), "steady"),  # blue, dark
    "capture": Look((255, 170, 0), "blink"),  # amber, light
    "en_passant": Look((160, 0, 255), "blink"),  # violet, dark
    "castle": Look((0, 220, 255), "pulse"),  # cyan, light
    "capturer": Look((255, 240, 100), "blink"),  # pale yellow, lighter than capture
    "last_move": Look((40, 40, 64), "steady"),  # dim blue-white: seen, never in the way
    "check": Look((255, 0, 0), "blink"),  # red
    "missing": Look((255, 200, 0), "pulse"),  # yellow: a piece belongs here
    "extra": Look((255, 0, 0), "blink"),  # red: take this piece away
    "must_move": Look((255, 255, 255), "pulse"),  # white
    "violation": Look((255, 0, 255), "steady"),  # magenta
    "pending": Look((255, 140, 0), "steady"),  # amber
    "promotion": Look((0, 255, 160), "pulse"),  # mint
    "setup": Look((255, 255, 255), "steady"),  # white: put a piece here
    "hint": Look((255, 0, 200), "pulse"),  # pink
    "marked": Look((128, 255, 0), "steady"),  # lime, light
    "marked_blink": Look((128, 255, 0), "blink"),  # lime, light
    "offer": Look((0, 255, 80), "pulse"),  # green, pulsing: the result about to stand
    "result": Look((0, 255, 80), "steady"),  # green
    "flag": Look((255, 0, 0), "pulse"),  # red, pulsing: apart from a mated king's blink
    "low_time": Look((255, 120, 0), "steady"),  # orange, between last_move and marked
    "fault": Look((255, 0, 0), "blink"),  # red
    "sweep": Look((255, 255, 255), "steady"),  # white
}

# Roles that one scene can light at the same time (see `scenes`, `setup`, `selftest`).
TOGETHER: tuple[frozenset[Role], ...] = (
    frozenset({"origin", "target", "capture", "en_passant", "castle", "hint", "must_move"}),
    frozenset({"origin", "target", "capture", "en_passant", "castle", "capturer", "hint"}),
    frozenset(
        {
            "last_move",
            "check",
            "hint",
            "must_move",
            "promotion",
            "marked",
            "marked_blink",
            "low_time",
        }
    ),
    frozenset({"pending", "target", "origin", "hint", "capture"}),
    frozenset({"missing", "extra"}),
    frozenset({"violation", "missing", "extra", "must_move"}),
    frozenset({"setup", "missing", "extra"}),
    frozenset({"offer"}),
    frozenset({"result", "check", "last_move", "flag"}),
    frozenset({"sweep", "fault"}),
)


def _linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def luminance(colour: RGB) -> float:
    """Relative luminance (sRGB, 0..1): how light a colour looks whatever its hue."""
    red, green, blue = colour
    return 0.2126 * _linear(red) + 0.7152 * _linear(green) + 0.0722 * _linear(blue)


def distinguishable(a: Look, b: Look) -> bool:
    """Whether two looks stay apart without hue: a different effect, or clearly lighter."""
    return a.effect != b.effect or abs(luminance(a.colour) - luminance(b.colour)) >= (
        MIN_LIGHTNESS_GAP
    )


assert set(PALETTE) == set(ROLES), "every role needs a look"

__all__ = [
    "MIN_LIGHTNESS_GAP",
    "PALETTE",
    "RGB",
    "TOGETHER",
    "Look",
    "Palette",
    "distinguishable",
    "luminance",
]
