"""The commands of protocol version 1 (docs/protocol.md) that a host sends the board: one
frozen value per command, read from the wire with every field checked (`from_wire`, the
one place where what a host sends is judged) and written back to it (`to_wire`). Pure.

`Command` is the union the board dispatches on with `match`: a command added here is a
type error in every handler until it is handled there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias, get_args

from reedboard.chess_clock.time_control import parse_time_control
from reedboard.errors import InvalidInputError
from reedboard.hal.sensor_line import MAX_ADDED_MS
from reedboard.link.frame import Wire
from reedboard.link.wire_fields import MAX_ID, MAX_PLY, ProtocolError, WireFields, shown
from reedboard.reader.mode import MODES, Mode
from reedboard.rules.squares import SQUARE_NAMES

__all__ = ["MAX_ID", "MAX_PLY", "ProtocolError"]

PROTOCOL_VERSION = 1

SETTINGS = {"settle_ms": (1, 60_000), "castle_wait_ms": (1, 60_000), "knock_wait_ms": (1, 60_000)}
Variant = Literal["standard", "chess960"]
Piece = Literal["q", "r", "b", "n"]
Color = Literal["white", "black"]
ResyncAnswer = Literal["state", "hello"]
VARIANTS: tuple[Variant, ...] = get_args(Variant)
PIECES: tuple[Piece, ...] = get_args(Piece)
COLORS: tuple[Color, ...] = get_args(Color)
RESYNC_ANSWERS: tuple[ResyncAnswer, ...] = get_args(ResyncAnswer)


def _given(**fields: object) -> Wire:
    """The fields that are not None: for these, absent and null mean the same."""
    return {name: value for name, value in fields.items() if value is not None}


def _wire(kind: str, command_id: int | None, **fields: object) -> Wire:
    """A command as the wire carries it: `type`, `id` when it has one, then its fields."""
    head: Wire = {"type": kind} if command_id is None else {"type": kind, "id": command_id}
    return head | fields


@dataclass(frozen=True, slots=True)
class Hello:
    """The handshake: `protocol` the host speaks (None: not said), `client` its name."""

    TYPE: ClassVar[str] = "hello"
    protocol: int | None = None
    client: str = ""
    id: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> Hello:
        protocol = f.integer("protocol", 0, MAX_PLY, None)
        return cls(protocol, f.text("client", ""), command_id)

    def to_wire(self) -> Wire:
        protocol = {} if self.protocol is None else {"protocol": self.protocol}
        return _wire(self.TYPE, self.id, **protocol, client=self.client)


@dataclass(frozen=True, slots=True)
class Resend:
    """The frames after `after` again (up to `until` - 1 when given)."""

    TYPE: ClassVar[str] = "resend"
    after: int
    session: str = ""
    until: int | None = None
    resync: ResyncAnswer = "state"  # how to answer when the history does not reach back
    id: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> Resend:
        after = f.integer("after", 0, MAX_ID)
        until = f.integer("until", 0, MAX_ID, None)
        if until is not None and until <= after:
            raise f.bad("until", "must be beyond after")
        resync = f.choice("resync", RESYNC_ANSWERS, RESYNC_ANSWERS[0])
        return cls(after, f.text("session", ""), until, resync, command_id)

    def to_wire(self) -> Wire:
        wire = _wire(self.TYPE, self.id, after=self.after, session=self.session)
        wire["resync"] = self.resync
        if self.until is not None:
            wire["until"] = self.until
        return wire


@dataclass(frozen=True, slots=True)
class AskState:
    """The whole state."""

    TYPE: ClassVar[str] = "state"
    id: int | None = None

    @classmethod
    def from_wire(cls, _f: WireFields, command_id: int | None) -> AskState:
        return cls(command_id)

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id)


@dataclass(frozen=True, slots=True)
class AskMoves:
    """A page of the game's moves from ply `start` (the wire's `from`)."""

    TYPE: ClassVar[str] = "moves"
    start: int = 0
    id: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> AskMoves:
        return cls(f.integer("from", 0, MAX_PLY, 0), command_id)

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id) | {"from": self.start}


@dataclass(frozen=True, slots=True)
class StartGame:
    """A new game: standard, a Chess960 start (`number`, None: at random), or `fen`."""

    TYPE: ClassVar[str] = "new_game"
    variant: Variant = "standard"
    number: int | None = None
    fen: str | None = None
    id: int | None = None
    clock: str | None = None  # a time control (5+3, 90/40:30+30): the game is timed

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> StartGame:
        variant = f.choice("variant", VARIANTS, VARIANTS[0])
        number = f.integer("number", 0, 959, None)
        fen = f.fen("fen", chess960=variant == "chess960")
        if number is not None and variant != "chess960":
            raise f.bad("number", "needs variant chess960")
        clock = f.text("clock", None, limit=40)
        if clock is not None:
            try:
                parse_time_control(clock)
            except InvalidInputError as error:
                raise f.bad("clock", f"is not a time control: {error}") from None
        return cls(variant, number, fen, command_id, clock)

    def to_wire(self) -> Wire:
        # Null is not a number: absent means at random. Absent and null are one for fen.
        return _wire(self.TYPE, self.id, variant=self.variant) | _given(
            number=self.number, fen=self.fen, clock=self.clock
        )


@dataclass(frozen=True, slots=True)
class SetMode:
    """Touch-move rules: casual or strict."""

    TYPE: ClassVar[str] = "mode"
    mode: Mode
    id: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> SetMode:
        return cls(f.choice("mode", MODES), command_id)

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id, mode=self.mode)


@dataclass(frozen=True, slots=True)
class ChoosePromotion:
    """The piece for the next promotion."""

    TYPE: ClassVar[str] = "promotion"
    piece: Piece
    id: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> ChoosePromotion:
        return cls(f.choice("piece", PIECES), command_id)

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id, piece=self.piece)


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Undo the last move, or every move after ply `to_ply` (an arbiter reinstating the
    position before an irregularity; nothing to do when the game stands there already).
    `game` (the journal's number), when given, must be the game in progress."""

    TYPE: ClassVar[str] = "takeback"
    id: int | None = None
    to_ply: int | None = None
    game: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> TakeBack:
        to_ply = f.integer("to_ply", 0, MAX_PLY, None)
        return cls(command_id, to_ply, f.integer("game", 0, MAX_ID, None))

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id, **_given(to_ply=self.to_ply, game=self.game))


