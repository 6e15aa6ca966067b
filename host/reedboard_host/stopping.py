"""Ending a long-running command at once on SIGINT (Ctrl-C) or SIGTERM.

A flag checked by the main loop is not enough: on a noisy line the host may be deep in a
handshake or in fetching a long game, each with its own patient retries, and a user (or
systemd) waits for all of them. Here the first signal raises `Stopped` wherever the
program is; the command's `finally` then writes what it has and closes the port, with
further signals ignored so that nothing cuts that short. Writes that must not be cut in
half (a PGN rewritten in place) run under `signals_held`, and the signal lands after
them."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(BaseException):
    """The user asked the command to end."""


class _State:
    held = 0  # depth of `signals_held` blocks being run
    pending = False  # a signal came while held


def _stop(_signum: int, _frame: FrameType | None) -> None:
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_IGN)  # the clean-up must not be cut short
    if _State.held:
        _State.pending = True
        return
    raise Stopped


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise `Stopped`; the block's end swallows it."""
    previous = {signum: signal.getsignal(signum) for signum in SIGNALS}
    _State.pending = False
    for signum in SIGNALS:
        signal.signal(signum, _stop)
    try:
        yield
    except Stopped:
        pass
    finally:
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
