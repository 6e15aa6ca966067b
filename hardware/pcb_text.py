"""Reference designators on the silkscreen: a small stroke font (the characters they use).

Each glyph is a few polylines in a box 4 units wide and 6 high; a character advances 6.
"""

from __future__ import annotations

Glyph = tuple[tuple[tuple[int, int], ...], ...]
GLYPHS: dict[str, Glyph] = {
    "J": (((4, 6), (4, 1), (3, 0), (1, 0), (0, 1)),),
    "U": (((0, 6), (0, 1), (1, 0), (3, 0), (4, 1), (4, 6)),),
    "R": (((0, 0), (0, 6), (3, 6), (4, 5), (4, 4), (3, 3), (0, 3)), ((2, 3), (4, 0))),
    "C": (((4, 5), (3, 6), (1, 6), (0, 5), (0, 1), (1, 0), (3, 0), (4, 1)),),
    "0": (((1, 0), (3, 0), (4, 1), (4, 5), (3, 6), (1, 6), (0, 5), (0, 1), (1, 0)),),
    "1": (((1, 5), (2, 6), (2, 0)), ((1, 0), (3, 0))),
    "2": (((0, 5), (1, 6), (3, 6), (4, 5), (4, 4), (0, 0), (4, 0)),),
    "3": (
        ((0, 5), (1, 6), (3, 6), (4, 5), (4, 4), (3, 3), (4, 2), (4, 1), (3, 0), (1, 0), (0, 1)),
        ((1, 3), (3, 3)),
    ),
    "4": (((3, 0), (3, 6), (0, 2), (4, 2)),),
    "5": (((4, 6), (0, 6), (0, 3), (3, 3), (4, 2), (4, 1), (3, 0), (0, 0)),),
    "6": (((3, 6), (1, 6), (0, 5), (0, 1), (1, 0), (3, 0), (4, 1), (4, 2), (3, 3), (0, 3)),),
    "7": (((0, 6), (4, 6), (1, 0)),),
    "8": (
        ((1, 3), (0, 4), (0, 5), (1, 6), (3, 6), (4, 5), (4, 4), (3, 3), (1, 3)),
        ((1, 3), (0, 2), (0, 1), (1, 0), (3, 0), (4, 1), (4, 2), (3, 3)),
    ),
    "9": (((1, 0), (3, 0), (4, 1), (4, 5), (3, 6), (1, 6), (0, 5), (0, 4), (1, 3), (4, 3)),),
}


def text_strokes(text: str, x: int, y: int, height: int) -> list[list[tuple[int, int]]]:
    """The polylines that write `text` with its lower left corner at (x, y), `height` high
    (integer micrometres)."""
    unit = height // 6
    strokes = []
    for k, char in enumerate(text):
        for line in GLYPHS[char]:
            strokes.append([(x + (6 * k + gx) * unit, y + gy * unit) for gx, gy in line])
    return strokes


__all__ = ["GLYPHS", "text_strokes"]
