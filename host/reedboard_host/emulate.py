"""`reedboard-host emulate dgt|chesslink --pty PATH`: a DGT or ChessLink board on a
pseudo-terminal, for chess software that knows those boards, backed by a reedboard on its
own protocol.

The board's end of the emulation is the firmware's pure `EmulatedEndpoint`; here it is
fed from the link by `BoardFeed`, in the board's order: its `state`, asked for every
POLL_S, gives the position, the sensors (a placement alone sends no effect) and the
clocks; its `touch` effects show a lifted piece gone at once, its `move` effects the new
position, and the others say when the game changed where the position does not show it
(a board restored after a mismatch). Nothing waits for the board: the client is served
from the emulation's view every turn, and the replies are taken as they come.
What the software asks of the LEDs goes to the board as `show`, `mark` or `brightness`.
PATH is a symbolic link to the pty's device, made at start and removed at the end.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tty
from collections.abc import Callable
from typing import Protocol

from reedboard.errors import LinkError
from reedboard.link.board_messages import ErrorReply
from reedboard.link.emulation import Emulated, EmulatedEndpoint
from reedboard.link.messages import AskState, Resync, WireCommand
from reedboard.link.outbox import Outbox

from reedboard_host.connection import ATTEMPTS, REPLY_S, BoardConnection, HostError
from reedboard_host.emulate_feed import BoardFeed
from reedboard_host.follow import Follower

POLL_S = 0.1
TURN_S = 0.02  # the longest the client waits for an answer the emulation has at hand

logger = logging.getLogger(__name__)


class PtyEnd:
    """The software's end of the line: a pty whose device PATH links to. Never blocks:
    what the software does not read at once waits in a bounded outbox, which drops the
    oldest whole batches when nobody reads (a newer status supersedes them), so that no
    message reaches the software cut in half."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.outbox = Outbox()
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self.master, False)
        with contextlib.suppress(FileNotFoundError):
            if os.path.islink(path):
                os.unlink(path)
        try:
            os.symlink(os.ttyname(self._slave), path)
        except OSError as error:
            self.close()
            raise HostError(f"cannot make {path}: {error.strerror or error}") from None

    def read(self) -> bytes:
        try:
            return os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return b""

    def write(self, data: bytes) -> None:
        self.outbox.add(data)
        self.outbox.drain(self._write_some)

    def _write_some(self, data: bytes) -> int:
        try:
            return os.write(self.master, data)
        except OSError:  # full (BlockingIOError), or the software's end closed
            return 0

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if os.path.islink(self.path):
                os.unlink(self.path)
        for fd in (self.master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class SoftwareEnd(Protocol):
    """The chess software's end of the line: the pty, or a test's bytes."""

    def read(self) -> bytes: ...

    def write(self, data: bytes) -> None: ...


def emulate_on_pty(
    protocol: Emulated, port: str | None, path: str, stop: Callable[[], bool]
) -> None:
    """The command's whole run: the board at `port` followed, the pty made at `path`,
    the emulation served until `stop()` says to end (the command's signals, or whoever
    runs it on a thread of theirs), and the pty's link and the board's line closed
    whatever happens."""
    follower = Follower(port)
    try:
        follower.connect()
        pty = PtyEnd(path)
        logger.info("%s board on %s", protocol, path)
        try:
            emulate(protocol, follower, pty, stop)
        finally:
            pty.close()
    finally:
        follower.connection.close()


def emulate(
    protocol: Emulated,
    follower: Follower,
    pty: SoftwareEnd,
    stop: Callable[[], bool],
) -> None:
    hello = follower.connection.hello or follower.connect(stop)
    if hello is None:
        return  # stopped while the board was away
    emulation = EmulatedEndpoint(protocol, hello.session)
    feed = BoardFeed(emulation)
    clock = follower.clock
    started = clock.monotonic()

    def now_ms() -> int:
        return int((clock.monotonic() - started) * 1000)

    follower.on_message_hook = lambda message: feed.message(message, now_ms())
    asked = Asked(follower.connection)
    if follower.connected:
        _first_view(follower)
    state_id: int | None = None
    next_poll = 0.0
    while not stop():
        now = clock.monotonic()
        try:
            if not follower.connected:
                asked.forget()
            else:
                asked.turn(now)
                if state_id is not None and not asked.waits_for(state_id):
                    state_id = None  # answered (the feed took it) or given up
                if state_id is None and now >= next_poll:
                    next_poll = now + POLL_S
                    state_id = asked.ask(AskState(), now)
            if emulation.tracker is not None:  # the client waits until there is a board
                for command in emulation.receive_data(pty.read()):
                    if follower.connected and not isinstance(command, Resync):
                        asked.ask(command, now)  # the LEDs; a board without a link drops it
        except LinkError as error:
            follower.lost(error)  # `keep_up` below looks for the board again
        emulation.tick(now_ms())
        pty.write(emulation.data_to_send())
        follower.keep_up(TURN_S)


def _first_view(follower: Follower) -> None:
    """The board's state, waited for once at the start, so that the client's first
    questions find a board; from then on states are asked without waiting."""
    try:
        follower.connection.request(AskState())  # the feed takes it as it arrives
    except HostError as error:
        logger.warning("%s; asking again", error)
    except LinkError as error:
        follower.lost(error)


class Asked:
    """Commands sent without waiting for their replies, so that the client is served
    meanwhile: each reply is taken when it comes; one not answered within `REPLY_S` is
    sent again, up to `ATTEMPTS` times in all, then given up with a warning, as a refusal
    is."""

    def __init__(self, connection: BoardConnection) -> None:
        self.connection = connection
        self._waiting: dict[int, tuple[WireCommand, float, int]] = {}  # id: sent at, times

    def ask(self, command: WireCommand, now: float) -> int:
        command_id = self.connection.ask(command)
        self._waiting[command_id] = (command, now, 1)
        return command_id

    def waits_for(self, command_id: int) -> bool:
        return command_id in self._waiting

    def forget(self) -> None:
        """The link is gone: nothing asked on it will be answered."""
        self._waiting.clear()

    def turn(self, now: float) -> None:
        for command_id, (command, sent, times) in list(self._waiting.items()):
            reply = self.connection.answer(command_id)
            if isinstance(reply, ErrorReply):
                logger.warning("the board refused %s: %s", command.TYPE, reply.message)
            if reply is not None:
                del self._waiting[command_id]
            elif now - sent >= REPLY_S and times >= ATTEMPTS:
                logger.warning("the board did not answer %s", command.TYPE)
                del self._waiting[command_id]
            elif now - sent >= REPLY_S:
                self.connection.ask_again(command_id, command)
                self._waiting[command_id] = (command, now, times + 1)
