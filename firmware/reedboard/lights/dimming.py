"""Dimming at the host's request: a share (0..1) of the board's own brightness.

The board's `[leds] brightness` is its owner's setting for the room and stays the
adapter's job; a chess program may ask for its LEDs dimmer than that (ChessLink's
brightness register). The share scales the frame's colours before they reach the strip,
so the two multiply and the program can never make the board brighter than its owner set.
"""

from __future__ import annotations

from collections.abc import Sequence

from reedboard.lights.palette import RGB


def dimmed(pixels: Sequence[RGB], share: float) -> list[RGB]:
    """`pixels` at `share` of their strength. A channel that is on stays at least 1, so a
    lit square never goes dark by dimming, and its hue keeps its channels."""
    share = min(max(share, 0.0), 1.0)
    if share >= 1.0:
        return list(pixels)
    return [(_channel(r, share), _channel(g, share), _channel(b, share)) for r, g, b in pixels]


def _channel(value: int, share: float) -> int:
    return max(1, round(value * share)) if value else 0


__all__ = ["dimmed"]
