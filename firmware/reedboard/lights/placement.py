"""The pieces of a FEN's placement field, read without building a position.

The scenes need to know whose piece a lifted square held, or where the kings stand, a
few times per game state; reading the placement field alone is quicker than parsing
the whole FEN into a position and needs none of the rest of the rules core.
"""

from __future__ import annotations

from reedboard.rules.squares import Square


def pieces_of_fen(fen: str) -> dict[Square, str]:
    """{square: FEN letter} of the placement field (the FEN's first word)."""
    pieces: dict[Square, str] = {}
    rank = 7
    file = 0
    for char in fen.split(" ", 1)[0]:
        if char == "/":
            rank -= 1
            file = 0
        elif char.isdigit():
            file += int(char)
        else:
            pieces[rank * 8 + file] = char
            file += 1
    return pieces


__all__ = ["pieces_of_fen"]
