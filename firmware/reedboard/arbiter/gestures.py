"""Ending a game from the board alone: resignation, a draw by agreement, a draw claim.

A presence-only board has no buttons, so the gestures use the kings, the one piece a
player never leaves off the board in play, and ask for a confirmation that no real move
makes by accident:

- Resign (FIDE 5.1.2), or claim a draw (9.2, 9.3) when one can be claimed: the player to
  move holds their own king off the board for `HOLD_MS` (3 s; the lights then offer
  "resign?" or "claim?"), puts it back on its square, and within `CONFIRM_MS` lifts it
  once more and puts it back again. Anything else in between cancels the offer.
- Draw by agreement (5.2.3): both players hold their kings off the board together for
  `HOLD_MS`, then put them back: two hands cooperating are the confirmation.

The tracker is pure: it reads the sensors' difference from the position and the time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reedboard.rules.squares import Bitboard, Square

HOLD_MS = 3000
CONFIRM_MS = 3000

OfferKind = Literal["resign", "claim", "draw"]


@dataclass(frozen=True, slots=True)
class Offer:
    kind: OfferKind
    armed: bool  # the king is back: one more lift and replace confirms


class GestureTracker:
    """Follows the kings between moves. `update` after every sensor change, `tick` as
    time passes; both say what was decided: None, or an offer kind confirmed."""

    def __init__(self) -> None:
        self.offer: Offer | None = None
        self._hold_since: int | None = None
        self._hold_kind: Literal["own", "both"] | None = None
        self._armed_until = 0
        self._tapped = False

    def reset(self) -> None:
        self.offer = None
        self._hold_since = None
        self._hold_kind = None
        self._armed_until = 0
        self._tapped = False

    def update(
        self,
        changed: Bitboard,
        own_king: Square | None,
        their_king: Square | None,
        t_ms: int,
    ) -> OfferKind | None:
        own = 1 << own_king if own_king is not None else 0
        both = own | (1 << their_king if their_king is not None else 0)
        if self.offer is not None and self.offer.armed:
            if changed == own and not self._tapped and t_ms <= self._armed_until:
                self._tapped = True  # lifted again
                return None
            if changed == 0 and self._tapped and t_ms <= self._armed_until:
                kind = self.offer.kind
                self.reset()
                return kind
            self.reset()
            return None
        if self.offer is not None:
            if changed == 0:
                if self.offer.kind == "draw":
                    self.reset()
                    return "draw"
                self.offer = Offer(self.offer.kind, armed=True)
                self._armed_until = t_ms + CONFIRM_MS
                return None
            if (self.offer.kind == "draw" and not changed & ~both) or (
                self.offer.kind != "draw" and changed == own
            ):
                return None  # the kings are still on their way back
            self.reset()
            return None
        hold: Literal["own", "both"] | None = None
        if own and changed == own:
            hold = "own"
        elif own and changed == both and both != own:
            hold = "both"
        if hold != self._hold_kind:
            self._hold_kind = hold
            self._hold_since = t_ms if hold else None
        return None

    def tick(self, t_ms: int, claimable: bool) -> Offer | None:
        """An offer made now that a hold has lasted long enough, else None."""
        if self.offer is not None:
            if self.offer.armed and t_ms > self._armed_until:
                self.reset()
            return None
        if self._hold_since is None or t_ms - self._hold_since < HOLD_MS:
            return None
        if self._hold_kind == "both":
            self.offer = Offer("draw", armed=False)
        else:
            self.offer = Offer("claim" if claimable else "resign", armed=False)
        return self.offer

    def next_deadline(self) -> int | None:
        if self.offer is not None:
            return self._armed_until + 1 if self.offer.armed else None
        if self._hold_since is not None:
            return self._hold_since + HOLD_MS
        return None

    @property
    def holding_both(self) -> bool:
        return self._hold_kind == "both" or (self.offer is not None and self.offer.kind == "draw")
