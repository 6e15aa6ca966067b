"""A whole board running in a thread of the test (the firmware's loop on a `FakeBoard`),
its link on a real pty behind a relay, for `reedboard-host` commands run as real programs
against it. The test sees what the LEDs show (the latest view) and moves the pieces with
`push`; it can wait for what the board has done (`wait_until`), such as answering a host's
`hello` (`answered`)."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing, ViewLights
from reedboard.board_game import Settings
from reedboard.hal.clock import MonotonicClock
from reedboard.hal.fake_board import FakeBoard
from reedboard.link.board import BoardEndpoint
from reedboard.link.board_messages import EffectMessage, Reply
from reedboard.link.messages import Command, command_type
from reedboard.link.serial_port import SerialPort, open_port
from reedboard.log_setup import LOG_LEVEL_VARIABLE
from reedboard.reader.view import BoardView
from reedboard.rules.game import Game
from reedboard.rules.position import Position

from tests.link.ptybridge import PtyBridge
from tests.support.board_views import board_moves, quiet
from tests.support.pushed_lines import push


class _HeardEndpoint(BoardEndpoint):
    """The board's end of the link, telling the test each host command it has answered."""

    def __init__(self, session: str, heard: Callable[[str], None]) -> None:
        super().__init__(session)
        self._heard = heard

    def reply(self, command: Command, message: Reply) -> int:
        seq = super().reply(command, message)
        self._heard(command_type(command))
        return seq


class _TappedPort:
    """The board's port, keeping the latest bytes it wrote and read (with the wall time),
    for a failure's message: what the board last said and heard."""

    def __init__(self, port: SerialPort, keep: int = 256) -> None:
        self.port = port
        self.started = time.monotonic()
        self.traffic: deque[tuple[float, str, bytes]] = deque(maxlen=keep)
        self._lock = threading.Lock()

    def read(self, wait_s: float = 0.0) -> bytes:
        data = self.port.read(wait_s)
        self._note("heard", data)
        return data

    def write(self, data: bytes) -> None:
        self.port.write(data)
        self._note("said", data)

    def _note(self, what: str, data: bytes) -> None:
        if data:
            with self._lock:
                self.traffic.append((time.monotonic() - self.started, what, data))

    def last(self, lines: int) -> str:
        """The board's latest `lines` frames, heard and said (queued for the line, not
        yet taken by it when `pending` says so), one a line."""
        with self._lock:
            traffic = list(self.traffic)
        text = [
            f"{t:8.3f} s {what} {line.decode('ascii', 'replace')}"
            for t, what, data in traffic
            for line in data.split(b"\n")
            if line.strip()
        ]
        pending = len(self.port.outbox)
        return "\n".join([*text[-lines:], f"(bytes not yet taken by the line: {pending})"])

    def close(self) -> None:
        self.port.close()


SCAN_HZ = 50.0


class RunningBoard:
    def __init__(
        self,
        *,
        speed: float = 1.0,
        corrupt: float = 0.0,
        settings: Settings | None = None,
        start: Game | None = None,
    ) -> None:
        """`start`: a game to begin from, its pieces standing (the standard start)."""
        self.clock = MonotonicClock(speed)
        position = start.position if start is not None else Position.standard()
        self.live = FakeBoard(position.occupied, electrical=False)
        self.effects: list[dict[str, Any]] = []
        self.answered: list[str] = []  # the kinds of the host commands answered, in order
        self.view: BoardView | None = None
        self.changed = threading.Condition()
        self.bridge = PtyBridge(corrupt=corrupt, seed=3)
        try:
            self.link = _TappedPort(open_port(self.bridge.board_path))
        except BaseException:
            self.bridge.close()
            raise
        self.app = App(
            # The pieces move only by `push`, whose moments the loop wakes for whatever the
            # rate, and a host's command wakes it too: 50 scans a second (of board time)
            # decide the same as 200, for a quarter of the loop's CPU at `speed` 4.
            Sensing(self.live, scan_hz=SCAN_HZ, source=self.live),
            self.clock,
            link=HostLink(
                self.link,
                endpoint=lambda session: _HeardEndpoint(session, self._answered),
                on_effect=self._effect,
            ),
            lights=ViewLights(self._render),
            game=GameSetup(start=start, settings=settings),
        )
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def push(self, lines: Iterable[tuple[int, str, str]]) -> int:
        """Move the pieces: `(t_ms, action, what)` lines from now on the board's clock."""
        return push(self.live, self.clock, lines)

    @property
    def port(self) -> str:
        return self.bridge.host_path

    def _run(self) -> None:
        self.app.run(self._stop.is_set)

    def _render(self, view: BoardView, _t_ms: int) -> None:
        with self.changed:
            self.view = view
            self.changed.notify_all()

    def _effect(self, message: EffectMessage) -> None:
        with self.changed:
            self.effects.append(message.to_wire())  # as a host would read it
            self.changed.notify_all()

    def _answered(self, kind: str) -> None:
        with self.changed:
            self.answered.append(kind)
            self.changed.notify_all()

    def wait_until(self, condition: Callable[[], bool], what: str, timeout_s: float = 30) -> None:
        """Wait until `condition()` holds, checked each time the board changes (a view, an
        effect, an answer); fail naming `what` after `timeout_s`, a bound for a stuck run."""
        deadline = time.monotonic() + timeout_s
        with self.changed:
            while not condition():
                left = deadline - time.monotonic()
                assert left > 0, f"timed out waiting for {what}"
                self.changed.wait(min(left, 0.1))

    def moves(self) -> list[str]:
        """The board's own game, as UCI moves."""
        return board_moves(self.app)

    def quiet_view(self) -> BoardView | None:
        """The board's view when a person could act on it; else None."""
        return quiet(self.view, self.live.pending)

    def last_frames(self, lines: int = 40) -> str:
        """What the board last said and heard on its link, for a failure's message."""
        return self.link.last(lines)

    def effect_kinds(self) -> list[str]:
        """The kinds of the board's effects so far, in order (`move`, `takeback`, ...)."""
        return [str(e["event"]) for e in self.effects]

    def play_along(
        self, step: Callable[[], None], busy: Callable[[], bool], still_s: float
    ) -> None:
        """Call `step` (a person's) each time the board shows something new, for as long
        as `busy()` (the other side plays), until the board has had no new effect for
        `still_s`: a bound for a stuck game, not for a slow one (a loaded machine may
        take as long as it likes over a game that goes on)."""
        seen, deadline = len(self.effects), time.monotonic() + still_s
        while busy() and time.monotonic() < deadline:
            with self.changed:
                self.changed.wait(0.2)  # until the board shows something new
            step()
            if len(self.effects) != seen:
                seen, deadline = len(self.effects), time.monotonic() + still_s

    def __enter__(self) -> RunningBoard:
        try:
            self.app.start()
            self._thread.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the board's loop, then close its port and the ptys."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(10)
        try:
            self.link.close()
        finally:
            self.bridge.close()
        assert not self._thread.is_alive(), "the board's loop did not stop"


def host_command(*args: str) -> list[str]:
    """The `reedboard-host` command line, run with this Python."""
    return [sys.executable, "-m", "reedboard_host.cli", *args]


def debug_env() -> dict[str, str]:
    """The environment for a `reedboard-host` whose log a failure's message shows: at
    debug, so it tells what it read off the link and where the numbering stood."""
    return {**os.environ, LOG_LEVEL_VARIABLE: "debug"}


def tail(text: str, lines: int = 40) -> str:
    """The last `lines` lines of a program's log, for a failure's message."""
    return "\n".join(text.splitlines()[-lines:])
