"""Occupancy as text: 8 lines, rank 8 first, files a..h, `#` occupied and `.` empty."""

from __future__ import annotations

from reedboard.rules.squares import Bitboard, square


def occupancy_lines(occupancy: Bitboard) -> list[str]:
    """>>> occupancy_lines(0b11)[-1]
    '##......'
    """
    return [
        "".join("#" if occupancy >> square(f, r) & 1 else "." for f in range(8))
        for r in range(7, -1, -1)
    ]


def occupancy_text(occupancy: Bitboard) -> str:
    """The 8 lines joined, each ending in a newline."""
    return "".join(line + "\n" for line in occupancy_lines(occupancy))
