"""The page and the `Opponents` port: a board that has one offers the choice of opponent
and a hint to a paired page, and shows who plays; the page refuses both in words on a
board without one. The board's loop and the page's thread run in this process, with a
small opponent of the test's own that lights its hint through its own client."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.hal.clock import MonotonicClock
from reedboard.link.board_messages import StateMessage
from reedboard.link.clients import Client, Clients
from reedboard.link.messages import AskState, ShowMove
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game
from reedboard.web.running import PageParts, PageThread
from reedboard.web.server import COOKIE

from tests.web.board_process import page_json

TIMEOUT = aiohttp.ClientTimeout(total=60)


class LevelledOpponent:
    """An opponent that takes "engine N" and lights e2e4 as its hint, on its own client."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.level: int | None = None

    def choose(self, spec: str) -> str | None:
        found = re.fullmatch(r"engine (\d+)", spec)
        if found is None or not 1 <= int(found.group(1)) <= 20:
            return f"no such opponent: {spec}"
        self.level = int(found.group(1))
        return None

    def current(self) -> str:
        return (
            "a person at the board" if self.level is None else f"the engine at level {self.level}"
        )

    def hint(self) -> str | None:
        if self.level is None:
            return "choose the engine first"
        self.client.ask(ShowMove(uci="e2e4"))
        return None


class Board:
    """The board's loop on a thread, its page on another, and a test's client beside."""

    def __init__(self, with_opponents: bool) -> None:
        script = parse_script("@start standard\n")
        fake = scripted_board(script)
        self.clients = Clients()
        self.app = App(
            Sensing(fake, source=fake),
            MonotonicClock(),
            link=HostLink(clients=self.clients),
            game=GameSetup(start=Game(script.start)),
        )
        self.stop = threading.Event()
        self.loop = threading.Thread(target=self.app.run, args=(self.stop.is_set,))
        self.test = self.clients.attach("test")
        opponent = LevelledOpponent(self.clients.attach("opponent"))
        self.page = PageThread(
            ("127.0.0.1", 0),
            PageParts(self.clients, opponents=opponent if with_opponents else None),
        )

    def state(self) -> StateMessage:
        self.test.take()
        self.test.ask(AskState(id=1))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for message in self.test.wait(1.0):
                if isinstance(message, StateMessage) and message.id == 1:
                    return message
        raise AssertionError("no state")


@pytest.fixture(params=[True, False], ids=["opponents", "none"])
def board(request: pytest.FixtureRequest) -> Iterator[Board]:
    running = Board(request.param)
    running.loop.start()
    running.page.start()
    try:
        assert running.page.wait_ready() is not None
        yield running
    finally:
        running.page.stop()
        running.stop.set()
        running.loop.join(10)


async def talk(board: Board, *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """Pair as a player does, then send `messages`: their answers."""
    url = board.page.url
    assert url is not None
    origin = {"Origin": url.rstrip("/")}
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        await session.post(url + "pair/start", json={}, headers=origin)
        marked: tuple[str, ...] = ()
        while len(marked) != 4:  # lit by the board's next turn
            marked = (await asyncio.to_thread(board.state)).marked or ()
        code = "".join(square[1] for square in sorted(marked))
        async with session.post(url + "pair", json={"code": code}, headers=origin) as paired:
            token = re.search(rf"{COOKIE}=([^;]+)", paired.headers["Set-Cookie"])
            assert token is not None
    answers: list[dict[str, Any]] = []
    async with (
        aiohttp.ClientSession(timeout=TIMEOUT, cookies={COOKIE: token.group(1)}) as session,
        session.ws_connect(url + "ws", headers=origin) as ws,
    ):
        for message in messages:
            await ws.send_str(json.dumps(message))
            while True:
                got = page_json((await ws.receive(timeout=30)).data)
                if got["type"] in ("reply", "error"):
                    answers.append(got)
                    break
    return answers


def shown(board: Board, check: Any) -> dict[str, Any]:
    """The page's picture of the board, as a watcher opens it, once `check` holds."""

    async def watch() -> dict[str, Any]:
        url = board.page.url
        assert url is not None
        async with (
            aiohttp.ClientSession(timeout=TIMEOUT) as session,
            session.ws_connect(url + "ws", headers={"Origin": url.rstrip("/")}) as ws,
        ):
            while True:
                got = page_json((await ws.receive(timeout=30)).data)
                if got["type"] == "state" and check(got):
                    return got

    return asyncio.run(watch())


def test_the_opponent_and_a_hint_through_the_port(board: Board) -> None:
    has = board.page.parts.opponents is not None
    asked = ({"op": "opponent", "spec": "engine 5"}, {"op": "opponent", "spec": "engine 99"})
    chosen, wrong, hint = asyncio.run(talk(board, *asked, {"op": "hint"}))
    if not has:
        for refused in (chosen, wrong, hint):
            assert refused["type"] == "error"
        assert "only a person at the board" in chosen["message"]
        assert "no engine" in hint["message"]
        assert shown(board, lambda _state: True)["opponent"] == "a person at the board"
        return
    assert chosen == {"type": "reply", "kind": "ack", "opponent": "the engine at level 5"}
    assert wrong == {"type": "error", "message": "no such opponent: engine 99"}
    assert hint["kind"] == "ack"
    page = shown(board, lambda state: state["roles"].get("e4") == "hint")
    assert page["opponent"] == "the engine at level 5"
    assert page["waiting"] == "White to play the move lit on the board: e2-e4"
