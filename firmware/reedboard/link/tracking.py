"""What a presence-only board tells a client that expects pieces: the DGT and ChessLink
emulations report piece codes, but the switches only say "occupied". The tracker keeps
the board the client has been told (`shown`, one FEN letter or "" per square, a1 = 0) and
turns sensor changes and committed moves into square changes:

- a lift empties the square at once, and the lifted piece goes into the hand;
- a placement shows a piece from the hand, the likeliest to go there (`likeliest`: the
  king or rook whose castling square it is, one that can legally go there, so "lift own
  piece, lift victim, place" shows the capturer, not the victim; then one of the side to
  move, then the latest lifted); a pawn placed on its last rank shows a queen;
- after a committed move (or a new game, a takeback, a restored board) the shown board is
  made equal to the game wherever the sensors agree, so castling moves the rook, en
  passant empties the passed pawn's square and a promotion shows the chosen piece.

Pure: the game's position and the sensors come in as arguments; each call returns the
changes of the shown board as (square, piece now shown) in the order the client should
hear of them.
"""

from __future__ import annotations

from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard, Square, squares_of
from reedboard.sensing.held import Held, likeliest

Change = tuple[Square, str]  # a square and the FEN letter it now shows, "" for empty


class PieceTracker:
    def __init__(self, position: Position, sensors: Bitboard) -> None:
        self.shown: list[str] = [""] * 64
        self.hand: list[Held] = []
        self.sensors = sensors
        self.promotion = "q"  # the kind a pawn on its last rank shows, as a FEN letter
        # Where the piece now standing on a square came from this move (slides, waypoints).
        self._origin: dict[Square, Square | None] = {}
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
                self.hand.append(Held(piece, self._origin.pop(sq, sq)))
            if self.shown[sq]:
                self.shown[sq] = ""
                changed.append((sq, ""))
        for sq in _squares(placed):
            held = self.hand[likeliest(self.hand, sq, position)] if self.hand else None
            if held is None:
                piece = _letter(position, sq)
            else:
                self.hand.remove(held)
                self._origin[sq] = held.origin
                piece = _promoted(held.piece, sq, self.promotion)
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
            Held(_letter(position, sq), sq)
            for sq in [held.origin for held in self.hand if held.origin is not None]
            if not sensors >> sq & 1 and _letter(position, sq)
        ]
        self._origin.clear()
        return changed


def _letter(position: Position, sq: Square) -> str:
    piece = position.piece_at(sq)
    return "" if piece is None else piece.symbol()


def _promoted(piece: str, sq: Square, kind: str) -> str:
    if piece == "P" and sq >= 56:
        return kind.upper()
    if piece == "p" and sq < 8:
        return kind.lower()
    return piece


def _squares(bb: Bitboard) -> list[Square]:
    return list(squares_of(bb))
