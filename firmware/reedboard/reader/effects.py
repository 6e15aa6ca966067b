"""What the arbiter tells the rest of the board: small frozen values, one per kind.

Each has `kind` (the `event` name of `reedboard replay`'s JSON Lines); `effect_json`
writes one as that JSON object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, assert_never

from reedboard.rules.squares import SQUARE_NAMES, Bitboard, Square, square_names_of


@dataclass(frozen=True, slots=True)
class MoveMade:
    """A move was committed."""

    t_ms: int
    uci: str
    san: str
    fen: str
    ply: int
    kind: str = "move"
    # A timed game: both players' time left just after the move, (White's, Black's) in ms.
    clock: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class ClockPressed:
    """A player pressed their side of the clock and their time stopped: both players'
    time left then, in ms."""

    t_ms: int
    white_ms: int
    black_ms: int
    kind: str = "clock"


@dataclass(frozen=True, slots=True)
class TimeAdded:
    """The arbiter gave `ms` more to a player (White's clock when `white`): the link's
    `clock` event with `added`, both players' time left after it, in ms."""

    t_ms: int
    white: bool
    ms: int
    white_ms: int
    black_ms: int
    kind: str = "clock"


@dataclass(frozen=True, slots=True)
class Touched:
    """A piece was lifted: `piece` as in FEN."""

    t_ms: int
    square: Square
    piece: str
    kind: str = "touch"


@dataclass(frozen=True, slots=True)
class Illegal:
    """Sent as the link's `illegal` event (the lights call what they show a mismatch).
    The board settled in no legal state: pieces must come back to `missing` and leave
    `extra`. `pairs` suggests, for each extra square, the missing square its piece most
    likely came from."""

    t_ms: int
    missing: Bitboard
    extra: Bitboard
    pairs: tuple[tuple[Square, Square], ...] = ()
    kind: str = "illegal"


@dataclass(frozen=True, slots=True)
class Restored:
    """The board matches the game again after a mismatch or a violation."""

    t_ms: int
    kind: str = "restored"


@dataclass(frozen=True, slots=True)
class Violation:
    """Strict mode: a FIDE rule was broken (`rule` like "4.3a"); the move is refused."""

    t_ms: int
    rule: str
    square: Square
    message: str
    kind: str = "violation"


@dataclass(frozen=True, slots=True)
class TakenBack:
    """The last move was put back on the board and undone."""

    t_ms: int
    uci: str
    fen: str
    kind: str = "takeback"


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game began: the pieces were set up, or the host started one."""

    t_ms: int
    fen: str
    kind: str = "new_game"


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended: `result` 1-0, 0-1 or 1/2-1/2; `reason` like checkmate."""

    t_ms: int
    result: str
    reason: str
    kind: str = "game_over"


@dataclass(frozen=True, slots=True)
class PromotionChosen:
    """The piece the next (or the pending) promotion will make."""

    t_ms: int
    piece: str
    kind: str = "promotion"


@dataclass(frozen=True, slots=True)
class Offered:
    """The kings set in the centre to tell a result: `offer` 1-0, 0-1 or 1/2-1/2; `state`
    made (the lights pulse the kings), cancelled, or confirmed (the game_over follows)."""

    t_ms: int
    offer: str
    state: str
    kind: str = "offer"


@dataclass(frozen=True, slots=True)
class SetupStarted:
    """The board guides the players to set up Chess960 position `number` (after the
    board's gesture or the host's command); `new_game` follows when it stands."""

    t_ms: int
    number: int
    fen: str
    kind: str = "setup"


@dataclass(frozen=True, slots=True)
class SensorFault:
    """A square's switch was found faulty during play (`fault` "chattering") and is left
    out, the board keeping `occupied` for it, or it reads sanely again ("recovered").
    Where it sits on the matrix (lines and GPIO pins) is added by whoever knows the
    wiring."""

    t_ms: int
    square: Square
    fault: str
    occupied: bool
    kind: str = "sensor"


Effect = (
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


def effect_json(effect: Effect) -> dict[str, Any]:
    """The effect as one JSON object: `event`, `t_ms`, then its fields (those the replay
    contract fixes, plus a few more). `match` over every kind: an effect added above is a
    type error here until it is written out."""
    return {"event": effect.kind, "t_ms": effect.t_ms, **_fields(effect)}


def _fields(effect: Effect) -> dict[str, object]:
    match effect:
        case MoveMade():
            move = {"uci": effect.uci, "san": effect.san, "fen": effect.fen, "ply": effect.ply}
            if effect.clock is not None:
                move["clock"] = {"white_ms": effect.clock[0], "black_ms": effect.clock[1]}
            return move
        case Touched():
            return {"square": SQUARE_NAMES[effect.square], "piece": effect.piece}
        case Illegal():
            return {
                "missing": square_names_of(effect.missing),
                "extra": square_names_of(effect.extra),
                "pairs": [[SQUARE_NAMES[a], SQUARE_NAMES[b]] for a, b in effect.pairs],
            }
        case Restored():
            return {}
        case Violation():
            square = SQUARE_NAMES[effect.square]
            return {"rule": effect.rule, "square": square, "message": effect.message}
        case TakenBack():
            return {"uci": effect.uci, "fen": effect.fen}
        case NewGame():
            return {"fen": effect.fen}
        case GameOver():
            return {"result": effect.result, "reason": effect.reason}
        case PromotionChosen():
            return {"piece": effect.piece}
        case Offered():
            return {"offer": effect.offer, "state": effect.state}
        case SetupStarted():
            return {"chess960": effect.number, "fen": effect.fen}
        case SensorFault():
            square = SQUARE_NAMES[effect.square]
            return {"square": square, "fault": effect.fault, "occupied": effect.occupied}
        case ClockPressed():
            return {"white_ms": effect.white_ms, "black_ms": effect.black_ms}
        case TimeAdded():
            added = {"color": "white" if effect.white else "black", "ms": effect.ms}
            return {"white_ms": effect.white_ms, "black_ms": effect.black_ms, "added": added}
        case _:
            assert_never(effect)