@dataclass(frozen=True, slots=True)
class AddTime:
    """An arbiter's decision: `ms` more on `color`'s clock, running or not (FIDE 7.5.5's
    two minutes to the opponent of an illegal move; a disturbance or a faulty clock,
    6.10/6.11). `game` (the journal's number), when given, must be the game in progress."""

    TYPE: ClassVar[str] = "clock_add"
    color: Color
    ms: int
    id: int | None = None
    game: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> AddTime:
        color = f.choice("color", COLORS)
        ms = f.integer("ms", 1, MAX_ADDED_MS)
        return cls(color, ms, command_id, f.integer("game", 0, MAX_ID, None))

    def to_wire(self) -> Wire:
        fields = _given(color=self.color, ms=self.ms, game=self.game)
        return _wire(self.TYPE, self.id, **fields)


@dataclass(frozen=True, slots=True)
class ShowMove:
    """Light a move for the player to carry out; None clears it."""

    TYPE: ClassVar[str] = "show"
    uci: str | None = None
    id: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> ShowMove:
        return cls(f.uci("uci"), command_id)

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id, uci=self.uci)


@dataclass(frozen=True, slots=True)
class Mark:
    """Light these squares, steady or blinking (each square once; steady wins)."""

    TYPE: ClassVar[str] = "mark"
    squares: tuple[str, ...] = ()
    blink: tuple[str, ...] = ()
    id: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> Mark:
        squares = f.squares("squares")
        blink = tuple(name for name in f.squares("blink") if name not in squares)
        return cls(squares, blink, command_id)

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id, squares=list(self.squares), blink=list(self.blink))


@dataclass(frozen=True, slots=True)
class SetBrightness:
    """The LEDs at `percent` of the board's own brightness setting."""

    TYPE: ClassVar[str] = "brightness"
    percent: int
    id: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> SetBrightness:
        return cls(f.integer("percent", 0, 100), command_id)

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id, percent=self.percent)


@dataclass(frozen=True, slots=True)
class Draw:
    """A draw by agreement, or claimed."""

    TYPE: ClassVar[str] = "draw"
    agreed: bool = False
    id: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> Draw:
        return cls(f.boolean("agreed", False), command_id)

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id, agreed=self.agreed)


@dataclass(frozen=True, slots=True)
class Resign:
    """A resignation by `color` (None: the side to move)."""

    TYPE: ClassVar[str] = "resign"
    color: Color | None = None
    id: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> Resign:
        return cls(f.optional_choice("color", COLORS), command_id)

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id, **_given(color=self.color))  # absent: side to move


@dataclass(frozen=True, slots=True)
class LedTest:
    """The LED test."""

    TYPE: ClassVar[str] = "led_test"
    id: int | None = None

    @classmethod
    def from_wire(cls, _f: WireFields, command_id: int | None) -> LedTest:
        return cls(command_id)

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id)


