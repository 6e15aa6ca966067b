"""The events of the board's `effect` messages as a host reads them (docs/protocol.md):
one frozen value per event, holding what the wire carries (squares by name, the fields
the protocol lets a board leave out as None). Pure; `board_checks` has vouched for every
field before these are made.

More events may be added to the protocol: an event this host does not know (or one it
only shows, such as `sensor`) is an `OtherEvent` with its fields as they came.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

from reedboard.link.frame import Wire


def _given(**fields: object) -> Wire:
    return {name: value for name, value in fields.items() if value is not None}


def _names(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


def _list(names: tuple[str, ...] | None) -> list[str] | None:
    return None if names is None else list(names)


@dataclass(frozen=True, slots=True)
class MoveEvent:
    """A move was committed, the `ply`-th of the game."""

    EVENT: ClassVar[str] = "move"
    uci: str
    ply: int
    san: str | None = None
    fen: str | None = None
    clock: tuple[int, int] | None = None  # a timed game: (White's, Black's) ms left after it

    def fields(self) -> Wire:
        wire: Wire = {"uci": self.uci} | _given(san=self.san, fen=self.fen) | {"ply": self.ply}
        if self.clock is not None:
            wire["clock"] = {"white_ms": self.clock[0], "black_ms": self.clock[1]}
        return wire

    @classmethod
    def read(cls, wire: Mapping[str, Any]) -> MoveEvent:
        clock = wire.get("clock")
        times = None if clock is None else (clock["white_ms"], clock["black_ms"])
        return cls(wire["uci"], wire["ply"], wire.get("san"), wire.get("fen"), times)


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """A player pressed their clock and their time stopped, or (`added`: the colour and
    the ms) the arbiter gave a player more time: both players' ms left after it."""

    EVENT: ClassVar[str] = "clock"
    white_ms: int
    black_ms: int
    added: tuple[str, int] | None = None

    def fields(self) -> Wire:
        wire: Wire = {"white_ms": self.white_ms, "black_ms": self.black_ms}
        if self.added is not None:
            wire["added"] = {"color": self.added[0], "ms": self.added[1]}
        return wire

    @classmethod
    def read(cls, wire: Mapping[str, Any]) -> ClockEvent:
        added = wire.get("added")
        given = None if added is None else (str(added["color"]), int(added["ms"]))
        return cls(wire["white_ms"], wire["black_ms"], given)


@dataclass(frozen=True, slots=True)
class TouchEvent:
    """A piece was lifted: `piece` as in FEN."""

    EVENT: ClassVar[str] = "touch"
    square: str | None = None
    piece: str | None = None

    def fields(self) -> Wire:
        return _given(square=self.square, piece=self.piece)

    @classmethod
    def read(cls, wire: Mapping[str, Any]) -> TouchEvent:
        return cls(wire.get("square"), wire.get("piece"))


@dataclass(frozen=True, slots=True)
class IllegalEvent:
    """The board settled in no legal state: pieces must come back to `missing` and leave
    `extra`; `pairs` suggests where each extra piece came from."""

    EVENT: ClassVar[str] = "illegal"
    missing: tuple[str, ...] | None = None
    extra: tuple[str, ...] | None = None
    pairs: tuple[object, ...] | None = None

    def fields(self) -> Wire:
        pairs = None if self.pairs is None else list(self.pairs)
        return _given(missing=_list(self.missing), extra=_list(self.extra), pairs=pairs)

    @classmethod
    def read(cls, wire: Mapping[str, Any]) -> IllegalEvent:
        pairs = wire.get("pairs")
        return cls(
            _names(wire.get("missing")),
            _names(wire.get("extra")),
            None if pairs is None else tuple(pairs),
        )


@dataclass(frozen=True, slots=True)
class RestoredEvent:
    """The board matches the game again."""

    EVENT: ClassVar[str] = "restored"

    def fields(self) -> Wire:
        return {}

    @classmethod
    def read(cls, _wire: Mapping[str, Any]) -> RestoredEvent:
        return cls()


