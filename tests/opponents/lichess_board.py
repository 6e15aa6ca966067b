"""`reedboard run --fake --web 127.0.0.1:0` playing Lichess itself, against the Lichess
stand-in over real HTTP: the very board `reedboard run` assembles (its parser,
`assemble`, its page and opponents), its loop on a thread of this process, its fake
switches driven live, and a device paired with it over the page's HTTP, as a phone is.
Everything started is stopped when the block ends, whatever happened."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from reedboard.cli import build_parser
from reedboard.commands import board_assembly, run_board
from reedboard.config import parse_config
from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.sensor_line import SensorLine
from reedboard.link.board_messages import StateMessage
from reedboard.link.clients import Client
from reedboard.link.messages import AskState
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.web.running import PageThread
from reedboard.web.server import COOKIE

from tests.app.games import move_lines
from tests.host.lichess_standin import StandIn
from tests.simweb.waiting import wait_for

TOKEN = "lip_boardplayer"
ANSWER_S = 30.0  # a loaded machine's board answers its own client far sooner


class HeardSpeaker:
    """The voice's speaker, noting what it is asked to say (espeak-ng's place)."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str, *, fleeting: bool = False) -> None:
        self.said.append(text)

    def close(self) -> None:
        pass


@dataclass
class LichessBoard:
    assembled: board_assembly.Assembled
    page: PageThread
    fake: FakeBoard
    asker: Client
    lichess: StandIn
    data_dir: Path
    speaker: HeardSpeaker
    cookie: str = ""
    _asked: int = 0

    @property
    def url(self) -> str:
        url = self.page.url
        assert url is not None
        return url

    # ----- the board, as its own client reads it -----

    def state(self) -> StateMessage:
        self._asked += 1
        asked = self._asked
        self.asker.ask(AskState(id=asked))
        deadline = time.monotonic() + ANSWER_S
        while time.monotonic() < deadline:
            for message in self.asker.wait(0.5):
                if isinstance(message, StateMessage) and message.id == asked:
                    return message
        raise AssertionError("the board did not answer its state")

    def game(self) -> Game:
        state = self.state()
        game = Game(Position.from_fen(state.start_fen, chess960=state.chess960))
        for uci in state.moves:
            game.push_uci(uci)
        return game

    def lit(self) -> str | None:
        """The move the board lights for the person to make, if any."""
        hint = self.state().hint
        return None if hint is None else hint[0] + hint[1]

    def make(self, uci: str) -> None:
        """Carry out `uci` on the switches by a clean hand, from the board's position."""
        lines, _ = move_lines(self.game().position, uci, 0)
        self.fake.schedule(lines, start_ms=self.assembled.app.clock.now_ms() + 50)

    def put_back(self, start: str, end: str) -> None:
        """A piece moved back by hand from `start` to `end`, as the lights ask after a
        takeback."""
        now = self.assembled.app.clock.now_ms() + 50
        lines = [SensorLine(0, "lift", start), SensorLine(300, "place", end)]
        self.fake.schedule(lines, start_ms=now)

    def in_place(self) -> bool:
        """Every piece where the board's game has it: the hands scheduled are done and
        the board shows nothing missing or extra. (Before the board has first compared
        its squares with a game it just started, it shows nothing either: the hands being
        done keeps that moment from passing for pieces put back.)"""
        if self.fake.pending:
            return False
        state = self.state()
        return not state.missing and not state.extra

    def plies(self) -> int:
        return len(self.state().moves)

    # ----- the page, as a paired phone uses it -----

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        headers = {"Content-Type": "application/json", "Origin": self.url.rstrip("/")}
        if self.cookie:
            headers["Cookie"] = f"{COOKIE}={self.cookie}"
        request = urllib.request.Request(
            self.url.rstrip("/") + path, json.dumps(body).encode(), headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=ANSWER_S) as response:
                found = re.search(rf"{COOKIE}=([^;]+)", response.headers.get("Set-Cookie") or "")
                if found:
                    self.cookie = found.group(1)
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def pair(self) -> None:
        """Paired as a player pairs: the code read off the squares the board lights."""
        assert self.post("/pair/start", {})[0] == 200
        wait_for(lambda: len(self.state().marked or ()) == 4, ANSWER_S)
        code = "".join(square[1] for square in sorted(self.state().marked or ()))
        status, answer = self.post("/pair", {"code": code})
        assert status == 200, answer
        assert self.cookie

    def page_shows(self, text: str) -> bool:
        """Whether a page kept open (watching, unpaired) is shown `text` in the opponent's
        line within ANSWER_S."""
        return asyncio.run(self._watch_for(text))

    async def _watch_for(self, text: str) -> bool:
        timeout = aiohttp.ClientTimeout(total=ANSWER_S)
        url = self.url.rstrip("/")
        with contextlib.suppress(TimeoutError):
            async with (
                aiohttp.ClientSession(timeout=timeout) as session,
                session.ws_connect(url + "/ws", headers={"Origin": url}) as ws,
            ):
                async for message in ws:
                    picture = json.loads(message.data)
                    if picture.get("type") == "state" and text in picture.get("opponent", ""):
                        return True
        return False

    def command(self, op: str, **fields: object) -> dict[str, Any]:
        """A paired page's request, and the board's answer."""
        return self.post("/command", {"op": op, **fields})[1]


@contextlib.contextmanager
def lichess_board(tmp_path: Path, lichess: StandIn, *options: str) -> Iterator[LichessBoard]:
    """The board, its `[lichess]` section naming the stand-in; `options`: more of
    `reedboard run`'s (`--opponent lichess:seek:10+0`)."""
    journal = str(tmp_path / "journal.sqlite")
    command_line = ["run", "--fake", "--web", "127.0.0.1:0", "--settle-ms", "150"]
    args = build_parser().parse_args([*command_line, *options, "--journal", journal])
    voice = '[voice]\nenabled = true\nlanguage = "en"\n'
    config = parse_config(f'{voice}[lichess]\nserver = "{lichess.url}"\nclock = "5+3"\n')
    speaker = HeardSpeaker()
    assembled = run_board.assemble(args, config, None, speaker=speaker)
    page = board_assembly.board_page(args, assembled)
    stop = threading.Event()
    loop = threading.Thread(target=assembled.app.run, args=(stop.is_set,))
    try:
        tee = assembled.app.tee
        assert page is not None and tee is not None and isinstance(assembled.scanner, FakeBoard)
        asker = tee.clients.attach("test")
        loop.start()
        page.start()
        assert page.wait_ready() is not None
        yield LichessBoard(assembled, page, assembled.scanner, asker, lichess, tmp_path, speaker)
    finally:
        stop.set()
        if loop.is_alive():
            loop.join(30)
        board_assembly.close_board(assembled, page)
