"""The messages of protocol version 1 (docs/protocol.md) that the board sends: one frozen
value per message type, written for the wire by the board (`to_wire`) and read from it by
a host (`read_board_message`), after every field has passed the checks of
`board_checks`. Pure.

A well-framed message with a wrong field (a `game` that is text or `Infinity`, a `ply`
that is not a number, a move that is not UCI) is a board or a line gone wrong, not a
reason for the host to stop: it is read as a numbered stand-in that keeps the sequence
whole (a skipped number would be asked for again and again), and what was wrong comes
with it, for one line in the log.

An effect is written from the arbiter's `Effect` (`EffectMessage`, the board's side) and
read as an `EventMessage` whose event holds what the wire carries, optional fields and
all (the host's side).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeAlias

from reedboard.link.board_checks import board_message_problem, count
from reedboard.link.board_events import WireEvent, event_from_wire, event_to_wire
from reedboard.link.frame import Wire
from reedboard.reader.effects import Effect, effect_json
from reedboard.sensing.selftest import SwitchPlace

REPLY_TYPES = ("ack", "error", "state", "moves", "hello")
# The stand-in for a message that failed its checks; hosts ignore it.
SKIPPED = "skipped"


class Unsent(enum.Enum):
    """A field the message does not carry, where null is a value of its own."""

    UNSENT = "unsent"


UNSENT = Unsent.UNSENT


def _given(**fields: object) -> Wire:
    """The fields that are not None: the ones a message leaves out when it has none."""
    return {name: value for name, value in fields.items() if value is not None}


def _sent(**fields: object) -> Wire:
    return {name: value for name, value in fields.items() if value is not UNSENT}


def _names(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


def _list(names: tuple[str, ...] | None) -> list[str] | None:
    return None if names is None else list(names)


@dataclass(frozen=True, slots=True)
class BoardHello:
    """The board's handshake, sent when it starts and in answer to a host's `hello`
    (`answers`: it then carries the command's `id`) or to a `resend` it could not serve
    (`resync`)."""

    TYPE: ClassVar[str] = "hello"
    session: str
    protocol: int | None = None
    firmware: str | None = None
    board: str | None = None
    variant: str | None = None
    mode: str | None = None
    game: int | None = None
    resync: bool = False
    id: int | None = None
    answers: bool = False
    seq: int = 0

    def to_wire(self) -> Wire:
        wire: Wire = {"type": self.TYPE, "seq": self.seq}
        if self.answers:
            wire["id"] = self.id
        wire |= _given(
            protocol=self.protocol,
            firmware=self.firmware,
            board=self.board,
            session=self.session,
            variant=self.variant,
            mode=self.mode,
            game=self.game,
        )
        if self.resync:
            wire["resync"] = True
        return wire

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> BoardHello:
        return cls(
            wire["session"],
            wire.get("protocol"),
            wire.get("firmware"),
            wire.get("board"),
            wire.get("variant"),
            wire.get("mode"),
            wire.get("game"),
            wire.get("resync") is True,
            wire.get("id"),
            "id" in wire,
            wire["seq"],
        )


@dataclass(frozen=True, slots=True)
class EffectMessage:
    """The board's side of an `effect`: the arbiter's effect, the journal's number of the
    game it belongs to, and what the board adds (a new game's variant, a faulty
    switch's place)."""

    TYPE: ClassVar[str] = "effect"
    effect: Effect
    game: int
    chess960: bool | None = None
    variant: str | None = None
    place: SwitchPlace | None = None
    seq: int = 0
    time_control: str | None = None  # a new timed game's

    def to_wire(self) -> Wire:
        wire: Wire = {"type": self.TYPE, "seq": self.seq, **effect_json(self.effect)}
        wire["game"] = self.game
        wire |= _given(chess960=self.chess960, variant=self.variant, time_control=self.time_control)
        if self.place is not None:
            place = self.place
            wire |= {
                "row": place.row,
                "column": place.column,
                "pins": list(place.pins),
                "where": place.where,
            }
        return wire


@dataclass(frozen=True, slots=True)
class EventMessage:
    """A host's side of an `effect`: the event as the wire carries it."""

    TYPE: ClassVar[str] = "effect"
    event: WireEvent
    game: int | None = None
    t_ms: int | None = None
    seq: int = 0

    def to_wire(self) -> Wire:
        head: Wire = {"type": self.TYPE, "seq": self.seq}
        head |= event_to_wire(self.event)
        return head | _given(t_ms=self.t_ms, game=self.game)

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> EventMessage:
        return cls(event_from_wire(wire), wire.get("game"), wire.get("t_ms"), wire["seq"])


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
class StateMessage:
    """The whole state: the game, the sensors, what the lights show."""

    TYPE: ClassVar[str] = "state"
    chess960: bool
    start_fen: str
    moves: tuple[str, ...]
    variant: str | None = None
    fen: str | None = None
    san: tuple[str, ...] | None = None
    mode: str | None = None
    occupancy: str | None = None
    lifted: tuple[str, ...] | None = None
    missing: tuple[str, ...] | None = None
    extra: tuple[str, ...] | None = None
    hint: tuple[str, str] | None = None
    marked: tuple[str, ...] | None = None
    marked_blink: tuple[str, ...] | None = None
    last_move: tuple[str, str] | None = None
    result: str | None = None
    reason: str | None = None
    game: int | None = None
    resync: bool = False
    clock: StateClock | None = None  # a timed game's clocks (an addition: older hosts ignore it)
    id: int | None = None
    seq: int = 0

    def to_wire(self) -> Wire:
        wire: Wire = {"type": self.TYPE, "seq": self.seq, "id": self.id}
        wire |= _given(variant=self.variant)
        wire |= {"chess960": self.chess960, "start_fen": self.start_fen}
        wire |= _given(fen=self.fen)
        wire["moves"] = list(self.moves)
        wire |= _given(
            san=_list(self.san),
            mode=self.mode,
            occupancy=self.occupancy,
            lifted=_list(self.lifted),
            missing=_list(self.missing),
            extra=_list(self.extra),
        )
        wire["hint"] = _list(self.hint)
        wire |= _given(marked=_list(self.marked), marked_blink=_list(self.marked_blink))
        wire |= {"last_move": _list(self.last_move), "result": self.result}
        wire["reason"] = self.reason
        wire |= _given(clock=None if self.clock is None else self.clock.to_wire())
        return wire | _given(game=self.game) | {"resync": self.resync}

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> StateMessage:
        hint, last = wire.get("hint"), wire.get("last_move")
        return cls(
            chess960=wire["chess960"],
            start_fen=wire["start_fen"],
            moves=tuple(wire["moves"]),
            variant=wire.get("variant"),
            fen=wire.get("fen"),
            san=_names(wire.get("san")),
            mode=wire.get("mode"),
            occupancy=wire.get("occupancy"),
            lifted=_names(wire.get("lifted")),
            missing=_names(wire.get("missing")),
            extra=_names(wire.get("extra")),
            hint=None if hint is None else (hint[0], hint[1]),
            marked=_names(wire.get("marked")),
            marked_blink=_names(wire.get("marked_blink")),
            last_move=None if last is None else (last[0], last[1]),
            result=wire.get("result"),
            reason=wire.get("reason"),
            game=wire.get("game"),
            resync=wire.get("resync") is True,
            clock=None if wire.get("clock") is None else StateClock.from_wire(wire["clock"]),
            id=wire.get("id"),
            seq=wire["seq"],
        )


@dataclass(frozen=True, slots=True)
class MovesPage:
    """A few of the game's moves from ply `start` (the wire's `from`)."""

    TYPE: ClassVar[str] = "moves"
    start: int
    moves: tuple[str, ...]
    plies: int
    digest: str
    start_fen: str | None = None
    chess960: bool | None = None
    result: str | None = None
    reason: str | None = None
    game: int | None = None
    id: int | None = None
    seq: int = 0
    clock: StateClock | None = None  # a timed game's clocks, as in `state` (an addition)

    def to_wire(self) -> Wire:
        wire: Wire = {"type": self.TYPE, "seq": self.seq, "id": self.id, "from": self.start}
        wire |= {"moves": list(self.moves), "plies": self.plies, "digest": self.digest}
        wire |= _given(start_fen=self.start_fen, chess960=self.chess960)
        wire |= _given(clock=None if self.clock is None else self.clock.to_wire())
        return wire | _given(result=self.result, reason=self.reason, game=self.game)

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> MovesPage:
        return cls(
            wire["from"],
            tuple(wire["moves"]),
            wire["plies"],
            wire["digest"],
            wire.get("start_fen"),
            wire.get("chess960"),
            wire.get("result"),
            wire.get("reason"),
            wire.get("game"),
            wire.get("id"),
            wire["seq"],
            None if wire.get("clock") is None else StateClock.from_wire(wire["clock"]),
        )


@dataclass(frozen=True, slots=True)
class Ack:
    """A command carried out, with what was done: each command's ack carries its own few
    fields (a new game's `fen`, the settings, a move shown or taken back, ...)."""

    TYPE: ClassVar[str] = "ack"
    fen: str | None = None
    mode: str | None = None
    settle_ms: int | None = None
    castle_wait_ms: int | None = None
    knock_wait_ms: int | None = None
    uci: str | Unsent | None = UNSENT  # null: the lit move cleared
    piece: str | None = None
    result: str | None = None
    reason: str | None = None
    percent: int | None = None
    squares: tuple[str, ...] | None = None
    blink: tuple[str, ...] | None = None
    text: str | None = None  # what the board's voice said (`say`)
    id: int | None = None
    seq: int = 0
    tournament: bool | None = None  # the settings' fair-play switch
    clock: StateClock | None = None  # the clocks after time was added (`clock_add`)

    def to_wire(self) -> Wire:
        wire: Wire = {"type": self.TYPE, "seq": self.seq, "id": self.id}
        wire |= _given(
            fen=self.fen,
            mode=self.mode,
            settle_ms=self.settle_ms,
            castle_wait_ms=self.castle_wait_ms,
            knock_wait_ms=self.knock_wait_ms,
        )
        wire |= _sent(uci=self.uci)
        wire |= _given(piece=self.piece, result=self.result, reason=self.reason)
        return wire | _given(
            percent=self.percent,
            squares=_list(self.squares),
            blink=_list(self.blink),
            text=self.text,
            tournament=self.tournament,
            clock=None if self.clock is None else self.clock.to_wire(),
        )

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Ack:
        return cls(
            fen=wire.get("fen"),
            mode=wire.get("mode"),
            settle_ms=wire.get("settle_ms"),
            castle_wait_ms=wire.get("castle_wait_ms"),
            knock_wait_ms=wire.get("knock_wait_ms"),
            uci=wire.get("uci", UNSENT),
            piece=wire.get("piece"),
            result=wire.get("result"),
            reason=wire.get("reason"),
            percent=wire.get("percent"),
            squares=_names(wire.get("squares")),
            blink=_names(wire.get("blink")),
            text=wire.get("text"),
            id=wire.get("id"),
            seq=wire["seq"],
            tournament=wire.get("tournament"),
            clock=None if wire.get("clock") is None else StateClock.from_wire(wire["clock"]),
        )


@dataclass(frozen=True, slots=True)
class ErrorReply:
    """A command refused (`code` refused, bad_argument, unknown_type; for a command the
    board could not read also `command` and `field`), or a journal failure (`id` null)."""

    TYPE: ClassVar[str] = "error"
    code: str | None = None
    message: str | None = None
    command: str | Unsent | None = UNSENT
    field: str | Unsent | None = UNSENT
    id: int | None = None
    seq: int = 0

    def to_wire(self) -> Wire:
        wire: Wire = {"type": self.TYPE, "seq": self.seq, "id": self.id}
        wire |= _given(code=self.code, message=self.message)
        return wire | _sent(command=self.command, field=self.field)

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> ErrorReply:
        return cls(
            wire.get("code"),
            wire.get("message"),
            wire.get("command", UNSENT),
            wire.get("field", UNSENT),
            wire.get("id"),
            wire["seq"],
        )


@dataclass(frozen=True, slots=True)
class Alive:
    """The keep-alive: `seq` is the latest number sent (it is not numbered itself)."""

    TYPE: ClassVar[str] = "alive"
    seq: int = 0

    def to_wire(self) -> Wire:
        return {"type": self.TYPE, "seq": self.seq}

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any]) -> Alive:
        return cls(wire["seq"])


