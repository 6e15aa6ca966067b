"""The commands of protocol version 1 (docs/protocol.md) that a host sends the board: one
frozen value per command, declared once. The link's codec reads each from its type
(`wire_plan`): `parse_command` reads a command from the wire with every field checked
(`command_codec`, the one place where what a host sends is judged), `to_wire` writes it.
A field's type and its `Arg` say what the wire may hold; a command whose fields must
agree with one another checks them in `checked`. Pure.

`Command` is the union the board dispatches on with `match`: a command added here is a
type error in every handler until it is handled there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any, ClassVar, Literal, TypeAlias, get_args

from reedboard.chess_clock.time_control import parse_time_control
from reedboard.errors import InvalidInputError
from reedboard.hal.sensor_line import MAX_ADDED_MS
from reedboard.link.command_codec import read_command, refused
from reedboard.link.frame import encode_frame
from reedboard.link.wire_fields import MAX_ID, MAX_PLY, ProtocolError, shown
from reedboard.link.wire_plan import Arg, WireValue
from reedboard.reader.mode import Mode
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES

__all__ = ["MAX_ID", "MAX_PLY", "ProtocolError"]

PROTOCOL_VERSION = 1

SETTINGS = {"settle_ms": (1, 60_000), "castle_wait_ms": (1, 60_000), "knock_wait_ms": (1, 60_000)}
Variant = Literal["standard", "chess960"]
Piece = Literal["q", "r", "b", "n"]
Color = Literal["white", "black"]
ResyncAnswer = Literal["state", "hello"]
PIECES: tuple[Piece, ...] = get_args(Piece)


@dataclass(frozen=True, slots=True)
class Hello(WireValue):
    """The handshake: `protocol` the host speaks (None: not said), `client` its name."""

    TYPE: ClassVar[str] = "hello"
    protocol: Annotated[int | None, Arg(high=MAX_PLY)] = None
    client: str = ""
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Resend(WireValue):
    """The frames after `after` again (up to `until` - 1 when given)."""

    TYPE: ClassVar[str] = "resend"
    ORDER: ClassVar[tuple[str, ...]] = ("id", "after", "session", "resync", "until")
    after: int
    session: str = ""
    until: int | None = None
    resync: ResyncAnswer = "state"  # how to answer when the history does not reach back
    id: int | None = None

    def checked(self) -> Resend:
        if self.until is not None and self.until <= self.after:
            raise refused(self.TYPE, "until", "must be beyond after")
        return self


@dataclass(frozen=True, slots=True)
class AskState(WireValue):
    """The whole state."""

    TYPE: ClassVar[str] = "state"
    id: int | None = None


@dataclass(frozen=True, slots=True)
class AskMoves(WireValue):
    """A page of the game's moves from ply `start` (the wire's `from`)."""

    TYPE: ClassVar[str] = "moves"
    start: Annotated[int, Arg(high=MAX_PLY, name="from")] = 0
    id: int | None = None


@dataclass(frozen=True, slots=True)
class StartGame(WireValue):
    """A new game: standard, a Chess960 start (`number`, None: at random), or `fen`.
    Null is not a number: absent means at random. Absent and null are one for fen."""

    TYPE: ClassVar[str] = "new_game"
    variant: Variant = "standard"
    number: Annotated[int | None, Arg(high=959)] = None
    fen: Annotated[str | None, Arg("fen")] = None
    id: int | None = None
    # A time control (5+3, 90/40:30+30): the game is timed.
    clock: Annotated[str | None, Arg(limit=40)] = None

    def checked(self) -> StartGame:
        if self.fen is not None:
            try:
                Position.from_fen(self.fen, chess960=self.variant == "chess960")
            except InvalidInputError as error:
                raise refused(self.TYPE, "fen", f"is not a position: {error}") from None
        if self.number is not None and self.variant != "chess960":
            raise refused(self.TYPE, "number", "needs variant chess960")
        if self.clock is not None:
            try:
                parse_time_control(self.clock)
            except InvalidInputError as error:
                raise refused(self.TYPE, "clock", f"is not a time control: {error}") from None
        return self


@dataclass(frozen=True, slots=True)
class SetMode(WireValue):
    """Touch-move rules: casual or strict."""

    TYPE: ClassVar[str] = "mode"
    mode: Mode
    id: int | None = None


@dataclass(frozen=True, slots=True)
class ChoosePromotion(WireValue):
    """The piece for the next promotion."""

    TYPE: ClassVar[str] = "promotion"
    piece: Piece
    id: int | None = None


@dataclass(frozen=True, slots=True)
class TakeBack(WireValue):
    """Undo the last move, or every move after ply `to_ply` (an arbiter reinstating the
    position before an irregularity; nothing to do when the game stands there already).
    `game` (the journal's number), when given, must be the game in progress."""

    TYPE: ClassVar[str] = "takeback"
    id: int | None = None
    to_ply: Annotated[int | None, Arg(high=MAX_PLY)] = None
    game: int | None = None


@dataclass(frozen=True, slots=True)
class AddTime(WireValue):
    """An arbiter's decision: `ms` more on `color`'s clock, running or not (FIDE 7.5.5's
    two minutes to the opponent of an illegal move; a disturbance or a faulty clock,
    6.10/6.11). `game` (the journal's number), when given, must be the game in progress."""

    TYPE: ClassVar[str] = "clock_add"
    color: Color
    ms: Annotated[int, Arg(low=1, high=MAX_ADDED_MS)]
    id: int | None = None
    game: int | None = None


@dataclass(frozen=True, slots=True)
class ShowMove(WireValue):
    """Light a move for the player to carry out; None (null) clears it."""

    TYPE: ClassVar[str] = "show"
    uci: Annotated[str | None, Arg("uci", always=True)] = None
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Mark(WireValue):
    """Light these squares, steady or blinking (each square once; steady wins)."""

    TYPE: ClassVar[str] = "mark"
    squares: Annotated[tuple[str, ...], Arg("squares")] = ()
    blink: Annotated[tuple[str, ...], Arg("squares")] = ()
    id: int | None = None

    def checked(self) -> Mark:
        blink = tuple(name for name in self.blink if name not in self.squares)
        return self if blink == self.blink else replace(self, blink=blink)


@dataclass(frozen=True, slots=True)
class SetBrightness(WireValue):
    """The LEDs at `percent` of the board's own brightness setting."""

    TYPE: ClassVar[str] = "brightness"
    percent: Annotated[int, Arg(high=100)]
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Draw(WireValue):
    """A draw by agreement, or claimed."""

    TYPE: ClassVar[str] = "draw"
    agreed: bool = False
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Resign(WireValue):
    """A resignation by `color` (None, left out: the side to move)."""

    TYPE: ClassVar[str] = "resign"
    color: Color | None = None
    id: int | None = None


@dataclass(frozen=True, slots=True)
class LedTest(WireValue):
    """The LED test."""

    TYPE: ClassVar[str] = "led_test"
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Say(WireValue):
    """The board's voice says `what`: "position", "last" (the last move), "clock" (both
    players' time left) or a square."""

    TYPE: ClassVar[str] = "say"
    what: Annotated[str, Arg(limit=8)]
    id: int | None = None

    def checked(self) -> Say:
        if self.what not in ("position", "last", "clock") and self.what not in SQUARE_NAMES:
            raise refused(
                self.TYPE,
                "what",
                f"must be position, last, clock or a square such as e4, not {shown(self.what)}",
            )
        return self


def _setting(name: str) -> Arg:
    low, high = SETTINGS[name]
    return Arg(low=low, high=high)


@dataclass(frozen=True, slots=True)
class ChangeSettings(WireValue):
    """New values for the settings given (None, or null for `tournament`: unchanged)."""

    TYPE: ClassVar[str] = "settings"
    OTHERS: ClassVar[str] = "is not a setting"  # a field not named here is refused
    settle_ms: Annotated[int | None, _setting("settle_ms")] = None
    castle_wait_ms: Annotated[int | None, _setting("castle_wait_ms")] = None
    knock_wait_ms: Annotated[int | None, _setting("knock_wait_ms")] = None
    id: int | None = None
    tournament: bool | None = None  # fair play: no assistance on the LEDs, the voice silent


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


def command_frame(command: WireCommand, command_id: int) -> bytes:
    """The frame of `command` under `command_id` (its own `id` is not used), newline
    included: `type`, `id`, then its fields."""
    wire = command.to_wire()
    wire.pop("id", None)
    return encode_frame({"type": wire.pop("type"), "id": command_id} | wire)


def frame_of(command: WireCommand) -> bytes:
    """The frame of `command` as it stands, its own `id` (if any) included, newline
    included: `type`, then its fields in the order of its class."""
    return encode_frame(command.to_wire())


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
    if "id" in message and message["id"] is not None and message_id(message) is None:
        raise refused(kind, "id", f"must be an integer 0..{MAX_ID}, not {shown(message['id'])}")
    return read_command(command, message, message_id(message))
