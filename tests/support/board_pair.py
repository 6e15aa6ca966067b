"""A board and the host's end of its link in one process, on one virtual clock: the
firmware's real `App` (on a `FakeBoard` whose pieces the test moves with `push`) at one end, the
host's real connection at the other, the bytes passed in memory.

Nothing runs by itself: time passes only when the host waits (its port's `read(wait_s)`,
its clock's `sleep`) or the test calls `advance`, and then the board is stepped at each
moment something is due on it (a piece put down or lifted, a decision of the debouncer or
the arbiter, its `alive` each second, the host's bytes). So a test of host logic runs as
fast as the CPU, without threads or a pty, and the same every time.

    pair = BoardPair()
    follower = Follower("memory", open_port=pair.open_port, clock=pair.host_clock)

`watch(callback)` calls back after each step of the board, for a person who reacts to
what its lights show (`person.py`); `unplug()` and `plug()` pull the host's cable and put
it back."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing, ViewLights
from reedboard.board_game import Settings
from reedboard.errors import LinkError
from reedboard.hal.clock import VirtualClock
from reedboard.hal.fake_board import FakeBoard
from reedboard.link.board import BoardEndpoint
from reedboard.link.board_messages import EffectMessage, Reply
from reedboard.link.messages import Command, command_type
from reedboard.reader.view import BoardView
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import Bitboard

from tests.support.board_views import board_moves, quiet
from tests.support.pushed_lines import push

ALIVE_MS = 1000  # the board's `alive` period: a moment the board is stepped at


class _HeardEndpoint(BoardEndpoint):
    """The board's end of the link, noting the kind of each host command it answers."""

    def __init__(self, session: str, heard: Callable[[str], None]) -> None:
        super().__init__(session)
        self._heard = heard

    def reply(self, command: Command, message: Reply) -> int:
        seq = super().reply(command, message)
        self._heard(command_type(command))
        return seq


class _BoardEnd:
    """The board's `LinkPort`: what it writes goes to the host's end while the cable is in
    (and is lost while it is out, as on a real line). The pair hands the board the host's
    bytes with each step, so there is nothing to read here."""

    def __init__(self, pair: BoardPair) -> None:
        self.pair = pair

    def read(self, wait_s: float = 0.0) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        if self.pair.plugged:
            self.pair.to_host += data


class HostEnd:
    """The host's port on the pair: a `BoardPort`. Reading with a wait runs the board on
    until it has written something or the wait is over."""

    def __init__(self, pair: BoardPair) -> None:
        self.pair = pair
        self.closed = False

    def read(self, wait_s: float = 0.0) -> bytes:
        self._check()
        pair = self.pair
        pair.deliver()
        if not pair.to_host and wait_s > 0:
            pair.advance(wait_s, until=lambda: bool(pair.to_host) or not pair.plugged)
        self._check()
        data = bytes(pair.to_host)
        pair.to_host.clear()
        return data

    def write(self, data: bytes) -> None:
        self._check()
        self.pair.to_board += data

    def close(self) -> None:
        self.closed = True

    def _check(self) -> None:
        if self.closed or not self.pair.plugged:
            raise LinkError("the serial link failed: the cable is out")


class PairClock:
    """The host's clock on the pair: the board's virtual time; sleeping runs the board."""

    def __init__(self, pair: BoardPair) -> None:
        self.pair = pair

    def monotonic(self) -> float:
        return self.pair.clock.now_ms() / 1000

    def sleep(self, seconds: float) -> None:
        self.pair.advance(seconds)


