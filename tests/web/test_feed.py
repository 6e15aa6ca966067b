"""The page's feed keeps its picture of the board current: a move another client lights (an
engine's, for the person to carry out) or the host lights over its link changes the board
without an effect, and reaches the page as soon as the board has carried it out, not on
the next refresh (none comes here: no page is open), also when the feed takes the state it
asked in the same wake as the news of that command."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from reedboard.link.frame import encode_frame
from reedboard.link.messages import ShowMove
from reedboard.web.feed import Feed

from tests.ble.phone_board import MemoryTransport, PhoneBoard

WAIT_S = 20.0  # each wait ends as soon as the picture shows it; generous for a loaded machine
WHITE_TO_MOVE = "White to move"


def host_lights(uci: str) -> bytes:
    """The host's `show` command as its bytes on the serial line."""
    return b"\n" + encode_frame({"type": "show", "uci": uci, "id": 1})


def turn(board: PhoneBoard, host: bytes = b"") -> None:
    """One turn of the board (10 ms of its clock), with `host`'s bytes read in it."""
    with board.lock:
        board.now += 10
        board.app.step(board.now, host)


class Watched:
    """The words of the feed's picture as they change, while the board turns."""

    def __init__(self, board: PhoneBoard, feed: Feed) -> None:
        self.board = board
        self.feed = feed
        self.waiting: list[str] = []

    async def until(self, shown: Callable[[str], bool]) -> None:
        async def turning() -> None:
            while True:
                turn(self.board)
                await asyncio.sleep(0.01)
                if self.feed.shown:
                    words = json.loads(self.feed.shown)["waiting"]
                    if not self.waiting or self.waiting[-1] != words:
                        self.waiting.append(words)
                    if shown(words):
                        return

        await asyncio.wait_for(turning(), WAIT_S)


def watch(board: PhoneBoard, act: Callable[[Feed, PhoneBoard], object]) -> list[str]:
    """The words the feed showed: the board as it starts, then after `act` until a move is
    lit. No page is open: the feed refreshes nothing on its own (REFRESH_S is for open
    pages), so only the board's news can tell it."""

    async def watching() -> list[str]:
        feed = Feed(board.clients)
        feeding = asyncio.create_task(feed.run())
        watched = Watched(board, feed)
        try:
            await watched.until(lambda words: words == WHITE_TO_MOVE)
            assert not feed.listeners
            act(feed, board)
            await watched.until(lambda words: "lit on the board" in words)
        finally:
            feeding.cancel()
        return watched.waiting

    board.run(50)
    return asyncio.run(watching())


def test_a_move_another_client_lights_reaches_the_page_without_a_refresh() -> None:
    board = PhoneBoard(MemoryTransport())
    engine = board.clients.attach("opponent")  # the engine opponent's client, say
    try:
        waiting = watch(board, lambda _feed, _board: engine.ask(ShowMove("e2e4")))
    finally:
        engine.close()
    assert waiting == [WHITE_TO_MOVE, "White to play the move lit on the board: e2-e4"]


def test_a_move_the_host_lights_reaches_the_page_without_a_refresh() -> None:
    board = PhoneBoard(MemoryTransport())
    waiting = watch(board, lambda _feed, board: turn(board, host_lights("d2d4")))
    assert waiting == [WHITE_TO_MOVE, "White to play the move lit on the board: d2-d4"]


def test_a_state_taken_with_the_news_of_a_later_command_is_asked_again() -> None:
    def asked_then_lit(feed: Feed, board: PhoneBoard) -> None:
        feed.refresh()  # the page asks the state (a control of its own was answered, say)
        turn(board)  # answered: the feed is woken, but has not run yet
        turn(board, host_lights("g1f3"))  # the next turn, the host lights a move
        # Both are handed over before the feed runs: it takes the state it asked, which
        # has no lit move, in the same wake as the news that the board was stirred after.

    waiting = watch(PhoneBoard(MemoryTransport()), asked_then_lit)
    assert waiting == [WHITE_TO_MOVE, "White to play the move lit on the board: g1-f3"]


def roles_shown(feed: Feed) -> dict[str, str]:
    return dict(json.loads(feed.shown)["roles"]) if feed.shown else {}


def test_a_piece_lifted_and_put_back_reaches_the_page_without_a_refresh() -> None:
    """A lift and a put-back are no effect and no command: the board stirs its clients
    for them itself, so the page shows the square lifted, then not, at once (no page is
    open: no refresh would tell it)."""
    board = PhoneBoard(MemoryTransport())
    shown: list[dict[str, str]] = []

    async def watching() -> None:
        feed = Feed(board.clients)
        feeding = asyncio.create_task(feed.run())
        watched = Watched(board, feed)

        async def until(roles: dict[str, str]) -> None:
            async def turning() -> None:
                while roles_shown(feed) != roles:
                    turn(board)
                    await asyncio.sleep(0.01)
                    if not shown or shown[-1] != roles_shown(feed):
                        shown.append(roles_shown(feed))

            await asyncio.wait_for(turning(), WAIT_S)

        try:
            await watched.until(lambda words: words == WHITE_TO_MOVE)
            assert not feed.listeners
            board.lift("g1")
            await until({"g1": "lifted"})
            board.place("g1")
            await until({})
        finally:
            feeding.cancel()

    board.run(50)
    asyncio.run(watching())
    assert shown == [{}, {"g1": "lifted"}, {}]
