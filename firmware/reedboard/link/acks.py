"""The `ack` of a host command (docs/protocol.md): the command carried out, and what was
done, as one small frozen value per kind of outcome (a new game's start, the settings,
a move lit or taken back, ...) rather than one value with a field for every command.
Pure.

An outcome's fields are written in the order of its class, after `type`, `seq` and
`id`, each whatever it holds (a move lit is `null` when the light was cleared); a host
tells the outcome by the fields that came (`Ack.from_wire`), after `board_checks` has
checked each of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

from reedboard.link.frame import Wire


@dataclass(frozen=True, slots=True)
class StateClock:
    """A timed game's clocks as they stand when the state is sent: both players' time
    left, whose runs (None: neither, the game over or a press awaited), the control."""

    white_ms: int
    black_ms: int
    running: str | None  # "white", "black" or None
    time_control: str

    def to_wire(self) -> Wire:
        return {
            "white_ms": self.white_ms,
            "black_ms": self.black_ms,
            "running": self.running,
            "time_control": self.time_control,
        }

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> StateClock:
        return cls(wire["white_ms"], wire["black_ms"], wire.get("running"), wire["time_control"])


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

    uci: str | None


@dataclass(frozen=True, slots=True)
class PromotionSet:
    piece: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A draw or a resignation ended the game."""

    result: str
    reason: str


@dataclass(frozen=True, slots=True)
class Marked:
    """The squares lit for the host, steady and blinking."""

    squares: tuple[str, ...]
    blink: tuple[str, ...]


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
# How a host tells an outcome: the first whose fields all came (SettingsNow, which has a
# `mode` too, before ModeSet; Marked with either of its lists).
_TOLD_BY: tuple[tuple[type[Outcome], tuple[str, ...]], ...] = (
    (SettingsNow, ("mode", "settle_ms", "castle_wait_ms", "knock_wait_ms", "tournament")),
    (GameStarted, ("fen",)),
    (TimeGiven, ("clock",)),
    (GameEnded, ("result", "reason")),
    (MoveNamed, ("uci",)),
    (PromotionSet, ("piece",)),
    (Marked, ("squares",)),
    (Marked, ("blink",)),
    (BrightnessSet, ("percent",)),
    (Said, ("text",)),
    (ModeSet, ("mode",)),
)


def _written(value: object) -> object:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, StateClock):
        return value.to_wire()
    return value


def _read(kind: type[Outcome], wire: Mapping[str, Any]) -> Outcome:
    values: dict[str, Any] = {}
    for spec in dataclasses.fields(kind):
        value = wire.get(spec.name)
        if isinstance(value, dict):
            value = StateClock.from_wire(value)  # a clock, the only object an ack holds
        elif isinstance(value, list) or (value is None and kind is Marked):
            value = tuple(value or ())
        values[spec.name] = value
    return kind(**values)


@dataclass(frozen=True, slots=True)
class Ack:
    """A command carried out, and what was done (`done`)."""

    TYPE: ClassVar[str] = "ack"
    done: Outcome = field(default_factory=Done)
    id: int | None = None
    seq: int = 0

    def to_wire(self) -> Wire:
        wire: Wire = {"type": self.TYPE, "seq": self.seq, "id": self.id}
        for spec in dataclasses.fields(self.done):
            wire[spec.name] = _written(getattr(self.done, spec.name))
        return wire

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Ack:
        for kind, names in _TOLD_BY:
            if all(name in wire for name in names):
                return cls(_read(kind, wire), wire.get("id"), wire["seq"])
        return cls(Done(), wire.get("id"), wire["seq"])
