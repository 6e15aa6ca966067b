"""The seams the board's loop (`App`) takes besides the hardware's (`hal/ports.py`): the
link's protocol endpoint, a source of scripted changes, the clock buttons and the lights;
a renderer for a board without LEDs and one that records for tests; the board's identity,
as `hello` tells it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from reedboard import __version__
from reedboard.link.board_messages import Outgoing, Reply
from reedboard.link.messages import Command
from reedboard.reader.view import BoardView

Renderer = Callable[[BoardView, int], None]


class Endpoint(Protocol):
    session: str  # the link's session id: this run of the firmware

    def send(self, message: Outgoing) -> int: ...

    def reply(self, command: Command, message: Reply) -> int: ...

    def alive(self) -> None: ...

    def data_to_send(self) -> bytes: ...

    def receive_data(self, data: bytes) -> list[Command]: ...


class EventSource(Protocol):
    def advance(self, t_ms: int) -> list[str]: ...

    def next_change_ms(self) -> int | None: ...

    @property
    def done(self) -> bool: ...

    @property
    def end_ms(self) -> int: ...


class ButtonsPort(Protocol):
    def presses(self, t_ms: int) -> list[tuple[bool, int]]:
        """The clock presses settled by `t_ms`: (White's?, when) each."""
        ...


def no_lights(view: BoardView, t_ms: int) -> None:
    """The default renderer: a board without LEDs."""


class RecordingLights:
    """A renderer that keeps every view it is given, for tests."""

    def __init__(self) -> None:
        self.views: list[tuple[int, BoardView]] = []
        self.tests: list[int] = []

    def __call__(self, view: BoardView, t_ms: int) -> None:
        self.views.append((t_ms, view))

    def led_test(self, t_ms: int) -> None:
        self.tests.append(t_ms)


@dataclass(frozen=True, slots=True)
class Identity:
    board: str = "reedboard"
    firmware: str = __version__
