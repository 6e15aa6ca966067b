"""What reaches the Lichess bridge from outside, against the stand-in Lichess over real
HTTP: the account's events, the game's stream, and calls answered later."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from reedboard_host.lichess_api import LichessApi
from reedboard_host.lichess_feeds import LichessFeeds, quote

from host.lichess_standin import StandIn

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
