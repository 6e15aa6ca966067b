"""What a presence-only board tells a client that expects pieces: the DGT and ChessLink
emulations report piece codes, but the switches only say "occupied". The tracker keeps
the board the client has been told (`shown`, one FEN letter or "" per square, a1 = 0) and
turns sensor changes and committed moves into square changes:

- a lift empties the square at once, and the lifted piece goes into the hand;
- a placement shows a piece from the hand: the latest lifted one that can legally go
  there (so "lift own piece, lift victim, place" shows the capturer, not the victim),
  else the latest lifted one; a pawn placed on its last rank shows a queen;
- after a committed move (or a new game, a takeback, a restored board) the shown board is
  made equal to the game wherever the sensors agree, so castling moves the rook, en
  passant empties the passed pawn's square and a promotion shows the chosen piece.

Pure: the game's position and the sensors come in as arguments; each call returns the
changes of the shown board as (square, piece now shown) in the order the client should
hear of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, Square, squares_of

Change = tuple[Square, str]  # a square and the FEN letter it now shows, "" for empty


@dataclass(frozen=True, slots=True)
class Held:
    """A piece in the hand: where it was lifted from in the game's position (`origin`)
    and its FEN letter."""

    origin: Square
    piece: str


class PieceTracker:
    def __init__(self, position: Position, sensors: Bitboard) -> None:
        self.shown: list[str] = [""] * 64
        self.hand: list[Held] = []
        self.sensors = sensors
        # Where the piece now standing on a square came from this move (slides, waypoints).
        self._origin: dict[Square, Square] = {}
        self.sync(position, sensors)

    def sensed(self, position: Position, sensors: Bitboard) -> list[Change]:
        """The sensors now read `sensors`: lifts first, then placements."""
        changed: list[Change] = []
        lifted = self.sensors & ~sensors
        placed = sensors & ~self.sensors
        self.sensors = sensors
        for sq in _squares(lifted):
            piece = self.shown[sq] or _letter(position, sq)
            if piece:
                self.hand.append(Held(self._origin.pop(sq, sq), piece))
            if self.shown[sq]:
                self.shown[sq] = ""
                changed.append((sq, ""))
        for sq in _squares(placed):
            held = self._choose(position, sq)
            if held is None:
                piece = _letter(position, sq)
            else:
                self.hand.remove(held)
                self._origin[sq] = held.origin
                piece = _promoted(held.piece, sq)
            if piece and self.shown[sq] != piece:
                self.shown[sq] = piece
                changed.append((sq, piece))
        return changed

    def sync(self, position: Position, sensors: Bitboard) -> list[Change]:
        """Make the shown board equal the game where the sensors agree with it. A square
        the sensors say is occupied but the game says is empty keeps what it shows."""
        self.sensors = sensors
        changed: list[Change] = []
        for sq in range(64):
            occupied = bool(sensors >> sq & 1)
            want = _letter(position, sq) if occupied else ""
            if occupied and not want:
                continue
            if self.shown[sq] != want:
                self.shown[sq] = want
                changed.append((sq, want))
        # Pieces still off the board stay in the hand, as the game now knows them.
        self.hand = [
            Held(sq, _letter(position, sq))
            for sq in [held.origin for held in self.hand]
            if not sensors >> sq & 1 and _letter(position, sq)
        ]
        self._origin.clear()
        return changed

    def _choose(self, position: Position, sq: Square) -> Held | None:
        if not self.hand:
            return None
        for held in reversed(self.hand):
            if sq in _destinations(position, held.origin):
                return held
        return self.hand[-1]


def _destinations(position: Position, origin: Square) -> set[Square]:
    """Where the piece on `origin` may go in a legal move, the rook's castling square
    included (castling is stored as king takes rook)."""
    found: set[Square] = set()
    for move in position.legal_moves():
        if position.is_castling(move):
            king_from, king_to, rook_from, rook_to = position.castling_squares(move)
            if origin == king_from:
                found.add(king_to)
            if origin == rook_from:
                found.add(rook_to)
        elif move.from_square == origin:
            found.add(move.to_square)
    return found


def _letter(position: Position, sq: Square) -> str:
    piece = position.piece_at(sq)
    return "" if piece is None else piece.symbol()


def _promoted(piece: str, sq: Square) -> str:
    if piece == "P" and sq >= 56:
        return "Q"
    if piece == "p" and sq < 8:
        return "q"
    return piece


def _squares(bb: Bitboard) -> list[Square]:
    return list(squares_of(bb))
