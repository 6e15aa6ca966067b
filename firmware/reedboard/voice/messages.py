"""Effects back from their JSON form (`effect_json`, the link's `effect` message), so the
board's loop, the host and the simulator's page all say the same sentences.

A message that is not a whole effect gives None: the voice then says nothing of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reedboard.arbiter.effects import (
    ClockPressed,
    Effect,
    GameOver,
    Mismatch,
    MoveMade,
    NewGame,
    Offered,
    PromotionChosen,
    Restored,
    SensorFault,
    SetupStarted,
    TakenBack,
    Touched,
    Violation,
)
from reedboard.errors import InvalidInputError
from reedboard.rules.squares import Bitboard, parse_square


def effect_of(message: Mapping[str, Any]) -> Effect | None:
    try:
        return _effect(message)
    except (KeyError, TypeError, ValueError, InvalidInputError):
        return None


def _squares(names: Any) -> Bitboard:
    board = 0
    for name in names:
        board |= 1 << parse_square(name)
    return board


def _effect(m: Mapping[str, Any]) -> Effect | None:
    t = int(m.get("t_ms", 0))
    match m.get("event"):
        case "move":
            clock = m.get("clock")
            return MoveMade(
                t,
                str(m["uci"]),
                str(m.get("san", "")),
                str(m["fen"]),
                int(m.get("ply", 0)),
                clock=None if clock is None else (int(clock["white_ms"]), int(clock["black_ms"])),
            )
        case "touch":
            return Touched(t, parse_square(m["square"]), str(m["piece"]))
        case "illegal":
            pairs = tuple((parse_square(a), parse_square(b)) for a, b in m.get("pairs", ()))
            return Mismatch(t, _squares(m["missing"]), _squares(m["extra"]), pairs)
        case "restored":
            return Restored(t)
        case "violation":
            return Violation(
                t, str(m["rule"]), parse_square(m["square"]), str(m.get("message", ""))
            )
        case "takeback":
            return TakenBack(t, str(m["uci"]), str(m["fen"]))
        case "new_game":
            return NewGame(t, str(m["fen"]))
        case "game_over":
            return GameOver(t, str(m["result"]), str(m["reason"]))
        case "promotion":
            return PromotionChosen(t, str(m["piece"]))
        case "offer":
            return Offered(t, str(m["offer"]), str(m["state"]))
        case "setup":
            return SetupStarted(t, int(m["chess960"]), str(m["fen"]))
        case "sensor":
            return SensorFault(t, parse_square(m["square"]), str(m["fault"]), bool(m["occupied"]))
        case "clock":
            return ClockPressed(t, int(m["white_ms"]), int(m["black_ms"]))
    return None
