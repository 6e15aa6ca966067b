"""What reaches the Lichess bridge from outside, against the stand-in Lichess over real
HTTP: the account's events, the game's stream, and calls answered later; Lichess's rate
limit (a minute without calls after a 429), a stream that keeps failing, a game gone.
The API's clock is the test's: a minute's pause is waited out at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from reedboard_host.lichess_actions import quote
from reedboard_host.lichess_api import RATE_LIMIT_S, LichessApi, RateLimited
from reedboard_host.lichess_feeds import BACKOFF_MAX_S, LichessFeeds

from tests.host.lichess_standin import ManualClock, StandIn

TOKEN = "lip_feedsToken"


def _next(feeds: LichessFeeds, kind: str) -> Any:
    """The next item of `kind` in the inbox (others are passed over), within 10 s."""
    while True:
        got, item = feeds.inbox.get(timeout=10)
        if got == kind:
            return item


@pytest.fixture
def stopped() -> Iterator[threading.Event]:
    """The bridge's stop flag, set when the test ends however it ends: the feeds'
    threads stop instead of calling a stand-in that is gone."""
    event = threading.Event()
    yield event
    event.set()


def test_events_game_and_calls_reach_the_inbox(stopped: threading.Event) -> None:
    with StandIn(TOKEN) as lichess:
        feeds = LichessFeeds(LichessApi(lichess.url, TOKEN), stopped.is_set)
        feeds.follow_events()
        assert feeds.events_open.wait(10)
        lichess.start_game("feed0001")
        event = _next(feeds, "event")
        assert (event["type"], event["game"]["gameId"]) == ("gameStart", "feed0001")

        feeds.follow_game("feed0001")
        feeds.follow_game("feed0001")  # already followed: no second stream
        game_id, full = _next(feeds, "game")
        assert (game_id, full["type"]) == ("feed0001", "gameFull")

        feeds.post_later("/api/board/game/feed0001/draw/yes")
        assert _next(feeds, "posted") == "/api/board/game/feed0001/draw/yes"
        feeds.post_later("/api/board/game/nosuchgame/resign")
        path, text = _next(feeds, "refused")
        assert path.endswith("nosuchgame/resign") and text
        feeds.follow_game(None)
        assert feeds.game_followed is None
        stopped.set()


def test_a_path_segment_is_quoted_whole() -> None:
    assert quote("some/user name") == "some%2Fuser%20name"


@contextmanager
def feeds_on_a_manual_clock() -> Iterator[tuple[StandIn, LichessFeeds, ManualClock]]:
    stopped = threading.Event()
    clock = ManualClock()
    with StandIn(TOKEN) as lichess:
        try:
            yield (
                lichess,
                LichessFeeds(LichessApi(lichess.url, TOKEN, clock=clock), stopped.is_set),
                clock,
            )
        finally:
            stopped.set()  # every thread's wait sees it and ends


def _log_with(feeds: LichessFeeds, text: str) -> str:
    while True:
        line = _next(feeds, "log")
        if text in line:
            return str(line)


def test_a_429_on_the_event_stream_stops_every_call_for_a_minute() -> None:
    with feeds_on_a_manual_clock() as (lichess, feeds, clock):
        lichess.refuse_next["events"] = [429]
        feeds.follow_events()
        said = _log_with(feeds, "429")
        assert said.startswith("event stream: Lichess refused GET /api/stream/event: 429")
        # The stream waits for the whole minute Lichess asks for, not a second.
        assert clock.wait_asked(0) == RATE_LIMIT_S
        assert feeds.api.paused_for() == RATE_LIMIT_S
        # Meanwhile no call reaches Lichess: the API refuses it itself.
        with pytest.raises(RateLimited, match="waits 60 s more"):
            feeds.api.post("/api/board/seek", {"time": 15, "increment": 10})
        clock.advance(RATE_LIMIT_S - 0.5)
        assert clock.sleepers == [RATE_LIMIT_S] and not feeds.events_open.is_set()
        assert lichess.requests == {"events": 1}
        clock.advance(0.5)
        assert feeds.events_open.wait(10)
        assert lichess.requests == {"events": 2}


def test_a_stream_that_keeps_failing_is_tried_again_ever_later_up_to_a_bound() -> None:
    with feeds_on_a_manual_clock() as (lichess, feeds, clock):
        lichess.refuse_next["events"] = [503] * 7
        feeds.follow_events()
        waits = []
        for n in range(7):
            waits.append(clock.wait_asked(n) - clock.now())
            clock.advance(waits[-1])
        assert waits == [1, 2, 4, 8, 16, BACKOFF_MAX_S, BACKOFF_MAX_S]
        assert feeds.events_open.wait(10)
        # Open again, then ended by the server: tried again a second later.
        lichess.drop_streams()
        assert clock.wait_asked(7) - clock.now() == 1
        assert lichess.requests == {"events": 8}


def test_a_game_stream_answered_404_is_left_at_once() -> None:
    with feeds_on_a_manual_clock() as (lichess, feeds, _clock):
        lichess.start_game("here0001")
        feeds.follow_game("gone0001")
        assert _next(feeds, "gone") == "gone0001"
        assert feeds.game_followed is None
        thread = feeds.game_thread
        assert thread is not None
        thread.join(10)
        assert not thread.is_alive()  # no second try
        assert lichess.not_found == ["/api/board/game/stream/gone0001"]


def test_a_call_refused_with_429_is_made_again_after_the_minute() -> None:
    with feeds_on_a_manual_clock() as (lichess, feeds, clock):
        lichess.start_game("wait0001")
        lichess.refuse_next["call"] = [429]
        feeds.post_later("/api/board/game/wait0001/draw/yes")
        said = _log_with(feeds, "429")
        assert "then it is sent again" in said
        assert clock.wait_asked(0) == RATE_LIMIT_S
        assert lichess.posts == []
        clock.advance(RATE_LIMIT_S)
        assert _next(feeds, "posted") == "/api/board/game/wait0001/draw/yes"
        assert lichess.posts == ["draw/yes"] and lichess.requests == {"call": 2}


@pytest.mark.parametrize(
    ("retry_after", "pause"),
    [("120", 120.0), ("5", RATE_LIMIT_S), ("soon", RATE_LIMIT_S), ("1e9", 3600.0)],
)
def test_a_longer_retry_after_is_waited_for_never_a_shorter(retry_after: str, pause: float) -> None:
    with feeds_on_a_manual_clock() as (lichess, feeds, clock):
        lichess.refuse_next["events"], lichess.retry_after = [429], retry_after
        feeds.follow_events()
        assert clock.wait_asked(0) == pause
        clock.advance(pause)
        assert feeds.events_open.wait(10)
