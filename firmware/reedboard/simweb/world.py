"""The physical pieces of the simulated board: what stands on each square, what the
player holds, and the tray beside the board.

The firmware never sees any of this: its switches only say "occupied". The world is
what a camera over a real board would see, so the page can draw real pieces (a knight
that was placed on the wrong square stays a knight there) and the sensors follow from it.
Every gesture is checked here, so nothing the page sends can put the world in a state a
real board could not be in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from reedboard.errors import InvalidInputError
from reedboard.lights.placement import pieces_of_fen
from reedboard.rules.squares import SQUARE_NAMES, Bitboard, Square, parse_square
from reedboard.sensing.held import Held

# Spare pieces lie beside the board for promotions, as in a set with extra queens.
SPARES = "QRBNqrbn"

# A piece in the hand, and the square it was lifted from (None: from beside the board).
HeldShown = TypedDict("HeldShown", {"piece": str, "from": str | None})


class WorldShown(TypedDict):
    """The pieces as the page draws them."""

    pieces: dict[str, str]  # {square: piece letter}
    hand: list[HeldShown]
    tray: list[str]
    spares: str


class World:
    def __init__(self, fen: str) -> None:
        self.squares: dict[Square, str] = {}
        self.hand: list[Held] = []
        self.tray: list[str] = []
        self.set_up(fen)

    def set_up(self, fen: str) -> None:
        """The players set up a position: every piece off the board goes back to the box."""
        self.squares = dict(pieces_of_fen(fen))
        self.hand = []
        self.tray = []

    @property
    def occupancy(self) -> Bitboard:
        bb = 0
        for sq in self.squares:
            bb |= 1 << sq
        return bb

    def occupied(self, name: object) -> bool:
        return _square(name) in self.squares

    def piece_on(self, name: object) -> str | None:
        return self.squares.get(_square(name))

    # ----- gestures -----

    def lift(self, name: object) -> Held:
        """Take the piece on `name` into the hand (a second piece goes in the other hand)."""
        sq = _square(name)
        piece = self.squares.pop(sq, None)
        if piece is None:
            raise InvalidInputError(f"there is no piece on {name}")
        held = Held(piece, sq)
        self.hand.append(held)
        return held

    def place(
        self, name: object, choose: Callable[[list[Held], Square], int] | None = None
    ) -> Held:
        """Put a held piece on the empty square `name`: the last one taken, or the one
        `choose(hand, square)` picks (an index into the hand)."""
        sq = _square(name)
        if not self.hand:
            raise InvalidInputError("the hand is empty")
        if sq in self.squares:
            raise InvalidInputError(f"{name} is occupied: lift its piece first")
        index = len(self.hand) - 1 if choose is None else choose(self.hand, sq)
        held = self.hand.pop(index)
        self.squares[sq] = held.piece
        return held

    def put_down(self, held: Held, name: object) -> None:
        """Put this very piece from the hand on the empty square `name`."""
        sq = _square(name)
        index = next((i for i, h in enumerate(self.hand) if h is held), None)
        if index is None:
            raise InvalidInputError(f"the {held.piece} is no longer in the hand")
        if sq in self.squares:
            raise InvalidInputError(f"{name} is occupied: lift its piece first")
        self.squares[sq] = self.hand.pop(index).piece

    def select(self, index: int) -> None:
        """Make a held piece the one the next placing puts down."""
        if not 0 <= index < len(self.hand):
            raise InvalidInputError("no such piece in the hand")
        self.hand.append(self.hand.pop(index))

    def to_tray(self) -> Held:
        """Put the last piece taken beside the board."""
        if not self.hand:
            raise InvalidInputError("the hand is empty")
        held = self.hand.pop()
        self.tray.append(held.piece)
        return held

    def from_tray(self, piece: str) -> Held:
        """Take a piece from the tray, or a spare for a promotion."""
        if piece in self.tray:
            self.tray.remove(piece)
        elif piece not in SPARES:
            raise InvalidInputError(f"there is no {piece!r} beside the board")
        held = Held(piece, None)
        self.hand.append(held)
        return held

    def snapshot(self) -> WorldShown:
        return {
            "pieces": {SQUARE_NAMES[sq]: piece for sq, piece in sorted(self.squares.items())},
            "hand": [
                {"piece": h.piece, "from": None if h.origin is None else SQUARE_NAMES[h.origin]}
                for h in self.hand
            ],
            "tray": list(self.tray),
            "spares": SPARES,
        }


def _square(name: object) -> Square:
    if not isinstance(name, str):
        raise InvalidInputError("a square is named like e4")
    return parse_square(name)