class BoardPair:
    def __init__(
        self,
        *,
        start: Game | None = None,
        occupancy: Bitboard | None = None,
        settings: Settings | None = None,
        starting_s: float = 0.0,
    ) -> None:
        """`settings`: the board's game settings (a timed game's control, say);
        `starting_s`: the board's program begins only after this long (the port is there
        at once, as a board's USB port is while it starts): nothing answers meanwhile."""
        self.clock = VirtualClock()
        if occupancy is None:
            occupancy = (start.position if start is not None else Position.standard()).occupied
        self.live = FakeBoard(occupancy, electrical=False)
        self.effects: list[EffectMessage] = []
        self.answered: list[str] = []  # the kinds of the host commands answered, in order
        self.view: BoardView | None = None
        self.plugged = True
        self.to_host = bytearray()
        self.to_board = bytearray()
        self.host_clock = PairClock(self)
        self._watchers: list[Callable[[], None]] = []
        self._last_step_ms = 0
        self.app = App(
            Sensing(self.live, source=self.live),
            self.clock,
            link=HostLink(
                _BoardEnd(self),
                endpoint=lambda session: _HeardEndpoint(session, self.answered.append),
                on_effect=self.effects.append,
            ),
            lights=ViewLights(self._render),
            game=GameSetup(start=start, settings=settings),
        )
        self.starts_at_ms = math.ceil(starting_s * 1000)
        if not self.starts_at_ms:
            self.app.start()

    # ----- the host's side -----

    def open_port(self, url: str) -> HostEnd:
        """The host's opener: the port is there while the cable is in."""
        if not self.plugged:
            raise LinkError(f"no serial port {url}")
        return HostEnd(self)

    def push(self, lines: Iterable[tuple[int, str, str]]) -> int:
        """Move the pieces: `(t_ms, action, what)` lines from now on the board's clock."""
        return push(self.live, self.clock, lines)

    def unplug(self) -> None:
        """Pull the host's cable: its port fails and cannot be opened; the board plays on."""
        self.plugged = False
        self.to_host.clear()
        self.to_board.clear()

    def plug(self) -> None:
        self.plugged = True

    # ----- time -----

    def watch(self, callback: Callable[[], None]) -> None:
        """Call `callback` after every step of the board (a person looking at it)."""
        self._watchers.append(callback)

    def deliver(self) -> None:
        """The host's bytes reach the board now."""
        if self.to_board:
            self._step(self.clock.now_ms())

    def advance(self, seconds: float, until: Callable[[], bool] = lambda: False) -> None:
        """Let `seconds` of board time pass, stepping the board at each moment something
        is due on it; stop early, at such a moment, once `until()` holds."""
        end = self.clock.now_ms() + math.ceil(seconds * 1000)
        while True:
            due = self._next_due()
            if due > end:
                break
            self._step(due)
            if until():
                return
        self.clock.sleep_until(end)

    def run_until(self, done: Callable[[], bool], what: str, limit_s: float = 3600) -> None:
        """Step the board until `done()` holds; fail naming `what` after `limit_s` of board
        time (a bound for a stuck run, in virtual time: nothing real waits)."""
        end_ms = self.clock.now_ms() + limit_s * 1000
        while not done():
            assert self.clock.now_ms() < end_ms, f"{what} never came about"
            self.advance(1.0, until=done)

    def _next_due(self) -> int:
        last = self._last_step_ms
        due = (last // ALIVE_MS + 1) * ALIVE_MS
        board_game = self.app.board_game
        deadline = None if board_game is None else board_game.next_deadline()
        for t in (self.live.next_change_ms(), deadline):
            if t is not None:
                due = min(due, t)
        return max(due, last + 1, self.clock.now_ms())

    def _step(self, t_ms: int) -> None:
        self.clock.sleep_until(t_ms)
        self._last_step_ms = max(self._last_step_ms, t_ms)
        data = bytes(self.to_board)
        self.to_board.clear()
        if self.app.board_game is None:
            if self.clock.now_ms() < self.starts_at_ms:
                return  # still starting: what the host said is lost, as on a real line
            self.app.start()
        self.app.step(self.clock.now_ms(), data)
        for watcher in self._watchers:
            watcher()

    # ----- what the test looks at -----

    def _render(self, view: BoardView, _t_ms: int) -> None:
        self.view = view

    def moves(self) -> list[str]:
        """The board's own game, as UCI moves."""
        return board_moves(self.app)

    def quiet_view(self) -> BoardView | None:
        """The board's view when a person could act on it; else None."""
        return quiet(self.view, self.live.pending)

    def effect_kinds(self) -> list[str]:
        """The kinds of the board's effects so far, in order (`move`, `takeback`, ...)."""
        return [message.effect.kind for message in self.effects]
