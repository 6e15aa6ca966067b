"""The draw offers and takeback proposals of one Lichess game, from its game states and
our own calls, as values. Pure: no network, no board.

Lichess shows an offer as `wdraw`, `btakeback`, ... set to `true` while it stands, and
leaves the field out otherwise. An offer of ours that goes without the game changing was
turned down. An opponent who turns a takeback down at once may leave no state with our
proposal on the stream: once Lichess has taken our call, a state without it is the answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reedboard.lichess.shapes import GameState

# What a game state brought, for the bridge to tell the person (and act on).
News = Literal["draw offered", "draw declined", "takeback proposed", "takeback declined"]


def offer_flags(state: GameState, we_white: bool, what: str) -> tuple[bool, bool]:
    """(ours, theirs) of an offer in a game state: `what` is `draw` or `takeback`."""
    if what == "draw":
        white, black = bool(state.get("wdraw")), bool(state.get("bdraw"))
    else:
        white, black = bool(state.get("wtakeback")), bool(state.get("btakeback"))
    return (white, black) if we_white else (black, white)


@dataclass
class Offers:
    their_draw: bool = False  # the opponent offers a draw
    our_draw: bool = False  # our draw offer stands on Lichess
    their_takeback: bool = False  # the opponent proposes a takeback
    our_takeback: bool = False  # our takeback proposal stands on Lichess
    takeback_asked: bool = False  # we proposed one; Lichess has not shown it yet
    takeback_sent: bool = False  # Lichess took that call: a state without it answers it

    @property
    def takeback_pending(self) -> bool:
        """Our takeback waits for an answer: the board is left as it is meanwhile."""
        return self.takeback_asked or self.our_takeback

    def read(self, state: GameState, we_white: bool, *, playing: bool, taken: bool) -> list[News]:
        """Take in a game state (`taken`: its moves are fewer than before, a takeback
        made); what changed for the person. A game over declines nothing."""
        news: list[News] = []
        ours, theirs = offer_flags(state, we_white, "takeback")
        if theirs and not self.their_takeback and playing:
            news.append("takeback proposed")
        self.their_takeback = theirs
        if taken:
            self.takeback_asked = False
        if ours:
            self.takeback_asked = False  # `our_takeback` stands for it now
        elif (self.our_takeback or self.takeback_sent) and not taken and playing:
            news.append("takeback declined")
            self.takeback_asked = False
        if not ours:
            self.takeback_sent = False
        self.our_takeback = ours
        ours, theirs = offer_flags(state, we_white, "draw")
        if theirs and not self.their_draw and playing:
            news.append("draw offered")
        self.their_draw = theirs
        if self.our_draw and not ours and playing:
            news.append("draw declined")
        self.our_draw = ours
        return news

    def propose_takeback(self) -> None:
        """We call `takeback/yes`: a proposal of ours unless it accepts the opponent's."""
        if not self.their_takeback:
            self.takeback_asked = True

    def takeback_call_taken(self) -> None:
        if self.takeback_asked:
            self.takeback_sent = True

    def takeback_call_refused(self) -> None:
        self.takeback_asked = self.takeback_sent = False

    def say_no(self) -> list[str]:
        """What `no` turns down, as the calls to make (`takeback/no`, `draw/no`): whatever
        the opponent offers, both if both; with nothing offered, our own takeback proposal
        (the one offer that keeps the board waiting) is withdrawn."""
        calls = [f"{what}/no" for what, offered in
                 (("takeback", self.their_takeback), ("draw", self.their_draw)) if offered]  # fmt: skip
        if not calls and self.takeback_pending:
            self.takeback_asked = self.takeback_sent = self.our_takeback = False
            calls.append("takeback/no")
        return calls
