"""`reedboard-host emulate dgt|chesslink --pty PATH`: a DGT or ChessLink board on a
pseudo-terminal, for chess software that knows those boards, backed by a reedboard on its
own protocol.

The board's end of the emulation is the firmware's pure `EmulatedEndpoint`; here it is
fed from the link: its `state`, asked for every POLL_S, gives the position and the
sensors (a placement alone sends no effect), and the board's effects say when the game
changed where the position does not show it (a board restored after a mismatch).
What the software asks of the LEDs goes to the board as `show`, `mark` or `brightness`. PATH is a symbolic link
to the pty's device, made at start and removed at the end.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tty
from collections.abc import Callable
from typing import Protocol

from reedboard.errors import InvalidInputError, LinkError
from reedboard.link.board_messages import BoardMessage, EventMessage, StateMessage
from reedboard.link.emulation import Emulated, EmulatedEndpoint
from reedboard.link.messages import AskState, Command, Resync
from reedboard.link.outbox import Outbox
from reedboard.rules.position import Position

from reedboard_host.connection import HostError
from reedboard_host.follow import Follower

POLL_S = 0.1

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


def emulate(
    protocol: Emulated,
    follower: Follower,
    pty: SoftwareEnd,
    stop: Callable[[], bool],
) -> None:
    hello = follower.connection.hello or follower.connect()
    emulation = EmulatedEndpoint(protocol, hello.session)

    def message(m: BoardMessage) -> None:
        if isinstance(m, EventMessage):
            emulation.effect(m.event)

    follower.on_message_hook = message
    clock = follower.clock
    started = clock.monotonic()
    next_poll = 0.0
    while not stop():
        now = clock.monotonic()
        try:
            if follower.connected and now >= next_poll:
                next_poll = now + POLL_S
                _observe(follower, emulation, int((now - started) * 1000))
            for command in emulation.receive_data(pty.read()):
                _carry_out(follower, command)
        except LinkError as error:
            follower.lost(error)  # `keep_up` below looks for the board again
        pty.write(emulation.data_to_send())
        follower.keep_up(min(POLL_S / 4, max(0.0, next_poll - clock.monotonic())))


def _observe(follower: Follower, emulation: EmulatedEndpoint, t_ms: int) -> None:
    """The board's position and sensors, from its state, for the emulation to report."""
    state = follower.connection.request(AskState())
    try:
        if not isinstance(state, StateMessage) or state.fen is None:
            raise InvalidInputError("it has no position")
        position = Position.from_fen(state.fen, chess960=state.chess960)
        sensors = int(state.occupancy or "", 16)
    except (ValueError, InvalidInputError) as error:
        logger.warning("the board's state cannot be read: %s", error)
        return
    emulation.observe(position, sensors, t_ms)


def _carry_out(follower: Follower, command: Command) -> None:
    """What the software asked of the board's LEDs; a board without a link drops it."""
    if not follower.connected or isinstance(command, Resync):
        return  # a Resync is the native link's own, never an emulation's
    try:
        follower.connection.request(command)
    except HostError as error:
        logger.warning("%s", error)
