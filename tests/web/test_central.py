"""The page says which phone controls the board over Bluetooth: its feed hears the board's
`central` message from a phone's client beside it."""

from __future__ import annotations

import asyncio
import json

from reedboard.ble.peripheral import Connection
from reedboard.link.board_messages import CentralMessage
from reedboard.link.central_words import central_words
from reedboard.web.feed import Feed

from tests.ble.phone_board import PHONE, MemoryTransport, PhoneBoard

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"


def test_the_page_shows_the_phone_in_control_and_then_none() -> None:
    transport = MemoryTransport()
    board = PhoneBoard(transport)
    board.run(50)

    async def watch() -> list[str]:
        feed = Feed(board.clients)
        feeding = asyncio.create_task(feed.run())
        shown: list[str] = []

        async def until_shown(central: str) -> None:
            while not shown or shown[-1] != central:
                board.run(20)
                await asyncio.sleep(0.01)
                if feed.shown:
                    view = json.loads(feed.shown)
                    if not shown or shown[-1] != view["central"]:
                        shown.append(view["central"])

        try:
            await asyncio.wait_for(until_shown(""), 20)
            transport.incoming.append(Connection(PHONE, "00:AA:00:00:00:02", True, "Pixel 7"))
            transport.write(f"begin {START}")
            await asyncio.wait_for(until_shown(central_words(CentralMessage(
                True, "cpp", "Pixel 7", "00:AA:00:00:00:02"))), 20)  # fmt: skip
            transport.incoming.append(Connection(PHONE, "00:AA:00:00:00:02", False))
            await asyncio.wait_for(until_shown(""), 20)
        finally:
            feeding.cancel()
        return shown

    shown = asyncio.run(watch())
    assert shown[0] == "" and shown[-1] == ""
    assert "Phone Pixel 7 (00:AA:00:00:00:02) controls the board" in " ".join(shown)
