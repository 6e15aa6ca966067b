"""The relay's ordering of one board's stream: each message once, in order, gaps asked for."""

from __future__ import annotations

from reedboard.link.frame import Wire
from reedboard_relay.feed import BoardFeed


def hello(seq: int, session: str = "s1", **more: object) -> Wire:
    return {"type": "hello", "seq": seq, "session": session, **more}


def effect(seq: int) -> Wire:
    return {"type": "effect", "seq": seq, "event": "touch"}


def test_an_unknown_session_is_asked_for_its_hello_and_nothing_is_taken() -> None:
    feed = BoardFeed()
    assert feed.take(effect(5)) == []
    request = feed.request(5, needs_state=False)
    assert request is not None and request["type"] == "hello"


def test_messages_are_delivered_in_order_each_once() -> None:
    feed = BoardFeed()
    assert feed.take(hello(1)) == [hello(1)]
    assert feed.take(effect(2)) == [effect(2)]
    assert feed.take(effect(2)) == []  # QoS 1 delivers at least once
    assert feed.take(hello(1)) == []  # a repeat of the session's hello
    assert feed.last == 2


def test_a_gap_is_held_and_asked_for_then_filled() -> None:
    feed = BoardFeed()
    feed.take(hello(1))
    assert feed.take(effect(4)) == []
    assert feed.take(effect(5)) == []
    assert feed.request(5, needs_state=False) == {
        "type": "resend",
        "after": 1,
        "until": 4,
        "session": "s1",
    }
    assert feed.take(effect(3)) == []
    assert feed.take(effect(2)) == [effect(2), effect(3), effect(4), effect(5)]
    assert feed.request(5, needs_state=False) is None


def test_a_lost_last_frame_is_noticed_from_the_boards_latest_number() -> None:
    feed = BoardFeed()
    feed.take(hello(1))
    assert feed.request(3, needs_state=False) == {"type": "resend", "after": 1, "session": "s1"}


def test_a_state_that_answers_the_relay_stands_for_everything_before_it() -> None:
    feed = BoardFeed()
    feed.take(hello(1))
    feed.take(effect(5))  # held behind a gap
    asked = feed.request(5, needs_state=True)
    assert asked is not None and asked["type"] == "state"
    state = {"type": "state", "seq": 7, "id": asked["id"]}
    assert feed.take(state) == [state]
    assert feed.held == {} and feed.last == 7
    assert feed.take(effect(6)) == []  # older than the state: already in it


def test_a_new_session_starts_the_numbering_again() -> None:
    feed = BoardFeed()
    feed.take(hello(1))
    feed.take(effect(2))
    assert feed.take(hello(1, "s2")) == [hello(1, "s2")]
    assert (feed.session, feed.last) == ("s2", 1)
    assert feed.take(effect(2)) == [effect(2)]


def test_a_board_that_restarted_unheard_is_asked_for_its_hello() -> None:
    """The board's new session lost on the way (its hello, its first frames): its `alive`
    falls behind what the relay holds, so the relay asks who it is, and takes the new
    session from its answer, whatever the old one's numbers were."""
    feed = BoardFeed()
    feed.take(hello(1))
    for seq in range(2, 31):
        feed.take(effect(seq))
    feed.alive(30)  # all there
    assert feed.request(30, needs_state=False) is None
    feed.alive(12)
    for needs_state in (False, True):
        asked = feed.request(12, needs_state=needs_state)
        assert asked is not None and asked["type"] == "hello"
    assert feed.take(effect(13)) == []  # the new session's, but nothing tells the relay so
    assert feed.take(hello(14, "s2", answers=True)) == [hello(14, "s2", answers=True)]
    assert feed.request(14, needs_state=False) is None
    assert feed.take(effect(15)) == [effect(15)]


def test_a_hello_of_the_known_session_keeps_its_place_in_the_numbering() -> None:
    """The relay asked twice (the first answer was slow): the second answer is a frame of
    the session it knows. Nothing new, but the frames after it must not wait for it."""
    feed = BoardFeed()
    feed.take(hello(1))
    assert feed.take(effect(3)) == []
    assert feed.take(hello(2, answers=True)) == [effect(3)]
    assert feed.last == 3 and feed.held == {}
    feed.take(effect(5))
    feed.take(effect(6))
    assert feed.take(hello(4, answers=True)) == [effect(5), effect(6)]  # held, then let go
    assert feed.request(6, needs_state=False) is None


def test_a_late_answer_older_than_what_was_delivered_is_dropped() -> None:
    """A state the relay asked for that arrives after newer messages (a broker's retry)
    would take the game back: it is a repeat of what the relay has."""
    feed = BoardFeed()
    feed.take(hello(1))
    for seq in range(2, 9):
        feed.take(effect(seq))
    assert feed.take({"type": "state", "seq": 5, "id": 1}) == []
    assert feed.last == 8
