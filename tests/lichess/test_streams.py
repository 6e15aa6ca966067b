"""What reaches the Lichess bridge from outside, against the stand-in Lichess over real
HTTP: the account's events, the game's stream, and calls answered later; Lichess's rate
limit (a minute without calls after a 429), a stream that keeps failing, a game gone.
The streams run on an asyncio loop in a thread of the test, as in the bridge; the API's
clock is the test's: a minute's pause is waited out at once."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest
from reedboard.lichess.actions import quote
from reedboard.lichess.api import RATE_LIMIT_S, LichessApi, RateLimited
from reedboard.lichess.streams import BACKOFF_MAX_S, LichessStreams

from tests.host.lichess_standin import ManualClock, StandIn

TOKEN = "lip_feedsToken"
T = TypeVar("T")


class Feeds:
    """The streams on a loop of their own, in a thread; the test calls them through it."""

    def __init__(self, api: LichessApi) -> None:
        self.api = api
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.streams = self.run(self._make())

    async def _make(self) -> LichessStreams:
        return LichessStreams(self.api)

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(10)

    def call(self, action: Callable[[LichessStreams], T]) -> T:
        async def on_loop() -> T:
            return action(self.streams)

        return self.run(on_loop())

    def close(self) -> None:
        """Every task cancelled, the API closed, the loop ended: whatever the test did."""
        try:
            self.run(self.streams.close())
            self.run(self.api.close())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            self.loop.close()

    def events_open(self) -> bool:
        async def opened() -> bool:
            await self.streams.events_open.wait()
            return True

        return self.run(opened())


def _next(feeds: Feeds, kind: str) -> Any:
    """The next item of `kind` in the inbox (others are passed over), within 10 s."""
    while True:
        got, item = feeds.run(feeds.streams.inbox.get())
        if got == kind:
            return item


@contextmanager
def feeds_on(api: LichessApi) -> Iterator[Feeds]:
    feeds = Feeds(api)
    try:
        yield feeds
    finally:
        feeds.close()


def test_events_game_and_calls_reach_the_inbox() -> None:
    with StandIn(TOKEN) as lichess, feeds_on(LichessApi(lichess.url, TOKEN)) as feeds:
        feeds.call(lambda s: s.follow_events())
        assert feeds.events_open()
        lichess.start_game("feed0001")
        event = _next(feeds, "event")
        assert (event["type"], event["game"]["gameId"]) == ("gameStart", "feed0001")

        feeds.call(lambda s: s.follow_game("feed0001"))
        feeds.call(lambda s: s.follow_game("feed0001"))  # already followed: no second stream
        game_id, full = _next(feeds, "game")
        assert (game_id, full["type"]) == ("feed0001", "gameFull")

        feeds.call(lambda s: s.post_later("/api/board/game/feed0001/draw/yes"))
        assert _next(feeds, "posted") == "/api/board/game/feed0001/draw/yes"
        feeds.call(lambda s: s.post_later("/api/board/game/nosuchgame/resign"))
        path, text = _next(feeds, "refused")
        assert path.endswith("nosuchgame/resign") and text
        feeds.call(lambda s: s.follow_game(None))
        assert feeds.streams.game_followed is None


def test_a_path_segment_is_quoted_whole() -> None:
    assert quote("some/user name") == "some%2Fuser%20name"


@contextmanager
def feeds_on_a_manual_clock() -> Iterator[tuple[StandIn, Feeds, ManualClock]]:
    clock = ManualClock()
    with StandIn(TOKEN) as lichess, feeds_on(LichessApi(lichess.url, TOKEN, clock=clock)) as feeds:
        yield lichess, feeds, clock


def _log_with(feeds: Feeds, text: str) -> str:
    while True:
        line = _next(feeds, "log")
        if text in line:
            return str(line)


def test_a_429_on_the_event_stream_stops_every_call_for_a_minute() -> None:
    with feeds_on_a_manual_clock() as (lichess, feeds, clock):
        lichess.refuse_next["events"] = [429]
        feeds.call(lambda s: s.follow_events())
        said = _log_with(feeds, "429")
        assert said.startswith("event stream: Lichess refused GET /api/stream/event: 429")
        # The stream waits for the whole minute Lichess asks for, not a second.
        assert clock.wait_asked(0) == RATE_LIMIT_S
        assert feeds.api.paused_for() == RATE_LIMIT_S
        # Meanwhile no call reaches Lichess: the API refuses it itself.
        with pytest.raises(RateLimited, match="waits 60 s more"):
            feeds.run(feeds.api.post("/api/board/seek", {"time": 15, "increment": 10}))
        clock.advance(RATE_LIMIT_S - 0.5)
        assert clock.sleepers == [RATE_LIMIT_S] and not feeds.streams.events_open.is_set()
        assert lichess.requests == {"events": 1}
        clock.advance(0.5)
        assert feeds.events_open()
        assert lichess.requests == {"events": 2}


def test_a_stream_that_keeps_failing_is_tried_again_ever_later_up_to_a_bound() -> None:
    with feeds_on_a_manual_clock() as (lichess, feeds, clock):
        lichess.refuse_next["events"] = [503] * 7
        feeds.call(lambda s: s.follow_events())
        waits = []
        for n in range(7):
            waits.append(clock.wait_asked(n) - clock.now())
            clock.advance(waits[-1])
        assert waits == [1, 2, 4, 8, 16, BACKOFF_MAX_S, BACKOFF_MAX_S]
        assert feeds.events_open()
        # Open again, then ended by the server: tried again a second later.
        lichess.drop_streams()
        assert clock.wait_asked(7) - clock.now() == 1
        assert lichess.requests == {"events": 8}


def test_a_game_stream_answered_404_is_left_at_once() -> None:
    with feeds_on_a_manual_clock() as (lichess, feeds, _clock):
        lichess.start_game("here0001")
        feeds.call(lambda s: s.follow_game("gone0001"))
        assert _next(feeds, "gone") == "gone0001"
        assert feeds.streams.game_followed is None
        task = feeds.streams.game_task
        assert task is not None
        feeds.run(asyncio.wait({task}, timeout=10))
        assert task.done()  # no second try
        assert lichess.not_found == ["/api/board/game/stream/gone0001"]


def test_a_call_refused_with_429_is_made_again_after_the_minute() -> None:
    with feeds_on_a_manual_clock() as (lichess, feeds, clock):
        lichess.start_game("wait0001")
        lichess.refuse_next["call"] = [429]
        feeds.call(lambda s: s.post_later("/api/board/game/wait0001/draw/yes"))
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
        feeds.call(lambda s: s.follow_events())
        assert clock.wait_asked(0) == pause
        clock.advance(pause)
        assert feeds.events_open()


def test_the_host_commands_arguments_do_not_import_aiohttp() -> None:
    # Every `reedboard-host` command builds the parser, the `lichess` command's arguments
    # with it: none of them waits for aiohttp's import, which only a call to Lichess needs.
    code = (
        "import sys; from reedboard_host.cli import build_parser; build_parser(); "
        "print('aiohttp' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=True
    )
    assert result.stdout.strip() == "False", result.stderr


class _BrokenApi(LichessApi):
    async def post(
        self, path: str, form: Mapping[str, Any] | None = None, *, timeout: float = 15.0
    ) -> dict[str, Any]:
        raise RuntimeError(f"no answer shaped for {path}")


def test_a_task_ended_by_something_unforeseen_says_so() -> None:
    with feeds_on(_BrokenApi("http://127.0.0.1:9", TOKEN)) as feeds:
        feeds.call(lambda s: s.post_later("/api/board/game/odd00001/draw/yes"))
        said = _log_with(feeds, "stopped")
        assert said == (
            "a Lichess task stopped: RuntimeError: no answer shaped for "
            "/api/board/game/odd00001/draw/yes"
        )
