"""`reedboard-host lichess` in the test's process against a `BoardPair`: the command's
own arguments (its parser, read as `lichess` reads them) and its bridge, with the
follower on the pair's in-memory link and virtual clock instead of a serial port, the
lines typed to it through a pipe as through its stdin, and what it logs collected as it
would print it. Lichess is the stand-in, over real HTTP.

The pair runs only when the bridge reads from it, on the bridge's board thread: the
person's hands (`hands`) and any gesture the test asks for (`on_board`) are carried out
there, between two steps of the board, so nothing touches the pair from two threads.
One test stays a real program on a real pty (test_bridge.py's `bridge_to`)."""

from __future__ import annotations

import argparse
import io
import logging
import os
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from reedboard.lichess.api import LichessApi
from reedboard.lichess.game import challenge_form, seek_form
from reedboard_host.follow import Follower
from reedboard_host.lichess.bridge import LichessBridge, add_arguments

from tests.host.lichess_standin import ManualClock, StandIn
from tests.support.board_pair import BoardPair
from tests.support.person import Person

JOIN_S = 10.0


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage() + "\n")


class PairedBridge:
    def __init__(self, lichess: StandIn, pair: BoardPair, token: str, *args: str,
                 clock: ManualClock | None = None) -> None:  # fmt: skip
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        options = parser.parse_args([*args, "--server", lichess.url])
        self.seek = (
            None
            if options.seek is None
            else seek_form(options.seek, options.rated, options.variant)
        )
        self.challenge = None
        if options.challenge:
            form = challenge_form(options.clock, options.rated, options.variant)
            self.challenge = (options.challenge, form)
        self.board = pair
        self.api = LichessApi(options.server, token, clock=clock)
        self.follower = Follower("memory", open_port=pair.open_port, clock=pair.host_clock)
        read_end, self._typed = os.pipe()
        self._commands = io.TextIOWrapper(io.FileIO(read_end, "r"))
        self.stopped = threading.Event()
        self.bridge = LichessBridge(
            self.api, self.follower, stop=self.stopped.is_set, accept=options.accept,
            commands=self._commands,
        )  # fmt: skip
        self.person: Person[BoardPair] | None = None
        self._gestures: queue.Queue[tuple[Callable[[], Any], threading.Event]] = queue.Queue()
        pair.watch(self._between_steps)
        self._log = _Lines()
        self.thread = threading.Thread(
            target=self.bridge.run, kwargs={"seek": self.seek, "challenge": self.challenge},
            daemon=True,
        )  # fmt: skip

    # ----- on the bridge's board thread -----

    def _between_steps(self) -> None:
        while not self._gestures.empty():
            gesture, done = self._gestures.get_nowait()
            try:
                gesture()
            finally:
                done.set()
        if self.person is not None:
            self.person.step()

    # ----- from the test -----

    def hands(self, person: Person[BoardPair] | None) -> None:
        """The person at the board acts on every step of it from now on (None: no more)."""
        self.person = person

    def on_board(self, gesture: Callable[[], Any]) -> None:
        """`gesture` carried out between two steps of the board; waited for."""
        done = threading.Event()
        self._gestures.put((gesture, done))
        assert done.wait(JOIN_S * 3), "the board did not step: the bridge is not reading it"

    @property
    def stderr(self) -> str:
        return "".join(list(self._log.lines))

    def said(self, text: str) -> bool:
        return text in self.stderr

    def alive(self) -> bool:
        return self.thread.is_alive()

    def type(self, line: str) -> None:
        os.write(self._typed, (line + "\n").encode())


@contextmanager
def bridge_on_pair(lichess: StandIn, pair: BoardPair, token: str, *args: str,
                   clock: ManualClock | None = None) -> Iterator[PairedBridge]:  # fmt: skip
    bridge = PairedBridge(lichess, pair, token, *args, clock=clock)
    # The bridge's own lines and those of the steps it shares with the board's player,
    # as the program's stderr has them.
    loggers = [logging.getLogger(name) for name in ("reedboard_host", "reedboard.lichess")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(bridge._log)
        logger.setLevel(logging.INFO)
    bridge.thread.start()
    try:
        yield bridge
    finally:
        bridge.stopped.set()
        bridge.thread.join(JOIN_S)
        bridge.follower.connection.close()
        os.close(bridge._typed)
        bridge._commands.close()
        for logger, level in zip(loggers, levels, strict=True):
            logger.removeHandler(bridge._log)
            logger.setLevel(level)
    assert not bridge.thread.is_alive(), bridge.stderr
    assert token not in bridge.stderr and "Traceback" not in bridge.stderr, bridge.stderr
    assert lichess.auth_headers == {f"Bearer {token}"}
