"""The board's events: what it decided, one small frozen value per kind, defined once.

The arbiter makes them; every listener takes them as they are: the journal, the lights,
the voice, the simulator, the link, and, read back from the wire, the host and the relay.
`kind` is the `event` name of the link's `effect` message (and of `reedboard replay`'s
JSON Lines).

The link's codec (`reedboard.link.event_codec`) writes an event for the wire and reads
it back, with checks derived from the annotations here: a field's Python type says what
JSON value it is (int: an integer 0..2^53-1, str, bool; `| None`: it may be left out),
and a `Wired` in its `Annotated` says what the plain type does not (a square written by
its name, a set of squares, a move in UCI, a field written under another name, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar, TypeAlias

from reedboard.rules.squares import Bitboard, Square
from reedboard.sensing.selftest import SwitchPlace


@dataclass(frozen=True, slots=True)
class Wired:
    """What a field holds beyond its Python type, for the link: `shape` (one of the
    codec's shapes: square, squares, pairs, uci, fen, result, positive, clock, color,
    place), the wire's `name` where it differs, the object it sits `inside` on the wire,
    and whether the board `added` it around the event (written after the message's
    `game`)."""

    shape: str = ""
    name: str | None = None
    inside: str | None = None
    added: bool = False


SquareField: TypeAlias = Annotated[Square, Wired("square")]
Squares: TypeAlias = Annotated[Bitboard, Wired("squares")]
Uci: TypeAlias = Annotated[str, Wired("uci")]
Result: TypeAlias = Annotated[str, Wired("result")]
# Both players' time left, (White's, Black's) in ms: `{"white_ms": W, "black_ms": B}`.
BothClocks: TypeAlias = Annotated[tuple[int, int] | None, Wired("clock")]


@dataclass(frozen=True, slots=True)
class MoveMade:
    """A move was committed, the `ply`-th of the game."""

    kind: ClassVar[str] = "move"
    t_ms: int
    uci: Uci
    san: str
    fen: str
    ply: Annotated[int, Wired("positive")]
    # A timed game: both players' time left just after the move, (White's, Black's) in ms.
    clock: BothClocks = None


@dataclass(frozen=True, slots=True)
class ClockPressed:
    """A player pressed their side of the clock and their time stopped: both players'
    time left then, in ms."""

    kind: ClassVar[str] = "clock"
    t_ms: int
    white_ms: int
    black_ms: int


@dataclass(frozen=True, slots=True)
class TimeAdded:
    """The arbiter gave `ms` more to a player (White's clock when `white`): the link's
    `clock` event with `added`, both players' time left after it, in ms."""

    kind: ClassVar[str] = "clock"
    t_ms: int
    white: Annotated[bool, Wired("color", name="color", inside="added")]
    ms: Annotated[int, Wired("positive", inside="added")]
    white_ms: int
    black_ms: int


@dataclass(frozen=True, slots=True)
class Touched:
    """A piece was lifted: `piece` as in FEN."""

    kind: ClassVar[str] = "touch"
    t_ms: int
    square: SquareField
    piece: str


@dataclass(frozen=True, slots=True)
class Illegal:
    """Sent as the link's `illegal` event (the lights call what they show a mismatch).
    The board settled in no legal state: pieces must come back to `missing` and leave
    `extra`. `pairs` suggests, for each extra square, the missing square its piece most
    likely came from."""

    kind: ClassVar[str] = "illegal"
    t_ms: int
    missing: Squares
    extra: Squares
    pairs: Annotated[tuple[tuple[Square, Square], ...], Wired("pairs")] = ()


@dataclass(frozen=True, slots=True)
class Restored:
    """The board matches the game again after a mismatch or a violation."""

    kind: ClassVar[str] = "restored"
    t_ms: int


@dataclass(frozen=True, slots=True)
class Violation:
    """Strict mode: a FIDE rule was broken (`rule` like "4.3a"); the move is refused."""

    kind: ClassVar[str] = "violation"
    t_ms: int
    rule: str
    square: SquareField
    message: str


@dataclass(frozen=True, slots=True)
class TakenBack:
    """The last move was put back on the board and undone."""

    kind: ClassVar[str] = "takeback"
    t_ms: int
    uci: Uci
    fen: str


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game began: the pieces were set up, or the host started one. The board adds,
    for the host, whether it is Chess960, its variant and a timed game's control (as
    `@clock` writes it)."""

    kind: ClassVar[str] = "new_game"
    t_ms: int
    fen: Annotated[str, Wired("fen")]
    chess960: Annotated[bool | None, Wired(added=True)] = None
    variant: Annotated[str | None, Wired(added=True)] = None
    time_control: Annotated[str | None, Wired(added=True)] = None


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended: `result` 1-0, 0-1 or 1/2-1/2; `reason` like checkmate."""

    kind: ClassVar[str] = "game_over"
    t_ms: int
    result: Result
    reason: str


@dataclass(frozen=True, slots=True)
class PromotionChosen:
    """The piece the next (or the pending) promotion will make."""

    kind: ClassVar[str] = "promotion"
    t_ms: int
    piece: str


@dataclass(frozen=True, slots=True)
class Offered:
    """The kings set in the centre to tell a result: `offer` 1-0, 0-1 or 1/2-1/2; `state`
    made (the lights pulse the kings), cancelled, or confirmed (the game_over follows)."""

    kind: ClassVar[str] = "offer"
    t_ms: int
    offer: Result
    state: str


@dataclass(frozen=True, slots=True)
class SetupStarted:
    """The board guides the players to set up Chess960 position `number` (after the
    board's gesture or the host's command); `new_game` follows when it stands."""

    kind: ClassVar[str] = "setup"
    t_ms: int
    number: Annotated[int, Wired(name="chess960")]
    fen: str


@dataclass(frozen=True, slots=True)
class SensorFault:
    """A square's switch was found faulty during play (`fault` "chattering") and is left
    out, the board keeping `occupied` for it, or it reads sanely again ("recovered").
    Where it sits on the matrix (`place`: lines and GPIO pins) is added by whoever knows
    the wiring."""

    kind: ClassVar[str] = "sensor"
    t_ms: int
    square: SquareField
    fault: str
    occupied: bool
    place: Annotated[SwitchPlace | None, Wired("place", added=True)] = None


Effect: TypeAlias = (
    MoveMade
    | Touched
    | Illegal
    | Restored
    | Violation
    | TakenBack
    | NewGame
    | GameOver
    | PromotionChosen
    | Offered
    | SetupStarted
    | SensorFault
    | ClockPressed
    | TimeAdded
)
# Every kind, in the order the link tries them for one `event` name (TimeAdded, which
# needs its `added`, before ClockPressed).
EVENT_TYPES: tuple[type[Effect], ...] = (
    MoveMade,
    Touched,
    Illegal,
    Restored,
    Violation,
    TakenBack,
    NewGame,
    GameOver,
    PromotionChosen,
    Offered,
    SetupStarted,
    SensorFault,
    TimeAdded,
    ClockPressed,
)
