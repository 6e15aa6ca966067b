"""What strict mode must refuse: hands that break touch-move (FIDE 4.3, 4.4).

`strict_refusals(position, rng)` gives, for one position, a few gestures that the Laws
forbid, each as the raw sensor lines of an event script and the article and square the
board must name in its `violation`:

- 4.3a: an own piece that can move is touched and put back, then another piece moves;
- 4.4a: the king, then a rook with which castling is legal, are touched and put back,
  then the king makes another move;
- 4.4b: castling begun with the rook (the rook to its castling square, then the king):
  the rook move stands and the king's move after it is the breach.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from reedboard.hal.sensor_line import SensorLine
from reedboard.rules.moves import Move
from reedboard.rules.pieces import KING
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES, Square


@dataclass(frozen=True)
class Refusal:
    rule: str
    square: Square  # the square the violation names
    lines: tuple[SensorLine, ...]
    moves_before: tuple[str, ...]  # moves the board commits before the breach (4.4b)


def _touch(t: int, sq: Square) -> list[SensorLine]:
    return [SensorLine(t, "lift", SQUARE_NAMES[sq]), SensorLine(t + 300, "place", SQUARE_NAMES[sq])]


def _move(t: int, move: Move) -> list[SensorLine]:
    return [
        SensorLine(t, "lift", SQUARE_NAMES[move.from_square]),
        SensorLine(t + 400, "place", SQUARE_NAMES[move.to_square]),
    ]


def strict_refusals(position: Position, rng: random.Random) -> list[Refusal]:
    legal = position.legal_moves()
    quiet = [
        m
        for m in legal
        if not position.is_capture(m) and not position.is_castling(m) and not m.promotion
    ]
    found = [
        _touched_own(quiet, rng),
    ]
    out = [refusal for refusal in found if refusal is not None]
    castle = next((m for m in legal if position.is_castling(m)), None)
    if castle is not None:
        out += _castling_refusals(position, legal, castle, rng)
    return out


def _touched_own(quiet: list[Move], rng: random.Random) -> Refusal | None:
    """4.3a: an own piece that can move is touched, then another piece moves."""
    movers = sorted({m.from_square for m in quiet})
    if len(movers) < 2:
        return None
    touched = rng.choice(movers)
    other = rng.choice([m for m in quiet if m.from_square != touched])
    return Refusal("4.3a", touched, tuple(_touch(1000, touched) + _move(2000, other)), ())


def touched_victim_set_back(position: Position, rng: random.Random) -> Refusal | None:
    """No longer a refusal: an opponent's piece that can be captured is touched and set
    back on its square, then a move that spares it is made with a piece that could not
    take it either. Its owner may have adjusted it (the sensors cannot say whose hand it
    was), so it binds nobody: the move is made. The Refusal names the article (4.3b)
    it would have broken."""
    legal = position.legal_moves()
    quiet = [
        m
        for m in legal
        if not position.is_capture(m) and not position.is_castling(m) and not m.promotion
    ]
    victims = sorted(
        {m.to_square for m in legal if position.is_capture(m) and not position.is_en_passant(m)}
    )
    if not victims:
        return None
    victim = rng.choice(victims)
    takers = {m.from_square for m in legal if m.to_square == victim}
    others = [m for m in quiet if m.from_square not in takers]
    if not others:
        return None
    other = rng.choice(others)
    return Refusal("4.3b", victim, tuple(_touch(1000, victim) + _move(2000, other)), ())


def _castling_refusals(
    position: Position, legal: list[Move], castle: Move, rng: random.Random
) -> list[Refusal]:
    """4.4a and 4.4b around one legal castling."""
    out: list[Refusal] = []
    king_from, king_to, rook_from, rook_to = position.castling_squares(castle)
    steps = [m for m in legal if m.from_square == king_from and not position.is_castling(m)]
    if steps and king_to != king_from:
        step = rng.choice(steps)
        lines = _touch(1000, king_from) + _touch(1500, rook_from) + _move(2500, step)
        out.append(Refusal("4.4a", king_from, tuple(lines), ()))
    rook_move = Move(rook_from, rook_to)
    if (
        rook_to != rook_from
        and king_to != king_from
        and position.is_legal(rook_move)
        and position.piece_type_at(rook_from) != KING
        and king_to not in (rook_from, rook_to)
    ):
        lines = _move(1000, rook_move) + _move(1800, Move(king_from, king_to))
        out.append(Refusal("4.4b", king_from, tuple(lines), (position.uci(rook_move),)))
    return out
