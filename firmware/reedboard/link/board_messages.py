"""The messages of protocol version 1 (docs/protocol.md) that the board sends: one frozen
value per message type, declared once. The link's codec reads each from its type
(`wire_plan`): the board writes a message with `to_wire`, a host reads it back with
`read_board_message`, every field checked against its type (`reply_codec`). Pure.

A well-framed message with a wrong field (a `game` that is text or `Infinity`, a `ply`
that is not a number, a move that is not UCI) is a board or a line gone wrong, not a
reason for the host to stop: it is read as a numbered stand-in that keeps the sequence
whole (a skipped number would be asked for again and again), and what was wrong comes
with it, for one line in the log.

An effect is the board's event itself (`reedboard.events`), on both sides: the event
codec (`event_codec`) writes it and reads it back.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Protocol, TypeAlias

from reedboard.events import Effect
from reedboard.link.acks import Ack as Ack
from reedboard.link.acks import StateClock as StateClock
from reedboard.link.event_codec import effect_wire, read_effect
from reedboard.link.frame import Wire, decode_line, encode_frame
from reedboard.link.reply_codec import count, read_reply
from reedboard.link.wire_fields import shown
from reedboard.link.wire_plan import Arg, WireValue, plan_of

REPLY_TYPES = ("ack", "error", "state", "moves", "hello")
# The stand-in for a message that failed its checks; hosts ignore it.
SKIPPED = "skipped"


class Unsent(enum.Enum):
    """A field the message does not carry, where null is a value of its own."""

    UNSENT = "unsent"


UNSENT = Unsent.UNSENT
# Names of squares, and moves in UCI, as lists on the wire.
Names: TypeAlias = Annotated[tuple[str, ...], Arg("squares")]
Moves: TypeAlias = Annotated[tuple[str, ...], Arg("uci")]
Pair: TypeAlias = Annotated[tuple[str, str] | None, Arg("squares", always=True)]
Id: TypeAlias = Annotated[int | None, Arg(always=True)]  # null: a message nobody asked for


@dataclass(frozen=True, slots=True)
class BoardHello(WireValue):
    """The board's handshake, sent when it starts and in answer to a host's `hello`
    (`answers`: it then carries the command's `id`) or to a `resend` it could not serve
    (`resync`)."""

    TYPE: ClassVar[str] = "hello"
    ORDER: ClassVar[tuple[str, ...]] = (
        "seq", "id", "answers", "protocol", "firmware", "board", "session", "variant",
        "mode", "game", "resync",
    )  # fmt: skip
    session: str
    protocol: int | None = None
    firmware: str | None = None
    board: str | None = None
    variant: str | None = None
    mode: str | None = None
    game: int | None = None
    resync: Annotated[bool, Arg(omit=False)] = False  # written only when true
    id: Annotated[int | None, Arg(always=True, when="answers")] = None
    answers: Annotated[bool, Arg(when="id")] = False  # on the wire: whether `id` is there
    seq: int = 0


@dataclass(frozen=True, slots=True)
class EffectMessage:
    """An `effect`: one of the board's events, in the journal's game `game`. The board
    sends it as the arbiter made it (with what the board adds: a new game's variant, a
    faulty switch's place); a host reads back the same value."""

    TYPE: ClassVar[str] = "effect"
    effect: Effect
    game: int
    seq: int = 0

    def to_wire(self) -> Wire:
        return effect_wire(self.effect, self.game, self.seq)


@dataclass(frozen=True, slots=True)
class StateMessage(WireValue):
    """The whole state: the game, the sensors, what the lights show."""

    TYPE: ClassVar[str] = "state"
    ORDER: ClassVar[tuple[str, ...]] = (
        "seq", "id", "variant", "chess960", "start_fen", "fen", "moves", "san", "mode",
        "occupancy", "lifted", "missing", "extra", "hint", "marked", "marked_blink",
        "last_move", "result", "reason", "clock", "game", "resync",
    )  # fmt: skip
    chess960: bool
    start_fen: Annotated[str, Arg("fen")]
    moves: Moves
    variant: str | None = None
    fen: str | None = None
    san: tuple[str, ...] | None = None
    mode: str | None = None
    occupancy: Annotated[str | None, Arg("hex16")] = None
    lifted: Names | None = None
    missing: Names | None = None
    extra: Names | None = None
    hint: Pair = None
    marked: Names | None = None
    marked_blink: Names | None = None
    last_move: Pair = None
    result: Annotated[str | None, Arg("result", always=True)] = None
    reason: Annotated[str | None, Arg(always=True)] = None
    game: int | None = None
    resync: bool = False
    clock: StateClock | None = None  # a timed game's clocks (an addition: older hosts ignore it)
    id: Id = None
    seq: int = 0


@dataclass(frozen=True, slots=True)
class MovesPage(WireValue):
    """A few of the game's moves from ply `start` (the wire's `from`)."""

    TYPE: ClassVar[str] = "moves"
    ORDER: ClassVar[tuple[str, ...]] = (
        "seq", "id", "start", "moves", "plies", "digest", "start_fen", "chess960", "clock",
        "result", "reason", "game",
    )  # fmt: skip
    start: Annotated[int, Arg(name="from")]
    moves: Moves
    plies: int
    digest: Annotated[str, Arg("hex8")]
    start_fen: Annotated[str | None, Arg("fen")] = None
    chess960: bool | None = None
    result: Annotated[str | None, Arg("result")] = None
    reason: str | None = None
    game: int | None = None
    id: Id = None
    seq: int = 0
    clock: StateClock | None = None  # a timed game's clocks, as in `state` (an addition)


@dataclass(frozen=True, slots=True)
class ErrorReply(WireValue):
    """A command refused (`code` refused, bad_argument, unknown_type; for a command the
    board could not read also `command` and `field`), or a journal failure (`id` null)."""

    TYPE: ClassVar[str] = "error"
    code: str | None = None
    message: str | None = None
    command: Annotated[str | Unsent | None, Arg(omit=UNSENT)] = UNSENT
    field: Annotated[str | Unsent | None, Arg(omit=UNSENT)] = UNSENT
    id: Id = None
    seq: int = 0


@dataclass(frozen=True, slots=True)
class CentralMessage(WireValue):
    """Who controls the board over Bluetooth (a phone's app), sent when that changes (and
    every 15 s while a phone does): `connected`, and then its `protocol` (cpp, chesslink;
    null until it writes), `name` and `address`; with the central's clocks in ms when it
    tells them (CPP's `time`), and a match's `score` ("1.5 2.5", White's then Black's).
    An addition: older hosts ignore it."""

    TYPE: ClassVar[str] = "central"
    ORDER: ClassVar[tuple[str, ...]] = (
        "seq", "connected", "protocol", "name", "address", "white_ms", "black_ms", "score",
    )  # fmt: skip
    connected: bool
    protocol: Annotated[str | None, Arg(limit=20)] = None
    name: Annotated[str | None, Arg(limit=64)] = None
    address: Annotated[str | None, Arg(limit=20)] = None
    white_ms: int | None = None
    black_ms: int | None = None
    score: Annotated[str | None, Arg(limit=20)] = None
    seq: int = 0


@dataclass(frozen=True, slots=True)
class Alive(WireValue):
    """The keep-alive: `seq` is the latest number sent (it is not numbered itself), and
    `session` the session it belongs to (left out by boards before it was added)."""

    TYPE: ClassVar[str] = "alive"
    seq: int = 0
    session: str | None = None


@dataclass(frozen=True, slots=True)
class Skipped(WireValue):
    """The stand-in for a message that failed its checks: it only takes up its number."""

    TYPE: ClassVar[str] = SKIPPED
    seq: int = 0


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


def numbered_frame(message: WireMessage, seq: int) -> bytes:
    """The frame of `message` numbered `seq`, newline included: the number goes in the
    place its `to_wire` keeps for it, after `type`."""
    wire = message.to_wire()
    wire["seq"] = seq
    return encode_frame(wire)


def shown_json(message: WireMessage) -> dict[str, object]:
    """A message as the link writes it, for showing it as such (on a page, in a log): its
    fields are read only after a check of their type."""
    return message.to_wire()


def named_frame(frame: bytes, wire: Wire, board: str) -> bytes:
    """A frame as it came (without its newline) and its message, passed on for a board
    known as `board`: a `hello` is written anew naming it, every other field kept as it
    came (a newer board's additions too); any other frame goes as it came."""
    if wire.get("type") != "hello":
        return frame
    return encode_frame({**wire, "board": board})[:-1]


def reply_fields(message: WireMessage) -> tuple[str, dict[str, object]]:
    """A message's type, and its fields as the link writes them but for the endpoint's
    `seq` and `id`: a reply shown to a person or a page, field for field."""
    wire = message.to_wire()
    kind: str = wire.pop("type")
    return kind, {k: v for k, v in wire.items() if k not in ("seq", "id")}


Reply: TypeAlias = BoardHello | StateMessage | MovesPage | Ack | ErrorReply
# What the board sends, as it sends it.
Outgoing: TypeAlias = Reply | EffectMessage | CentralMessage | Alive
# What a host reads.
BoardMessage: TypeAlias = (
    BoardHello
    | EffectMessage
    | StateMessage
    | MovesPage
    | Ack
    | ErrorReply
    | CentralMessage
    | Alive
    | Skipped
    | OtherMessage
)

# The replies and the keep-alive, by type: read from their classes.
_READABLE: dict[str, type[Reply | CentralMessage | Alive]] = {
    cls.TYPE: cls
    for cls in (BoardHello, StateMessage, MovesPage, Ack, ErrorReply, CentralMessage, Alive)
}


_COUNT = count()


def _name(wire: Mapping[str, Any], kind: str) -> str:
    """How a problem names the message: its type, an effect by its event."""
    return kind if kind != "effect" else f"{wire.get('event')!s:.20} effect"


def _problem_and_read(wire: Mapping[str, Any]) -> tuple[BoardMessage | None, str | None]:
    """The message, or what is wrong with it; None and None: a type this host does not
    know (the protocol adds them), read as `OtherMessage`."""
    kind = wire.get("type")
    if not isinstance(kind, str):
        return None, "a message without a type"
    seq = wire.get("seq")
    if not _COUNT(seq):
        return None, f"{_name(wire, kind):.40}: seq must be {_COUNT.__doc__}, not {shown(seq)}"
    if kind == "effect":
        # What an effect has around its event, before the event codec reads the event.
        event, game = wire.get("event"), wire.get("game")
        if not isinstance(event, str) or not _COUNT(game):
            field_name = "game" if isinstance(event, str) else "event"
            said = _COUNT.__doc__ if field_name == "game" else "a string"
            name = _name(wire, kind)
            if field_name not in wire:
                return None, f"{name}: {field_name} is missing"
            return None, f"{name}: {field_name} must be {said}, not {shown(wire[field_name])}"
        effect, problem = read_effect(wire)
        if effect is None:
            return None, problem
        return EffectMessage(effect, wire["game"], wire["seq"]), None
    cls = _READABLE.get(kind)
    if cls is None:
        return None, None
    message, problem = read_reply(plan_of(cls), wire, kind)
    return message, problem


def read_board_message(wire: Mapping[str, Any]) -> tuple[BoardMessage | None, str | None]:
    """A decoded board message as a typed value, and what was wrong with it, if anything.

    A good message comes back whole. A bad one with a usable `seq` comes back as a
    stand-in with that `seq`: an `error` reply to its `id` when it was a reply (so the
    command that asked fails at once, in words), otherwise `Skipped`. One whose `seq`
    cannot be placed comes back as None."""
    message, problem = _problem_and_read(wire)
    if message is not None:
        return message, None
    if problem is None:  # a type this host does not know: it takes up its number
        others = {k: v for k, v in wire.items() if k not in ("type", "seq")}
        return OtherMessage(wire["type"], wire["seq"], others), None
    seq = wire.get("seq")
    if not isinstance(seq, int) or not _COUNT(seq):
        return None, problem
    reply_id = wire.get("id")
    if wire.get("type") in REPLY_TYPES and _COUNT(reply_id):
        said = f"an unreadable reply ({problem})"
        return ErrorReply("bad_reply", said, id=reply_id, seq=seq), problem
    return Skipped(seq), problem


def read_board_line(line: bytes) -> tuple[BoardMessage | None, str | None]:
    """The board message in one frame's line (without its newline), as
    `read_board_message` reads it; None and "not a good frame" when the line is none
    (`frame.decode_line`)."""
    wire = decode_line(line)
    if wire is None:
        return None, "not a good frame"
    return read_board_message(wire)


def message_text(message: WireMessage) -> str:
    """A message as one line of JSON, its frame without the CRC: what a relay keeps of it
    (`read_message_text` reads it back)."""
    return json.dumps(message.to_wire(), separators=(",", ":"))


def read_message_text(text: str) -> BoardMessage | None:
    """A message kept as `message_text` wrote it (or as a relay wrote its frames' JSON
    before it held them typed) read back, or None when the text holds none."""
    try:
        wire = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(wire, dict) or not isinstance(wire.get("type"), str):
        return None
    return read_board_message(wire)[0]
