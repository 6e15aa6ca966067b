"""Layouts: every chain order and orientation, and the 9x9 corner grid."""

from __future__ import annotations

import itertools

import pytest
from reedboard.config import LedConfig
from reedboard.errors import ConfigError
from reedboard.lights.palette import RGB
from reedboard.lights.strip_layout import (
    ALONG,
    CHAIN_KINDS,
    FIRST_CORNERS,
    StripLayout,
    chain_cells,
)
from reedboard.rules.squares import parse_square as sq
from reedboard.wiring import strip_layout

ORIENTATIONS = list(itertools.product(CHAIN_KINDS, FIRST_CORNERS, ALONG))
IDS = [f"{c}-{f}-{a}" for c, f, a in ORIENTATIONS]

# The first squares of each per-square chain, written out by hand.
FIRST_LEDS = {
    ("serpentine", "a1", "ranks"): ["a1", "b1", "h1", "h2", "g2", "a2", "a3"],
    ("rows", "a1", "ranks"): ["a1", "b1", "h1", "a2", "b2", "h2", "a3"],
    ("serpentine", "h1", "ranks"): ["h1", "g1", "a1", "a2", "b2", "h2", "h3"],
    ("rows", "h1", "ranks"): ["h1", "g1", "a1", "h2", "g2", "a2", "h3"],
    ("serpentine", "a8", "ranks"): ["a8", "b8", "h8", "h7", "g7", "a7", "a6"],
    ("rows", "a8", "ranks"): ["a8", "b8", "h8", "a7", "b7", "h7", "a6"],
    ("serpentine", "h8", "ranks"): ["h8", "g8", "a8", "a7", "b7", "h7", "h6"],
    ("rows", "h8", "ranks"): ["h8", "g8", "a8", "h7", "g7", "a7", "h6"],
    ("serpentine", "a1", "files"): ["a1", "a2", "a8", "b8", "b7", "b1", "c1"],
    ("rows", "a1", "files"): ["a1", "a2", "a8", "b1", "b2", "b8", "c1"],
    ("serpentine", "h1", "files"): ["h1", "h2", "h8", "g8", "g7", "g1", "f1"],
    ("rows", "h1", "files"): ["h1", "h2", "h8", "g1", "g2", "g8", "f1"],
    ("serpentine", "a8", "files"): ["a8", "a7", "a1", "b1", "b2", "b8", "c8"],
    ("rows", "a8", "files"): ["a8", "a7", "a1", "b8", "b7", "b1", "c8"],
    ("serpentine", "h8", "files"): ["h8", "h7", "h1", "g1", "g2", "g8", "f8"],
    ("rows", "h8", "files"): ["h8", "h7", "h1", "g8", "g7", "g1", "f8"],
}
PICKED = (0, 1, 7, 8, 9, 15, 16)  # LEDs: first, second, end of line 1, start of line 2...


def squares_colours() -> list[RGB]:
    """Each square's colour encodes its number, so a pixel tells where it came from."""
    return [(s, 255 - s, 7) for s in range(64)]


@pytest.mark.parametrize(("chain", "first", "along"), ORIENTATIONS, ids=IDS)
def test_one_led_per_square_in_every_chain_order(chain: str, first: str, along: str) -> None:
    layout = StripLayout.per_square(chain, first, along)  # type: ignore[arg-type]
    pixels = layout.pixels(squares_colours())
    assert len(pixels) == 64
    assert sorted(p[0] for p in pixels) == list(range(64))  # every square exactly once
    expected = FIRST_LEDS[(chain, first, along)]
    assert [pixels[i][0] for i in PICKED] == [sq(n) for n in expected]
    # Neighbours in the chain are neighbours on the board (no long jumps in the wire),
    # for the serpentine; row by row jumps back once per line.
    cells = chain_cells(8, chain, first, along)  # type: ignore[arg-type]
    jumps = sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1 for a, b in itertools.pairwise(cells))
    assert jumps == (0 if chain == "serpentine" else 7)


@pytest.mark.parametrize(("chain", "first", "along"), ORIENTATIONS, ids=IDS)
def test_the_corner_grid_lights_a_square_by_its_four_corners(
    chain: str, first: str, along: str
) -> None:
    layout = StripLayout.corner_grid(chain, first, along)  # type: ignore[arg-type]
    assert layout.count == 81
    cells = chain_cells(9, chain, first, along)  # type: ignore[arg-type]
    assert sorted(cells) == sorted(itertools.product(range(9), range(9)))
    assert cells[0] == ({"a": 0, "h": 8}[first[0]], {"1": 0, "8": 8}[first[1]])
    for name in ("a1", "e4", "h8", "b7"):
        colours: list[RGB] = [(0, 0, 0)] * 64
        colours[sq(name)] = (200, 100, 50)
        pixels = layout.pixels(colours)
        lit = {cells[i] for i, p in enumerate(pixels) if p != (0, 0, 0)}
        x, y = sq(name) % 8, sq(name) // 8
        assert lit == {(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)}
        assert all(p == (200, 100, 50) for p in pixels if p != (0, 0, 0))


def test_a_corner_shared_by_two_lit_squares_shows_the_brighter_channels() -> None:
    layout = StripLayout.corner_grid("rows", "a1", "ranks")
    colours: list[RGB] = [(0, 0, 0)] * 64
    colours[sq("a1")] = (200, 0, 10)
    colours[sq("b1")] = (0, 100, 20)
    pixels = layout.pixels(colours)
    assert pixels[1] == (200, 100, 20)  # the corner between a1 and b1 on the first line
    assert pixels[0] == (200, 0, 10)
    assert pixels[2] == (0, 100, 20)


def test_leds_past_the_64th_stay_dark() -> None:
    layout = StripLayout.per_square(count=66)
    pixels = layout.pixels(squares_colours())
    assert pixels[64:] == [(0, 0, 0), (0, 0, 0)]
    with pytest.raises(ConfigError):
        StripLayout.per_square(count=63)


def test_the_config_chooses_the_layout() -> None:
    default = strip_layout(LedConfig())
    assert default == StripLayout.per_square("serpentine", "a1", "ranks")
    corners = strip_layout(LedConfig(count=81, layout="rows", first="h8"))
    assert corners == StripLayout.corner_grid("rows", "h8", "ranks")
    assert StripLayout.per_square().leds_of(sq("h2")) == (8,)
    assert corners.leds_of(sq("h8")) == (0, 1, 9, 10)
