"""A Chess960 start set up as the board guides it: after every piece is off, one piece
type after another in the board's order, for the sensors only see squares fill and the
order is what tells the board which piece stands where.

Pure: the start's FEN in, the sensor lines (from the setup's start) and the piece each
one puts down out.
"""

from __future__ import annotations

from reedboard.hal.sensor_line import SensorLine
from reedboard.lights.placement import pieces_of_fen
from reedboard.reader.setup import SETUP_ORDER
from reedboard.rules.pieces import PIECE_SYMBOLS
from reedboard.rules.squares import SQUARE_NAMES, Square

# Between the piece types of a guided setup: each is seen on its own by the board, and
# its step ("place the rooks") stays on the page long enough for a person to read it
# (and for a page that takes the board's state 20 times a second, on a busy machine: at
# 500 ms a browser held up by the rest of the machine once missed a step altogether).
SETUP_STEP_MS = 1000


def setup_lines(fen: str) -> tuple[list[SensorLine], dict[Square, str]]:
    """The lines that set out `fen` piece type by piece type, and each square's piece."""
    target = pieces_of_fen(fen)
    lines: list[SensorLine] = []
    pieces: dict[Square, str] = {}
    for step, kind in enumerate(SETUP_ORDER, start=1):
        letter = PIECE_SYMBOLS[kind]
        for sq, piece in target.items():
            if piece.lower() == letter:
                pieces[sq] = piece
                lines.append(SensorLine(step * SETUP_STEP_MS, "place", SQUARE_NAMES[sq]))
    return lines, pieces
