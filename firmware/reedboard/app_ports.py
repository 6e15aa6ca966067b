"""The parts the board's loop (`App`) is assembled from, each a small typed object: what
it senses with (`Sensing`: the switch matrix, its rate and pin map, the clock buttons, a
script of changes), the link to the host and whoever else hears the board (`HostLink`:
its port, the protocol endpoint, the board's identity, its in-process clients, a tap on
the effects, a watch on the board each turn), the lights (`Lights`), the voice (`Voice`),
the game it starts with (`GameSetup`); lights for a board without LEDs and lights that
record for tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from reedboard import __version__
from reedboard.board_game import BoardGame, Settings
from reedboard.config import MatrixConfig
from reedboard.hal.ports import SwitchMatrix
from reedboard.hal.scan_ahead import ScanAhead
from reedboard.hal.sensor_line import PlayersAction
from reedboard.link.board import BoardEndpoint
from reedboard.link.board_messages import EffectMessage, Outgoing, Reply
from reedboard.link.clients import Clients
from reedboard.link.messages import Command
from reedboard.link.port import LinkPort
from reedboard.reader.view import BoardView
from reedboard.rules.game import Game
from reedboard.rules.pieces import Color

if TYPE_CHECKING:
    from reedboard.sensing.selftest import SelfTestReport


class Endpoint(Protocol):
    session: str  # the link's session id: this run of the firmware

    def send(self, message: Outgoing) -> int: ...

    def reply(self, command: Command, message: Reply) -> int: ...

    def alive(self) -> None: ...

    def data_to_send(self) -> bytes: ...

    def receive_data(self, data: bytes) -> list[Command]: ...


class EventSource(Protocol):
    def advance(self, t_ms: int) -> list[PlayersAction]:
        """Apply the script's changes due by `t_ms`; what else its players did."""
        ...

    def next_change_ms(self) -> int | None: ...

    @property
    def done(self) -> bool: ...

    @property
    def end_ms(self) -> int: ...


class ButtonsPort(Protocol):
    def presses(self, t_ms: int) -> list[tuple[bool, int]]:
        """The clock presses settled by `t_ms`: (White's?, when) each."""
        ...


class Lights(Protocol):
    """The board's LEDs as the loop drives them (`LightsRenderer` on a strip)."""

    def render(self, view: BoardView, t_ms: int) -> None:
        """What the arbiter shows, when it may have changed."""
        ...

    def animate(self, t_ms: int) -> None:
        """The other turns: blinking squares blink without a new view."""
        ...

    def dim(self, share: float, t_ms: int) -> None:
        """The host's dimming: this share of the configured brightness."""
        ...

    def led_test(self, t_ms: int) -> None:
        """The LED test the host asks for."""
        ...

    def show_low_time(self, color: Color | None, t_ms: int) -> None:
        """Whose time runs low in a timed game (None: nobody's)."""
        ...

    def fair_play(self, tournament: bool) -> None:
        """Tournament mode switched by the host: no assistance while it is on."""
        ...


class NoLights:
    """A board without LEDs: the lights do nothing (a base for lights that need only
    some of the calls)."""

    def render(self, view: BoardView, t_ms: int) -> None:
        pass

    def animate(self, t_ms: int) -> None:
        pass

    def dim(self, share: float, t_ms: int) -> None:
        pass

    def led_test(self, t_ms: int) -> None:
        pass

    def show_low_time(self, color: Color | None, t_ms: int) -> None:
        pass

    def fair_play(self, tournament: bool) -> None:
        pass


class RecordingLights(NoLights):
    """Lights that keep every view, LED test and dimming they are given, for tests."""

    def __init__(self) -> None:
        self.views: list[tuple[int, BoardView]] = []
        self.tests: list[int] = []
        self.shares: list[float] = []

    def render(self, view: BoardView, t_ms: int) -> None:
        self.views.append((t_ms, view))

    def led_test(self, t_ms: int) -> None:
        self.tests.append(t_ms)

    def dim(self, share: float, t_ms: int) -> None:
        self.shares.append(share)


class ViewLights(NoLights):
    """Lights that hand each view to `seen` and do nothing else (a test's board)."""

    def __init__(self, seen: Callable[[BoardView, int], None]) -> None:
        self.seen = seen

    def render(self, view: BoardView, t_ms: int) -> None:
        self.seen(view, t_ms)


class Voice(Protocol):
    """The board's voice (`speaking.BoardVoice`): it hears the effects as the host does,
    watches the board each turn, tells the self-test's faults and answers questions."""

    def effect(self, message: EffectMessage) -> None: ...

    def watch(self, board_game: BoardGame, now: int) -> None: ...

    def self_test(self, report: SelfTestReport) -> None: ...

    def pending(self) -> bool: ...

    def ask(self, question: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Identity:
    board: str = "reedboard"
    firmware: str = __version__


@dataclass(frozen=True)
class GameSetup:
    """The board's game at start: its `settings` (absent: the defaults), the game it
    starts with when the journal has none in progress (absent: the standard start), and
    the chance it draws on (a Chess960 start; absent: the system's)."""

    settings: Settings | None = None
    start: Game | None = None
    rng: random.Random | None = None


@dataclass(frozen=True)
class Sensing:
    """What the board senses with: the `scanner` (`scan() -> Bitboard`: the GPIO matrix,
    or a fake) read `scan_hz` times a second; `matrix`, its pin map, for the start-up
    self-test and a faulty switch's place (None: no self-test); `buttons`, the clock's
    buttons if any; `ahead`, a `ScanAhead` reading the matrix since the board's first
    moments (what it read is fed to the game first, each reading at its own time);
    `source`, an `EventSource` (a `FakeBoard`, the simulator) whose changes fall due at
    board times, and `guard`, held through each turn of the loop (the simulator's lock:
    its page acts on the board between turns, never in the middle of one)."""

    scanner: SwitchMatrix
    scan_hz: float = 200.0
    matrix: MatrixConfig | None = None
    buttons: ButtonsPort | None = None
    ahead: ScanAhead | None = None
    source: EventSource | None = None
    guard: AbstractContextManager[object] | None = None


@dataclass(frozen=True)
class HostLink:
    """The link to the host: its `port` (None: opened by the loop with `reopen`, and
    `reopen` again after it fails, a host unplugged and plugged back); the protocol
    `endpoint` made from the session id (the board's own, or an emulation such as DGT's);
    this run's `session_id`; the board's `identity`, as `hello` tells it; `clients`: the
    in-process clients told what the host is told and heard as it is (`link.clients`);
    `on_effect`, told each effect as the host is, once the journal has it (the printed
    JSON Lines, a test's record); `watch(board_game, t_ms)`, called once a turn after the
    scan and the commands, for an endpoint or a client that reports what the board is
    rather than its effects (an emulation, a phone, the engine)."""

    port: LinkPort | None = None
    reopen: Callable[[], LinkPort] | None = None
    endpoint: Callable[[str], Endpoint] = BoardEndpoint
    session_id: str = "0"
    identity: Identity = field(default_factory=Identity)
    clients: Clients | None = None
    on_effect: Callable[[EffectMessage], None] | None = None
    watch: Callable[[BoardGame, int], None] | None = None
