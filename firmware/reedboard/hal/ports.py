"""The ports the rest of the firmware talks to; adapters in `reedboard.hal` implement them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from reedboard.rules.squares import Bitboard


@runtime_checkable
class SwitchMatrix(Protocol):
    """The 64 square sensors: one call reads them all."""

    def scan(self) -> Bitboard:
        """Occupancy now: bit n set when square n (a1 = 0 ... h8 = 63) reads occupied."""
        ...


@runtime_checkable
class LedStrip(Protocol):
    """An addressable LED chain."""

    def show(self, pixels: Sequence[tuple[int, int, int]]) -> None:
        """Light the chain: `pixels[i]` is the (red, green, blue) colour, 0..255 each, of the
        i-th LED in chain order. Colour order on the wire and brightness are the adapter's job."""
        ...
