"""The one way a long-running command is asked to end: SIGINT (Ctrl-C) or SIGTERM, for
the board's commands and the host's and the relay's alike. One state, three ways to hear it:

- `stop_asked()`: a flag that a loop reads between its turns (the board's loop, a bridge
  that waits only in short steps);
- `stop_on_signals()`: a block in which the signal raises `Stopped` wherever the program
  is. A flag checked by the main loop is not enough on the host: on a noisy line it may be
  deep in a handshake or in fetching a long game, each with its own patient retries, and
  a user (or systemd) waits for all of them. The command's `finally` then writes what it
  has and closes the port, with further signals ignored so that nothing cuts that short.
  Writes that must not be cut in half (a PGN rewritten in place) run under
  `signals_held`, and the signal lands after them;
- `stop_event()`: an asyncio server's wait (the relay, the simulator's page), through the
  loop's own signal handling."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio  # not at start: the board's loop never needs it

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(BaseException):
    """The user asked the command to end: no error, and no `except Exception` takes it."""


class _State:
    asked = False  # a stop was asked since the command began to listen
    raising = 0  # depth of `stop_on_signals` blocks: a signal raises `Stopped`
    held = 0  # depth of `signals_held` blocks being run
    pending = False  # a signal came while held


def _ask() -> None:
    _State.asked = True


def _on_signal(_signum: int, _frame: FrameType | None) -> None:
    _ask()
    if not _State.raising:
        return
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_IGN)  # the clean-up must not be cut short
    if _State.held:
        _State.pending = True
        return
    raise Stopped


def stop_asked() -> Callable[[], bool]:
    """From now on SIGINT and SIGTERM ask the command to end; the function returned says
    whether one has."""
    _State.asked = False
    for signum in SIGNALS:
        signal.signal(signum, _on_signal)
    return lambda: _State.asked


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise `Stopped`; the block's end swallows it."""
    previous = {signum: signal.getsignal(signum) for signum in SIGNALS}
    _State.pending = False
    _State.asked = False
    _State.raising += 1
    for signum in SIGNALS:
        signal.signal(signum, _on_signal)
    try:
        yield
    except Stopped:
        pass
    finally:
        _State.raising -= 1
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def signals_held() -> Iterator[None]:
    """A signal that comes within the block raises `Stopped` only once it is over.
    (Python runs signal handlers in the main thread, between its bytecodes: a flag is
    enough, whichever thread the signal was delivered to.)"""
    _State.held += 1
    try:
        yield
    finally:
        _State.held -= 1
    if not _State.held and _State.pending:
        _State.pending = False
        raise Stopped


def stop_event() -> asyncio.Event:
    """An event set once SIGINT or SIGTERM asks the command to end, for the running
    asyncio loop to wait on. The handlers are in place when this returns, so a server may
    say where it serves just after (a supervisor that stops it at once ends it, not kills
    it)."""
    import asyncio

    asked = asyncio.Event()

    def ask() -> None:
        _ask()
        asked.set()

    _State.asked = False
    loop = asyncio.get_running_loop()
    for signum in SIGNALS:
        loop.add_signal_handler(signum, ask)
    return asked
