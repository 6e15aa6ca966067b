"""The `ack` of a host command (docs/protocol.md): the command carried out, and what was
done, as one small frozen value per kind of outcome (a new game's start, the settings,
a move lit or taken back, ...) rather than one value with a field for every command.
Pure.

An outcome's fields are written in the order of its class, after `type`, `seq` and
`id`, each whatever it holds (a move lit is `null` when the light was cleared); a host
tells the outcome by the fields that came, the outcome of most fields first, after each
has been checked against its type (`reply_codec`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, ClassVar, Literal, TypeAlias

from reedboard.link.wire_plan import Arg, WireValue

Squares: TypeAlias = Annotated[tuple[str, ...], Arg("squares")]


@dataclass(frozen=True, slots=True)
class StateClock(WireValue):
    """A timed game's clocks as they stand when the state is sent: both players' time
    left, whose runs (None: neither, the game over or a press awaited), the control."""

    white_ms: int
    black_ms: int
    running: Annotated[Literal["white", "black"] | None, Arg(always=True)]  # None: neither
    time_control: str


@dataclass(frozen=True, slots=True)
class Done:
    """Carried out, nothing more to tell (the LED test)."""


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A new game stands (or is being set up) from `fen`."""

    fen: str


@dataclass(frozen=True, slots=True)
class SettingsNow:
    """The board's settings after a `settings` command."""

    mode: str
    settle_ms: int
    castle_wait_ms: int
    knock_wait_ms: int
    tournament: bool


@dataclass(frozen=True, slots=True)
class ModeSet:
    mode: str


@dataclass(frozen=True, slots=True)
class MoveNamed:
    """The move a `show` lit (None: the light cleared), or the earliest a `takeback` took
    back (None: nothing to take back)."""

    uci: Annotated[str | None, Arg("uci", always=True)]


@dataclass(frozen=True, slots=True)
class PromotionSet:
    piece: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A draw or a resignation ended the game."""

    result: Annotated[str, Arg("result")]
    reason: str


@dataclass(frozen=True, slots=True)
class Marked:
    """The squares lit for the host, steady and blinking."""

    squares: Squares
    blink: Squares


@dataclass(frozen=True, slots=True)
class TimeGiven:
    """The clocks after the arbiter added time (`clock_add`)."""

    clock: StateClock


@dataclass(frozen=True, slots=True)
class BrightnessSet:
    percent: int


@dataclass(frozen=True, slots=True)
class Said:
    """What the board's voice said (`say`)."""

    text: str


Outcome: TypeAlias = (
    Done
    | GameStarted
    | SettingsNow
    | ModeSet
    | MoveNamed
    | PromotionSet
    | GameEnded
    | Marked
    | TimeGiven
    | BrightnessSet
    | Said
)


@dataclass(frozen=True, slots=True)
class Ack(WireValue):
    """A command carried out, and what was done (`done`, its fields written into the
    message)."""

    TYPE: ClassVar[str] = "ack"
    done: Annotated[Outcome, Arg("outcome")] = field(default_factory=Done)
    id: Annotated[int | None, Arg(always=True)] = None
    seq: int = 0
