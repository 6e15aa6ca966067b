"""Ending a game from the board alone: the kings set in the centre, the way DGT boards and
broadcast software read a result.

A presence-only board has no buttons, and a king held in the hand is what a thinking
player does, so no gesture of one king may end a game. The result is told with both kings,
in a position no game can reach (two kings side by side):

- lift both kings, so that both are off the board at the same moment (nothing a player
  does in play), then set them on two of the four centre squares d4, e4, d5, e5. Pieces
  standing there are taken off the board first;
- both kings on the light squares (d5, e4): 1-0; both on the dark squares (d4, e5): 0-1;
  one on each: a draw (a claim when one is valid, by threefold repetition or the 50-move
  rule; otherwise by agreement);
- the board answers at once with an `offer` (the lights pulse the two squares); the kings
  left standing there for `HOLD_MS` confirm it. Taking a king away before that, or putting
  the kings back on their squares, cancels it.

The tracker is pure: it reads the hypotheses of which piece stands where and the time.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from reedboard.rules.squares import Square, parse_square

HOLD_MS = 3000

CENTRE: frozenset[Square] = frozenset(parse_square(name) for name in ("d4", "e4", "d5", "e5"))
LIGHT_CENTRE: frozenset[Square] = frozenset(parse_square(name) for name in ("d5", "e4"))

OfferKind = Literal["1-0", "0-1", "1/2-1/2"]
State = tuple[str, str]  # (placement, hands), as `Hands` keeps them


def result_of_kings(white_king: Square, black_king: Square) -> OfferKind:
    """The result that kings on these centre squares stand for."""
    light = (white_king in LIGHT_CENTRE, black_king in LIGHT_CENTRE)
    if light == (True, True):
        return "1-0"
    if light == (False, False):
        return "0-1"
    return "1/2-1/2"


def gesture_kings(
    start: str, states: Iterable[State], *, held_ok: bool
) -> tuple[Square | None, Square | None] | None:
    """The squares of the white and the black king in a hypothesis where both stand on
    centre squares and everything else is as in `start` (pieces from the centre squares
    and the kings' own squares may be off the board). With `held_ok`, a king still in the
    hands counts too (None): the gesture is being made. None if no hypothesis fits."""
    homes = {start.find("K"), start.find("k")}
    for placement, hands in sorted(states):
        kings: list[Square | None] = []
        for letter in "Kk":
            sq = placement.find(letter)
            if sq in CENTRE:
                kings.append(sq)
            elif sq < 0 and held_ok and letter in hands:
                kings.append(None)
            else:
                break
        else:
            if all(
                here == there or (here == "." and (sq in CENTRE or sq in homes))
                for sq, (here, there) in enumerate(zip(placement, start, strict=True))
                if sq not in kings
            ):
                return kings[0], kings[1]
    return None


class GestureTracker:
    """Follows the kings' result gesture. `update` after every sensor change, `tick` as
    time passes."""

    def __init__(self) -> None:
        self.offer: OfferKind | None = None
        self.squares: tuple[Square, Square] | None = None  # the kings', while offered
        self.making = False  # both kings have been held and are in the hands or the centre
        self._since = 0

    def reset(self) -> None:
        self.offer = None
        self.squares = None
        self.making = False

    def update(self, start: str, states: Iterable[State], t_ms: int) -> str | None:
        """What changed: "made" (a new offer), "cancelled", or None."""
        states = list(states)
        if any("K" in hands and "k" in hands for _placement, hands in states):
            self.making = True
        if self.making and gesture_kings(start, states, held_ok=True) is None:
            self.making = False
        placed = gesture_kings(start, states, held_ok=False) if self.making else None
        if placed is not None and placed[0] is not None and placed[1] is not None:
            squares = (placed[0], placed[1])
            if squares != self.squares:
                self.offer = result_of_kings(*squares)
                self.squares = squares
                self._since = t_ms
                return "made"
            return None
        if self.offer is not None:
            self.offer = None
            self.squares = None
            return "cancelled"
        return None

    def tick(self, t_ms: int) -> OfferKind | None:
        """The result, once the kings have stood in the centre for `HOLD_MS`."""
        if self.offer is None or t_ms - self._since < HOLD_MS:
            return None
        result = self.offer
        self.reset()
        return result

    def next_deadline(self) -> int | None:
        return self._since + HOLD_MS if self.offer is not None else None
