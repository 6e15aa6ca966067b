"""What the arbiter tells the rest of the board: small frozen values, one per kind.

Each has `kind` (the `event` name of `reedboard replay`'s JSON Lines) and `to_json()`,
which gives the fields that the replay contract fixes, plus a few more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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

    def to_json(self) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "uci": self.uci,
            "san": self.san,
            "fen": self.fen,
            "ply": self.ply,
        }
        if self.clock is not None:
            fields["clock"] = {"white_ms": self.clock[0], "black_ms": self.clock[1]}
        return fields


@dataclass(frozen=True, slots=True)
class ClockPressed:
    """A player pressed their side of the clock and their time stopped: both players'
    time left then, in ms."""

    t_ms: int
    white_ms: int
    black_ms: int
    kind: str = "clock"

    def to_json(self) -> dict[str, Any]:
        return {"white_ms": self.white_ms, "black_ms": self.black_ms}


@dataclass(frozen=True, slots=True)
class Touched:
    """A piece was lifted: `piece` as in FEN."""

    t_ms: int
    square: Square
    piece: str
    kind: str = "touch"

    def to_json(self) -> dict[str, Any]:
        return {"square": SQUARE_NAMES[self.square], "piece": self.piece}


@dataclass(frozen=True, slots=True)
class Mismatch:
    """The board settled in no legal state: pieces must come back to `missing` and leave
    `extra`. `pairs` suggests, for each extra square, the missing square its piece most
    likely came from."""

    t_ms: int
    missing: Bitboard
    extra: Bitboard
    pairs: tuple[tuple[Square, Square], ...] = ()
    kind: str = "illegal"

    def to_json(self) -> dict[str, Any]:
        return {
            "missing": square_names_of(self.missing),
            "extra": square_names_of(self.extra),
            "pairs": [[SQUARE_NAMES[a], SQUARE_NAMES[b]] for a, b in self.pairs],
        }


@dataclass(frozen=True, slots=True)
class Restored:
    """The board matches the game again after a mismatch or a violation."""

    t_ms: int
    kind: str = "restored"

    def to_json(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True, slots=True)
class Violation:
    """Strict mode: a FIDE rule was broken (`rule` like "4.3a"); the move is refused."""

    t_ms: int
    rule: str
    square: Square
    message: str
    kind: str = "violation"

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "square": SQUARE_NAMES[self.square], "message": self.message}


@dataclass(frozen=True, slots=True)
class TakenBack:
    """The last move was put back on the board and undone."""

    t_ms: int
    uci: str
    fen: str
    kind: str = "takeback"

    def to_json(self) -> dict[str, Any]:
        return {"uci": self.uci, "fen": self.fen}


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game began: the pieces were set up, or the host started one."""

    t_ms: int
    fen: str
    kind: str = "new_game"

    def to_json(self) -> dict[str, Any]:
        return {"fen": self.fen}


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended: `result` 1-0, 0-1 or 1/2-1/2; `reason` like checkmate."""

    t_ms: int
    result: str
    reason: str
    kind: str = "game_over"

    def to_json(self) -> dict[str, Any]:
        return {"result": self.result, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class PromotionChosen:
    """The piece the next (or the pending) promotion will make."""

    t_ms: int
    piece: str
    kind: str = "promotion"

    def to_json(self) -> dict[str, Any]:
        return {"piece": self.piece}


@dataclass(frozen=True, slots=True)
class Offered:
    """The kings set in the centre to tell a result: `offer` 1-0, 0-1 or 1/2-1/2; `state`
    made (the lights pulse the kings), cancelled, or confirmed (the game_over follows)."""

    t_ms: int
    offer: str
    state: str
    kind: str = "offer"

    def to_json(self) -> dict[str, Any]:
        return {"offer": self.offer, "state": self.state}


@dataclass(frozen=True, slots=True)
class SetupStarted:
    """The board guides the players to set up Chess960 position `number` (after the
    board's gesture or the host's command); `new_game` follows when it stands."""

    t_ms: int
    number: int
    fen: str
    kind: str = "setup"

    def to_json(self) -> dict[str, Any]:
        return {"chess960": self.number, "fen": self.fen}


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

    def to_json(self) -> dict[str, Any]:
        return {"square": SQUARE_NAMES[self.square], "fault": self.fault, "occupied": self.occupied}


Effect = (
    MoveMade
    | Touched
    | Mismatch
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
)


def effect_json(effect: Effect) -> dict[str, Any]:
    """The effect as one JSON object: `event`, `t_ms`, then its fields."""
    return {"event": effect.kind, "t_ms": effect.t_ms, **effect.to_json()}
