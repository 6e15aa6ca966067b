"""`reedboard-host lichess`: the board plays on Lichess through the Board API.

Lichess is the truth about the game; the board is where the person plays it. The
opponent's moves are lit on the board (`show`) for the person to carry out, and the
person's own moves are sent to Lichess. A board that disagrees with Lichess (the
opponent's piece moved elsewhere than shown, a move Lichess refused) takes its last move
back and is shown the right one. A move Lichess turns away for its rate limit (429) is
not refused: it waits on the board through Lichess's minute and goes then.

The bridge is one asyncio loop (`LichessBridge.run`). The account's events and the game
in progress are aiohttp streams, tasks of the loop (`streams.py`); they and the
lines typed on stdin (`COMMANDS`) go into a queue that the board task empties, so only
that task talks to the board. What to do about each is decided by the synchroniser
(`sync.py`), which does no I/O: this module carries out its actions.

A takeback is Lichess's to make: the board takes its moves back once Lichess's game is
shorter. A move the person takes back by hand on the board is a takeback proposed (or the
opponent's proposal accepted); while it waits for an answer the board is left as it is,
and a declined one lights the move again for the person to replay.

Lichess writes castling as king takes rook (`e1h1`) in its games' moves; the board writes
it so in Chess960 and as the king's two steps (`e1g1`) in standard chess. Lichess's moves
are read in either notation and kept in the board's, so the two games compare move by
move, and the board's moves go to Lichess in the board's notation, which Lichess takes."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TextIO, TypeVar

from reedboard.errors import LinkError, ReedboardError
from reedboard.lichess.actions import Steps
from reedboard.lichess.api import DEFAULT_SERVER, JsonObject, LichessApi
from reedboard.lichess.carrying import BoardEnd, carry_out
from reedboard.lichess.game import challenge_form, parse_clock, seek_form
from reedboard.lichess.playing import ask_for_game, sign_in, take_news
from reedboard.lichess.settings import BadSetting, read_token
from reedboard.lichess.streams import LichessStreams
from reedboard.lichess.sync import LichessSync

from reedboard_host.connection import HostError
from reedboard_host.follow import Follower

T = TypeVar("T")

POLL_S = 0.05

logger = logging.getLogger(__name__)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--token-file", metavar="F", help="the API token (else LICHESS_TOKEN)")
    p.add_argument("--server", default=DEFAULT_SERVER, metavar="URL", help="the Lichess server")
    p.add_argument("--seek", type=parse_clock, metavar="MIN+INC",
                   help="seek an opponent (rapid or classical, as the Board API allows)")  # fmt: skip
    p.add_argument("--challenge", metavar="USER", help="challenge this player")
    p.add_argument("--clock", type=parse_clock, default=(3.0, 2), metavar="MIN+INC",
                   help="the challenge's clock (default 3+2)")  # fmt: skip
    p.add_argument("--rated", action="store_true", help="a rated seek or challenge")
    p.add_argument("--variant", choices=("standard", "chess960"), default="standard",
                   help="the seek's or challenge's variant (default standard)")  # fmt: skip
    p.add_argument("--accept", action="append", nargs="?", const="", metavar="USER",
                   help="accept challenges the board can play (from USER only; repeat for "
                        "more players) and decline those of other variants")  # fmt: skip


class LichessBridge:
    def __init__(
        self,
        api: LichessApi,
        follower: Follower,
        *,
        stop: Callable[[], bool],
        accept: list[str] | None = None,
        commands: TextIO | None = None,
    ) -> None:
        self.api = api
        self.commands = sys.stdin if commands is None else commands  # the typed commands
        self.follower = follower
        self.stop = stop
        self.sync = LichessSync(follower.mirror, accept=accept)
        follower.on_message_hook = self.sync.board_message
        # The board's port is a blocking serial port, which asyncio cannot await. Every
        # call on it goes to this one thread, in the order the board task makes them, so
        # a read that waits for the board's bytes never holds the streams up; polling the
        # port from the loop instead would either spin or answer the person late.
        self._board_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="board")
        self.streams: LichessStreams | None = None  # made in the loop

    # ----- the loop -----

    def run(self, *, seek: JsonObject | None, challenge: tuple[str, JsonObject] | None) -> int:
        try:
            return asyncio.run(self._until_stopped(self._run(seek, challenge)))
        finally:
            self._board_thread.shutdown(wait=True)  # its call in progress ends within POLL_S

    async def _until_stopped(self, work: Coroutine[Any, Any, int]) -> int:
        """`work`, cancelled once `stop()` says so. A signal handler sets that flag,
        which the loop cannot await: it is looked at every `POLL_S`."""
        task: asyncio.Task[int] = asyncio.ensure_future(work)
        while not task.done():
            if self.stop():
                task.cancel()
                break
            await asyncio.wait({task}, timeout=POLL_S)
        try:
            return await task
        except asyncio.CancelledError:
            return 0

    async def _run(self, seek: JsonObject | None, challenge: tuple[str, JsonObject] | None) -> int:
        streams = self.streams = LichessStreams(self.api)
        commands = None
        try:
            account = await sign_in(self.api, _warn)  # a bad token fails here, in one line
            assert account is not None  # never asked to stop: the loop cancels it
            me = self.sync.me = str(account.get("id") or account.get("username") or "").lower()
            logger.info("signed in to %s as %s", self.api.server, account.get("username", me))
            if await self._on_board(self.follower.connect, self.stop) is None:
                return 0  # stopped while the board was away
            commands = await self._read_commands()
            await ask_for_game(streams, _say, seek=seek, challenge=challenge)
            while True:
                try:
                    await self._turn(streams)
                except LinkError as error:
                    await self._on_board(self.follower.lost, error)
                except (HostError, ReedboardError) as error:
                    logger.warning("%s", error)
        finally:
            if commands is not None:
                commands.cancel()
            await streams.close()
            await self.api.close()

    async def _on_board(self, call: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._board_thread, call, *args)

    async def _read_commands(self) -> asyncio.Task[None] | None:
        """The lines typed, into the inbox as they come: a task reading stdin's pipe or
        terminal, or, for what the loop cannot watch (a file, text in memory), every line
        at once, as reading them cannot block."""
        assert self.streams is not None
        inbox = self.streams.inbox
        try:
            fd = os.dup(self.commands.fileno())  # the loop closes its own copy, not stdin
        except (OSError, ValueError):
            fd = None
        if fd is not None:
            loop = asyncio.get_running_loop()
            reader = asyncio.StreamReader()
            pipe = os.fdopen(fd, "rb", buffering=0)
            try:
                transport, _ = await loop.connect_read_pipe(
                    lambda: asyncio.StreamReaderProtocol(reader), pipe
                )
            except (OSError, ValueError):
                pipe.close()
            else:

                async def read() -> None:
                    try:
                        while line := await reader.readline():
                            inbox.put_nowait(
                                ("command", line.decode(errors="replace").strip().lower())
                            )
                    finally:
                        transport.close()
                        with contextlib.suppress(OSError, ValueError):
                            os.set_blocking(self.commands.fileno(), True)  # as the shell had it

                return asyncio.get_running_loop().create_task(read())
        for text in self.commands:
            inbox.put_nowait(("command", text.strip().lower()))
        return None

    async def _turn(self, streams: LichessStreams) -> None:
        if not await self._on_board(self.follower.keep_up, POLL_S):
            return  # Lichess's news waits in the inbox until the board is back
        await take_news(streams, self.sync, self._carry_out)

    async def _carry_out(self, steps: Steps) -> None:
        """Drive the synchroniser (`lichess.carrying`), the board reached through the
        follower's connection on its own thread; an error it does not catch goes on to
        the loop."""
        assert self.streams is not None
        board = BoardEnd(
            ask=lambda command: self._on_board(self.follower.connection.request, command),
            fetch=lambda: self._on_board(self.follower.sync),
            tell=_say,
        )
        await carry_out(steps, self.sync, self.api, self.streams, board)


def _say(text: str) -> None:
    logger.info("%s", text)


def _warn(text: str) -> None:
    logger.warning("%s", text)


def lichess(args: argparse.Namespace, *, stop: Callable[[], bool]) -> int:
    try:
        token = read_token(args.token_file, os.environ)
        api = LichessApi(args.server, token)
        if args.challenge and args.seek:
            raise BadSetting("give --seek or --challenge, not both")
        seek = None if args.seek is None else seek_form(args.seek, args.rated, args.variant)
        challenge = None
        if args.challenge:
            challenge = (args.challenge, challenge_form(args.clock, args.rated, args.variant))
    except BadSetting as error:
        # A bad argument, in one line: exit status 2, as for the ones the parser refuses.
        print(f"reedboard-host lichess: {error}", file=sys.stderr)
        return 2
    follower = Follower(args.port)
    bridge = LichessBridge(api, follower, stop=stop, accept=args.accept)
    try:
        return bridge.run(seek=seek, challenge=challenge)
    finally:
        follower.connection.close()