@dataclass(frozen=True, slots=True)
class Say:
    """The board's voice says `what`: "position", "last" (the last move), "clock" (both
    players' time left) or a square."""

    TYPE: ClassVar[str] = "say"
    what: str
    id: int | None = None

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> Say:
        what = f.text("what", limit=8)
        if what not in ("position", "last", "clock") and what not in SQUARE_NAMES:
            raise f.bad(
                "what", f"must be position, last, clock or a square such as e4, not {shown(what)}"
            )
        return cls(what, command_id)

    def to_wire(self) -> Wire:
        return _wire(self.TYPE, self.id, what=self.what)


@dataclass(frozen=True, slots=True)
class ChangeSettings:
    """New values for the settings given (None: unchanged)."""

    TYPE: ClassVar[str] = "settings"
    settle_ms: int | None = None
    castle_wait_ms: int | None = None
    knock_wait_ms: int | None = None
    id: int | None = None
    tournament: bool | None = None  # fair play: no assistance on the LEDs, the voice silent

    @classmethod
    def from_wire(cls, f: WireFields, command_id: int | None) -> ChangeSettings:
        values: dict[str, int] = {}
        tournament: bool | None = None
        for name in f.message:
            if name in ("type", "id"):
                continue
            if name == "tournament":
                if f.message[name] is not None:  # null: unchanged, as for the others
                    tournament = f.boolean(name, False)
                continue
            if name not in SETTINGS:
                raise f.bad(name, f"is not a setting ({', '.join([*SETTINGS, 'tournament'])})")
            low, high = SETTINGS[name]
            values[name] = f.integer(name, low, high)
        return cls(
            values.get("settle_ms"),
            values.get("castle_wait_ms"),
            values.get("knock_wait_ms"),
            id=command_id,
            tournament=tournament,
        )

    def to_wire(self) -> Wire:
        given = {
            "settle_ms": self.settle_ms,
            "castle_wait_ms": self.castle_wait_ms,
            "knock_wait_ms": self.knock_wait_ms,
            "tournament": self.tournament,
        }
        return _wire(self.TYPE, self.id, **{k: v for k, v in given.items() if v is not None})


@dataclass(frozen=True, slots=True)
class Resync:
    """Not a host's command: what a `resend` the history cannot serve becomes, answered
    with the whole `state` or a `hello` (`resync: true`) for the host to start from."""

    answer: ResyncAnswer
    id: int | None = None


WireCommand: TypeAlias = (
    Hello
    | Resend
    | AskState
    | AskMoves
    | StartGame
    | SetMode
    | ChoosePromotion
    | TakeBack
    | AddTime
    | ShowMove
    | Mark
    | SetBrightness
    | Draw
    | Resign
    | LedTest
    | ChangeSettings
    | Say
)
Command: TypeAlias = WireCommand | Resync

# Read from the union itself: a command added there is read from the wire at once.
_COMMANDS: tuple[type[WireCommand], ...] = get_args(WireCommand)
_BY_TYPE: dict[str, type[WireCommand]] = {c.TYPE: c for c in _COMMANDS}
# Host -> board.
HOST_TYPES = tuple(_BY_TYPE)


def promotion_piece(letter: str) -> Piece:
    """The piece a promotion letter (a UCI move's fifth) names."""
    for piece in PIECES:
        if piece == letter:
            return piece
    raise InvalidInputError(f"{letter!r} is not a promotion piece (q, r, b, n)")


def command_type(command: Command) -> str:
    """The `type` a command has on the wire; a resync, the type of its answer."""
    return command.answer if isinstance(command, Resync) else command.TYPE


def message_id(message: Mapping[str, Any]) -> int | None:
    """The message's `id` when it is a usable one, for the reply; otherwise None."""
    value = message.get("id")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        return None
    return value


def parse_command(message: Mapping[str, Any]) -> WireCommand:
    """A decoded frame from the host as a command whose every field has been checked, or
    a `ProtocolError` naming the command and the field: the board acts only on values it
    can carry out."""
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(
            "bad_argument", "a message needs a string type", command=None, field="type"
        )
    command = _BY_TYPE.get(kind)
    if command is None:
        raise ProtocolError(
            "unknown_type", f"unknown message type {shown(kind)}", command=kind[:40], field="type"
        )
    fields = WireFields(message, kind)
    if "id" in message and message["id"] is not None and message_id(message) is None:
        raise fields.bad("id", f"must be an integer 0..{MAX_ID}, not {shown(message['id'])}")
    return command.from_wire(fields, message_id(message))