@dataclass(frozen=True, slots=True)
class ViolationEvent:
    """Strict mode: a FIDE rule was broken (`rule` like 4.3a) at `square`."""

    EVENT: ClassVar[str] = "violation"
    rule: str | None = None
    square: str | None = None
    message: str | None = None

    def fields(self) -> Wire:
        return _given(rule=self.rule, square=self.square, message=self.message)

    @classmethod
    def read(cls, wire: Mapping[str, Any]) -> ViolationEvent:
        return cls(wire.get("rule"), wire.get("square"), wire.get("message"))


@dataclass(frozen=True, slots=True)
class TakebackEvent:
    """The last move was taken back."""

    EVENT: ClassVar[str] = "takeback"
    uci: str | None = None
    fen: str | None = None

    def fields(self) -> Wire:
        return _given(uci=self.uci, fen=self.fen)

    @classmethod
    def read(cls, wire: Mapping[str, Any]) -> TakebackEvent:
        return cls(wire.get("uci"), wire.get("fen"))


@dataclass(frozen=True, slots=True)
class NewGameEvent:
    """A new game began from `fen`."""

    EVENT: ClassVar[str] = "new_game"
    fen: str
    chess960: bool | None = None
    variant: str | None = None
    time_control: str | None = None  # a timed game's, as `@clock` writes it

    def fields(self) -> Wire:
        return {"fen": self.fen} | _given(
            chess960=self.chess960, variant=self.variant, time_control=self.time_control
        )

    @classmethod
    def read(cls, wire: Mapping[str, Any]) -> NewGameEvent:
        return cls(wire["fen"], wire.get("chess960"), wire.get("variant"), wire.get("time_control"))


@dataclass(frozen=True, slots=True)
class GameOverEvent:
    """The game ended: `result` 1-0, 0-1 or 1/2-1/2; `reason` like checkmate."""

    EVENT: ClassVar[str] = "game_over"
    result: str
    reason: str

    def fields(self) -> Wire:
        return {"result": self.result, "reason": self.reason}

    @classmethod
    def read(cls, wire: Mapping[str, Any]) -> GameOverEvent:
        return cls(wire["result"], wire["reason"])


@dataclass(frozen=True, slots=True)
class PromotionEvent:
    """The piece the next promotion will make."""

    EVENT: ClassVar[str] = "promotion"
    piece: str | None = None

    def fields(self) -> Wire:
        return _given(piece=self.piece)

    @classmethod
    def read(cls, wire: Mapping[str, Any]) -> PromotionEvent:
        return cls(wire.get("piece"))


@dataclass(frozen=True, slots=True)
class OtherEvent:
    """An event this host does not read field by field: `sensor`, `offer`, `setup`, and
    those a later board may add."""

    event: str
    values: Mapping[str, object] = field(default_factory=dict)

    def fields(self) -> Wire:
        return dict(self.values)

    def get(self, name: str) -> object:
        return self.values.get(name)


WireEvent: TypeAlias = (
    MoveEvent
    | TouchEvent
    | IllegalEvent
    | RestoredEvent
    | ViolationEvent
    | TakebackEvent
    | NewGameEvent
    | GameOverEvent
    | PromotionEvent
    | ClockEvent
    | OtherEvent
)
_KNOWN = (
    MoveEvent,
    TouchEvent,
    IllegalEvent,
    RestoredEvent,
    ViolationEvent,
    TakebackEvent,
    NewGameEvent,
    GameOverEvent,
    PromotionEvent,
    ClockEvent,
)
_READERS = {known.EVENT: known.read for known in _KNOWN}
# The fields of the message around the event's own.
_MESSAGE_FIELDS = ("type", "seq", "event", "t_ms", "game")


def event_name(event: WireEvent) -> str:
    return event.event if isinstance(event, OtherEvent) else event.EVENT


def event_to_wire(event: WireEvent) -> Wire:
    """`event` and the event's fields, as an effect message carries them."""
    return {"event": event_name(event), **event.fields()}


def event_from_wire(wire: Mapping[str, Any]) -> WireEvent:
    """The event of a checked effect message."""
    name = wire["event"]
    read = _READERS.get(name)
    if read is not None:
        return read(wire)
    return OtherEvent(name, {k: v for k, v in wire.items() if k not in _MESSAGE_FIELDS})