@dataclass(frozen=True, slots=True)
class Skipped:
    """The stand-in for a message that failed its checks: it only takes up its number."""

    TYPE: ClassVar[str] = SKIPPED
    seq: int = 0

    def to_wire(self) -> Wire:
        return {"type": self.TYPE, "seq": self.seq}


@dataclass(frozen=True, slots=True)
class OtherMessage:
    """A message of a type this host does not know (the protocol may add some): it takes
    up its number, and nothing reads it."""

    type: str
    seq: int
    fields: Mapping[str, object] = field(default_factory=dict)

    def to_wire(self) -> Wire:
        return {"type": self.type, "seq": self.seq, **self.fields}


class WireMessage(Protocol):
    """Anything the board's endpoint can number and send: its `to_wire` has `type`, then
    `seq` (the endpoint fills it in), then the fields."""

    def to_wire(self) -> Wire: ...


Reply: TypeAlias = BoardHello | StateMessage | MovesPage | Ack | ErrorReply
# What the board sends, as it sends it.
Outgoing: TypeAlias = Reply | EffectMessage | Alive
# What a host reads.
BoardMessage: TypeAlias = (
    BoardHello
    | EventMessage
    | StateMessage
    | MovesPage
    | Ack
    | ErrorReply
    | Alive
    | Skipped
    | OtherMessage
)

