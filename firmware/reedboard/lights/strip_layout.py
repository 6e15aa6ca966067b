"""Where each square's light is on the LED chain: from 64 square colours to the pixels of
the strip, in chain order.

Two ways of building the board are supported:

- one LED under each square (64), chained row by row (`rows`: every line starts on the
  same side) or `serpentine` (every other line runs back), starting at any corner and
  running along ranks or along files;
- the 9x9 corner grid (81 LEDs at the corners of the squares, as Millennium boards do):
  a square is lit by its four corners. A corner shared by two lit squares shows the
  brighter of their colours, channel by channel, so neither disappears.

`chain_cells` is the one function that knows chain orders and orientations; everything
else is tables built from it once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

from reedboard.errors import ConfigError
from reedboard.lights.palette import RGB
from reedboard.rules.squares import Square

ChainKind = Literal["serpentine", "rows"]
FirstCorner = Literal["a1", "h1", "a8", "h8"]
Along = Literal["ranks", "files"]
CHAIN_KINDS: tuple[ChainKind, ...] = get_args(ChainKind)
FIRST_CORNERS: tuple[FirstCorner, ...] = get_args(FirstCorner)
ALONG: tuple[Along, ...] = get_args(Along)

SQUARE_LEDS = 64
CORNER_LEDS = 81
_BLACK: RGB = (0, 0, 0)


def chain_cells(
    size: int, chain: ChainKind, first: FirstCorner, along: Along
) -> tuple[tuple[int, int], ...]:
    """The grid cell `(x, y)` of each LED in chain order, on a `size` x `size` grid.

    x counts from the a-file side (0..size-1), y from the first rank's side. The chain
    starts at the grid's `first` corner and runs along that corner's rank (`ranks`) or
    file (`files`); each next line lies one further from the corner.
    """
    cells = []
    for line in range(size):
        for step in range(size):
            if chain == "serpentine" and line % 2:
                step = size - 1 - step
            x, y = (step, line) if along == "ranks" else (line, step)
            if first[0] == "h":
                x = size - 1 - x
            if first[1] == "8":
                y = size - 1 - y
            cells.append((x, y))
    return tuple(cells)


@dataclass(frozen=True, slots=True)
class StripLayout:
    """For each LED in chain order, the squares whose colours light it."""

    sources: tuple[tuple[Square, ...], ...]
    _single: bool = field(init=False, repr=False, compare=False)
    _leds_by_square: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_single", all(len(source) <= 1 for source in self.sources))
        by_square = tuple(
            tuple(i for i, source in enumerate(self.sources) if sq in source) for sq in range(64)
        )
        object.__setattr__(self, "_leds_by_square", by_square)

    @classmethod
    def per_square(
        cls,
        chain: ChainKind = "serpentine",
        first: FirstCorner = "a1",
        along: Along = "ranks",
        count: int = SQUARE_LEDS,
    ) -> StripLayout:
        """One LED per square; LEDs past the 64th (status LEDs, spares) stay dark."""
        if count < SQUARE_LEDS:
            raise ConfigError(f"leds.count: {count} LEDs cannot light 64 squares")
        cells = chain_cells(8, chain, first, along)
        sources = tuple((y * 8 + x,) for x, y in cells)
        return cls(sources + ((),) * (count - SQUARE_LEDS))

    @classmethod
    def corner_grid(
        cls, chain: ChainKind = "serpentine", first: FirstCorner = "a1", along: Along = "ranks"
    ) -> StripLayout:
        """81 LEDs on the corners of the squares; each lights the up to 4 squares it
        touches."""
        sources = []
        for x, y in chain_cells(9, chain, first, along):
            touching = tuple(
                sy * 8 + sx
                for sx, sy in ((x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y))
                if 0 <= sx < 8 and 0 <= sy < 8
            )
            sources.append(touching)
        return cls(tuple(sources))

    @classmethod
    def of_chain(
        cls, chain: ChainKind, first: FirstCorner, along: Along, count: int
    ) -> StripLayout:
        """The layout of a chain of `count` LEDs: 81 are the corner grid, 64 or more one
        LED per square."""
        if count == CORNER_LEDS:
            return cls.corner_grid(chain, first, along)
        return cls.per_square(chain, first, along, count)

    @property
    def count(self) -> int:
        return len(self.sources)

    def pixels(self, squares: Sequence[RGB]) -> list[RGB]:
        """The strip's pixels, chain order, from the 64 squares' colours (a1 = 0)."""
        if self._single:
            return [squares[source[0]] if source else _BLACK for source in self.sources]
        # The corner grid: start dark and merge in each lit square's colour on its
        # corners. Scenes light few squares, so this touches a few dozen LEDs, not 81x4.
        out = [_BLACK] * len(self.sources)
        for sq, colour in enumerate(squares):
            if colour == _BLACK:
                continue
            for led in self._leds_by_square[sq]:
                old = out[led]
                if old == _BLACK:
                    out[led] = colour
                else:
                    out[led] = (
                        max(old[0], colour[0]),
                        max(old[1], colour[1]),
                        max(old[2], colour[2]),
                    )
        return out

    def leds_of(self, sq: Square) -> tuple[int, ...]:
        """The chain indices of the LEDs that light square `sq`."""
        return self._leds_by_square[sq]


__all__ = [
    "ALONG",
    "CHAIN_KINDS",
    "CORNER_LEDS",
    "FIRST_CORNERS",
    "SQUARE_LEDS",
    "Along",
    "ChainKind",
    "FirstCorner",
    "StripLayout",
    "chain_cells",
]
