"""A move typed on the simulator's page (`e2e4`, `e7e8q`, `Nf3`, `O-O`) as the steps two
hands take on the board: the page can be played from the keyboard alone.

Pure: the position and the text in, the steps out (or InvalidInputError naming what is
wrong). Each step is one change a hand makes, `STEP_MS` after the one before, slow enough
for the switches to see every change on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reedboard.errors import InvalidInputError
from reedboard.rules.moves import Move
from reedboard.rules.pieces import PIECE_SYMBOLS
from reedboard.rules.position import Position
from reedboard.rules.san import parse_san
from reedboard.rules.squares import Square

STEP_MS = 250
UCI = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")


@dataclass(frozen=True, slots=True)
class Step:
    """`lift` a square, `place` the piece that came from `origin` on a square, put the last
    piece taken beside the board (`tray`), take a spare `piece` (`spare`), or tell the
    board the promotion's piece (`choose`), as a host would."""

    action: str
    square: Square = -1  # none, for tray, spare and choose
    origin: Square | None = None
    piece: str = ""


def typed_move(position: Position, text: str) -> Move:
    words = text.strip()
    if not words:
        raise InvalidInputError("type a move, such as e2e4 or Nf3")
    try:
        if UCI.fullmatch(words.lower()):
            return position.parse_uci(words.lower())
        return parse_san(position, words)
    except InvalidInputError as error:
        raise InvalidInputError(f"{words}: {error}") from None


def hand_steps(position: Position, move: Move) -> list[Step]:
    """The steps that carry out `move` (legal in `position`) on the board."""
    if position.is_castling(move):
        king_from, king_to, rook_from, rook_to = position.castling_squares(move)
        return [
            Step("lift", king_from),
            Step("lift", rook_from),
            Step("place", king_to, king_from),
            Step("place", rook_to, rook_from),
        ]
    steps: list[Step] = []
    if position.is_en_passant(move):
        victim: Square | None = move.to_square - 8 if position.turn else move.to_square + 8
    elif position.is_capture(move):
        victim = move.to_square
    else:
        victim = None
    if victim is not None and victim == move.to_square:
        steps += [Step("lift", victim), Step("tray")]
    steps.append(Step("lift", move.from_square))
    if move.promotion is not None:
        letter = PIECE_SYMBOLS[move.promotion]
        piece = letter.upper() if position.turn else letter
        steps += [
            Step("tray"),
            Step("choose", piece=letter),
            Step("spare", piece=piece),
            Step("place", move.to_square, None),
        ]
    else:
        steps.append(Step("place", move.to_square, move.from_square))
    if victim is not None and victim != move.to_square:
        steps += [Step("lift", victim), Step("tray")]
    return steps