_READERS: dict[str, Callable[[Mapping[str, Any]], BoardMessage]] = {
    "hello": BoardHello.from_wire,
    "effect": EventMessage.from_wire,
    "state": StateMessage.from_wire,
    "moves": MovesPage.from_wire,
    "ack": Ack.from_wire,
    "error": ErrorReply.from_wire,
    "alive": Alive.from_wire,
}


def read_board_message(wire: Mapping[str, Any]) -> tuple[BoardMessage | None, str | None]:
    """A decoded board message as a typed value, and what was wrong with it, if anything.

    A good message comes back whole. A bad one with a usable `seq` comes back as a
    stand-in with that `seq`: an `error` reply to its `id` when it was a reply (so the
    command that asked fails at once, in words), otherwise `Skipped`. One whose `seq`
    cannot be placed comes back as None."""
    problem = board_message_problem(wire)
    if problem is None:
        kind = wire["type"]
        read = _READERS.get(kind)
        if read is None:
            others = {k: v for k, v in wire.items() if k not in ("type", "seq")}
            return OtherMessage(kind, wire["seq"], others), None
        return read(wire), None
    seq = wire.get("seq")
    if not isinstance(seq, int) or not count()(seq):
        return None, problem
    reply_id = wire.get("id")
    if wire.get("type") in REPLY_TYPES and count()(reply_id):
        message = f"an unreadable reply ({problem})"
        return ErrorReply("bad_reply", message, id=reply_id, seq=seq), problem
    return Skipped(seq), problem
