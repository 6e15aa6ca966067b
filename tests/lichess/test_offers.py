"""Draw offers and takeback proposals read from Lichess's game states and our own calls."""

from __future__ import annotations

from reedboard.lichess.offers import Offers, offer_flags
from reedboard.lichess.shapes import GameState

MOVES: GameState = {"type": "gameState", "moves": "e2e4 e7e5", "status": "started"}


def test_offers_are_read_for_either_colour() -> None:
    state: GameState = {**MOVES, "wdraw": True, "btakeback": True}
    assert offer_flags(state, True, "draw") == (True, False)
    assert offer_flags(state, False, "draw") == (False, True)
    assert offer_flags(state, True, "takeback") == (False, True)
    assert offer_flags(state, False, "takeback") == (True, False)


def test_the_opponents_offers_are_news_once_and_no_declines_both() -> None:
    offers = Offers()
    state: GameState = {**MOVES, "bdraw": True, "btakeback": True}
    news = offers.read(state, True, playing=True, taken=False)
    assert news == ["takeback proposed", "draw offered"]
    assert offers.read(state, True, playing=True, taken=False) == []
    assert offers.say_no() == ["takeback/no", "draw/no"]
    assert offers.read(MOVES, True, playing=True, taken=False) == []


def test_our_takeback_declined_taken_or_withdrawn() -> None:
    offers = Offers()
    offers.propose_takeback()
    assert offers.takeback_pending
    # A state from before the call says nothing; one that shows it, then one without it
    # and with the same moves, is a no.
    assert offers.read(MOVES, True, playing=True, taken=False) == []
    assert offers.read({**MOVES, "wtakeback": True}, True, playing=True, taken=False) == []
    assert offers.read(MOVES, True, playing=True, taken=False) == ["takeback declined"]
    assert not offers.takeback_pending
    # Turned down at once: no state ever showed it, but Lichess had taken the call.
    offers.propose_takeback()
    offers.takeback_call_taken()
    assert offers.read(MOVES, True, playing=True, taken=False) == ["takeback declined"]
    # Taken: the moves are fewer, and nothing was declined.
    offers.propose_takeback()
    offers.takeback_call_taken()
    assert offers.read(MOVES, True, playing=True, taken=True) == []
    assert not offers.takeback_pending
    # Withdrawn with `no`, there being nothing of the opponent's to turn down.
    offers.propose_takeback()
    assert offers.say_no() == ["takeback/no"] and not offers.takeback_pending
    assert offers.say_no() == []
    # Refused by Lichess: nothing waits.
    offers.propose_takeback()
    offers.takeback_call_refused()
    assert not offers.takeback_pending


def test_accepting_the_opponents_takeback_is_no_proposal_of_ours() -> None:
    offers = Offers()
    offers.read({**MOVES, "btakeback": True}, True, playing=True, taken=False)
    offers.propose_takeback()
    assert not offers.takeback_pending
