"""Lichess played by the board itself, with no PC: the Board API bridge of
`reedboard-host lichess` (`reedboard.lichess.sync` decides, its streams bring Lichess's
news) carried out by the board's own in-process client (`link.clients`) instead of the
serial link.

It runs on its own thread, in its own asyncio loop, so neither the scan loop nor the
page ever waits for Lichess. Each turn it reads what the board told its client (the
board's game, kept in a `BoardSeen`; the answers to its requests), then what Lichess
sent, and lets the synchroniser act on the difference: the opponent's move lit on the
board (and spoken, as any move to make), the person's moves sent to Lichess, takebacks,
draws and resignations both ways. Its last words are the status the page shows.

A token Lichess refuses stops it with that said; a network lost is waited out by the
streams, which open again, and a move refused meanwhile is taken back on the board."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from reedboard.errors import BoardRequestError, LinkError, ReedboardError
from reedboard.lichess.actions import Steps
from reedboard.lichess.api import LichessApi, LichessError
from reedboard.lichess.carrying import BoardEnd, carry_out
from reedboard.lichess.game import challenge_form, seek_form
from reedboard.lichess.playing import ask_for_game, sign_in, take_news
from reedboard.lichess.streams import LichessStreams
from reedboard.lichess.sync import COMMANDS, LichessSync
from reedboard.link.board_messages import Ack, ErrorReply, Outgoing, StateMessage
from reedboard.link.clients import Client, Clients
from reedboard.link.messages import AskState, WireCommand
from reedboard.opponents.board_seen import BoardSeen
from reedboard.opponents.lichess_spec import LichessPlan

POLL_S = 0.05  # the longest a turn waits for the board or Lichess
REPLY_S = 10.0  # the board answers its own client within a turn; a loaded Pi, within this
NEWS_KEPT = 20
CLOCKS_TOLD = "clocks on Lichess: "  # as the synchroniser tells them after each move

logger = logging.getLogger(__name__)


class LichessSide:
    def __init__(
        self,
        plan: LichessPlan,
        clients: Clients,
        server: str,
        token: str,
        *,
        forget_token: Callable[[], None] = lambda: None,
    ) -> None:
        self.plan = plan
        self.forget_token = forget_token  # a token Lichess refuses is not kept
        self.clients = clients
        self.api = LichessApi(server, token)
        self.seen = BoardSeen()
        self.sync = LichessSync(self.seen, accept=[plan.user] if plan.way == "accept" else None)
        self.news: deque[str] = deque(maxlen=NEWS_KEPT)  # what it said, newest last
        self.clocks = ""  # Lichess's clocks after the last move, as it told them
        self.refused: str | None = None  # why Lichess will not play with it (a bad token)
        self.account = ""
        self._client: Client | None = None
        self._asked_id = 0
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._streams: LichessStreams | None = None
        self._thread = threading.Thread(target=self._run, name="lichess", daemon=True)

    # ----- from any thread -----

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(10)

    def status(self) -> str:
        """In words, for the page: who is played, and the latest news."""
        if self.refused is not None:
            return f"Lichess: {self.refused}"
        game = self.sync.game
        if game is None or game.over:
            what = self.plan.words()
        else:
            what = f"game {game.id}, you play {'white' if game.we_white else 'black'}"
            what += f"; {self.clocks}" if self.clocks else ""
        latest = f": {self.news[-1]}" if self.news else ""
        return f"Lichess ({what}){latest}"

    def command(self, line: str) -> str | None:
        """A player's word for the game on Lichess (`COMMANDS`: resign, draw, takeback,
        no, abort, claim, claim-draw): None once handed over, else why not."""
        line = line.strip().lower()
        if line not in COMMANDS:
            return f"unknown Lichess command {line[:20]!r}: one of {', '.join(COMMANDS)}"
        loop, streams = self._loop, self._streams
        if loop is None or streams is None or self.refused is not None:
            return "not connected to Lichess"
        loop.call_soon_threadsafe(streams.inbox.put_nowait, ("command", line))
        return None

    # ----- its own thread -----

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception:  # its failure must not take the board down: it is said
            logger.exception("the Lichess player stopped")
            self.refused = "stopped on an error (see the board's log)"

    async def _main(self) -> None:
        loop = self._loop = asyncio.get_running_loop()
        arrived = asyncio.Event()
        self._arrived = arrived

        def wake() -> None:  # on the board's loop: it must not block
            loop.call_soon_threadsafe(arrived.set)

        client = self._client = self.clients.attach("lichess", wake)
        streams = self._streams = LichessStreams(self.api)
        try:
            if not await self._sign_in():
                return
            plan = self.plan
            seek = seek_form(plan.clock, False, "standard") if plan.way == "seek" else None
            challenge = None
            if plan.way == "challenge":
                challenge = (plan.user, challenge_form(plan.clock, False, "standard"))
            await ask_for_game(
                streams, self._tell, seek=seek, challenge=challenge, stopped=self._stop.is_set
            )
            while not self._stop.is_set():
                await self._turn(streams)
                arrived.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(arrived.wait(), POLL_S)
        finally:
            client.close()
            await streams.close()
            await self.api.close()

    async def _sign_in(self) -> bool:
        try:
            account = await sign_in(self.api, self._tell, patient=True, stopped=self._stop.is_set)
        except LichessError:  # the token refused: asking again will not change that
            self.refused = "Lichess refused the token: enter it again on the page"
            logger.warning("%s", self.refused)
            self.forget_token()
            return False
        if account is None:
            return False
        self.account = str(account.get("username") or account.get("id") or "")
        self.sync.me = self.account.lower()
        self._tell(f"signed in to Lichess as {self.account}; {self.plan.words()}")
        return True

    async def _turn(self, streams: LichessStreams) -> None:
        self._heard(self._take())
        if self.seen.needs_state:
            # Not known yet (a client attached is sent the board's state), or events were
            # missed: the board's state, asked, tells it whole.
            try:
                self.seen.hear(await self._request(AskState()))
            except BoardRequestError as error:
                self._tell(str(error))
            if self.seen.needs_state:
                return
        try:
            await take_news(streams, self.sync, self._carry_out)
        except (BoardRequestError, LinkError, ReedboardError) as error:
            self._tell(str(error))

    def _take(self) -> list[Outgoing]:
        assert self._client is not None
        return self._client.take()

    def _heard(self, messages: list[Outgoing]) -> None:
        for message in messages:
            self.seen.hear(message)
            self.sync.board_message(message)

    async def _carry_out(self, steps: Steps) -> None:
        """Drive the synchroniser as the host's bridge does (`lichess.carrying`), the
        board reached through its in-process client."""
        assert self._streams is not None
        board = BoardEnd(ask=self._request, fetch=self._fetch, tell=self._tell)
        await carry_out(steps, self.sync, self.api, self._streams, board)

    async def _fetch(self) -> None:
        """The board's game, heard as its state."""
        self.seen.hear(await self._request(AskState()))

    async def _request(self, command: WireCommand) -> Any:
        """`command` carried out by the board: its reply, or BoardRequestError. What the
        board tells meanwhile is heard on the way."""
        assert self._client is not None
        self._asked_id += 1
        asked_id = self._asked_id
        if not self._client.ask(dataclasses.replace(command, id=asked_id)):
            raise BoardRequestError("the board is busy: asked again on the next turn")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REPLY_S
        while loop.time() < deadline and not self._stop.is_set():
            for message in self._take():
                if getattr(message, "id", None) == asked_id and _is_reply(message):
                    if isinstance(message, ErrorReply):
                        raise BoardRequestError(f"the board refused: {message.message}")
                    return message
                self._heard([message])
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), POLL_S)
        raise BoardRequestError(f"the board did not answer {command.TYPE}")

    def _tell(self, text: str) -> None:
        if text.startswith(CLOCKS_TOLD):
            # Lichess keeps the game's clocks: shown with the game, not as news.
            self.clocks = text.removeprefix(CLOCKS_TOLD)
            return
        self.news.append(text)
        logger.info("lichess: %s", text)


def _is_reply(message: object) -> bool:
    return isinstance(message, (Ack, ErrorReply, StateMessage))
