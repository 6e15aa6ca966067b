"""The page's feed keeps its picture of the board current: a move another client lights (an
engine's, for the person to carry out) changes the board without an effect, and reaches
the page as soon as the board has answered that client, not on the next refresh."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from reedboard.link.messages import ShowMove
from reedboard.web.feed import Feed

from tests.ble.phone_board import MemoryTransport, PhoneBoard

WAIT_S = 20.0  # each wait ends as soon as the picture shows it; generous for a loaded machine


def test_a_move_another_client_lights_reaches_the_page_without_a_refresh() -> None:
    board = PhoneBoard(MemoryTransport())
    board.run(50)

    async def watch() -> list[str]:
        feed = Feed(board.clients)
        feeding = asyncio.create_task(feed.run())
        engine = board.clients.attach("opponent")  # the engine opponent's client, say
        waiting: list[str] = []

        async def until(shown: Callable[[str], bool]) -> None:
            while True:
                board.run(20)
                await asyncio.sleep(0.01)
                if feed.shown:
                    words = json.loads(feed.shown)["waiting"]
                    if not waiting or waiting[-1] != words:
                        waiting.append(words)
                    if shown(words):
                        return

        try:
            await asyncio.wait_for(until(lambda words: words == "White to move"), WAIT_S)
            # No page is open: the feed refreshes nothing on its own (REFRESH_S is for
            # open pages), so only the board's answer to the other client can tell it.
            assert not feed.listeners
            engine.ask(ShowMove("e2e4"))
            await asyncio.wait_for(until(lambda words: "lit on the board" in words), WAIT_S)
        finally:
            feeding.cancel()
            engine.close()
        return waiting

    assert asyncio.run(watch()) == [
        "White to move", "White to play the move lit on the board: e2-e4",
    ]  # fmt: skip
