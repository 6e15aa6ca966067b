"""The board's effects, as the simulator's Effects panel shows them: in words a chess
player reads ("2... Nc6", "Touched: white knight on g1", "Illegal: put a piece back on
g1, take the piece off g4"), not the link's JSON. Pure: one effect in, one line out.
"""

from __future__ import annotations

from typing import assert_never

from reedboard.events import (
    ClockPressed,
    Effect,
    GameOver,
    Illegal,
    MoveMade,
    NewGame,
    Offered,
    PromotionChosen,
    Restored,
    SensorFault,
    SetupStarted,
    TakenBack,
    TimeAdded,
    Touched,
    Violation,
)
from reedboard.rules.move_numbers import numbered_move
from reedboard.rules.squares import SQUARE_NAMES, square_names_of
from reedboard.simweb.clock_text import clock_text
from reedboard.simweb.words import piece_words, result_words

OFFERS = {"1-0": "White wins", "0-1": "Black wins", "1/2-1/2": "a draw"}


def effect_words(effect: Effect) -> str:
    """One effect in words."""
    match effect:
        case MoveMade():
            return _move(effect)
        case ClockPressed():
            return f"Clock pressed: {clock_words(effect.white_ms, effect.black_ms)}"
        case TimeAdded():
            times = clock_words(effect.white_ms, effect.black_ms)
            return f"{effect.ms // 1000} s added to {'White' if effect.white else 'Black'}: {times}"
        case Touched():
            return f"Touched: {piece_words(effect.piece)} on {SQUARE_NAMES[effect.square]}"
        case Illegal():
            return _illegal(effect)
        case Restored():
            return "Board restored"
        case Violation():
            square = SQUARE_NAMES[effect.square]
            return f"Touch-move (FIDE {effect.rule}) at {square}: {effect.message}"
        case TakenBack():
            return f"Taken back: {effect.uci}"
        case NewGame():
            return _new_game(effect)
        case GameOver():
            return result_words(effect.result, effect.reason)
        case PromotionChosen():
            return f"Next promotion: {piece_words(effect.piece, False)}"
        case Offered():
            return f"Kings in the centre: {OFFERS.get(effect.offer, effect.offer)} ({effect.state})"
        case SetupStarted():
            return f"Setting up Chess960 position {effect.number}"
        case SensorFault():
            return _sensor(effect)
        case _:
            assert_never(effect)


def clock_words(white_ms: int, black_ms: int) -> str:
    """ "White 4:58, Black 5:00"."""
    return f"White {clock_text(white_ms)}, Black {clock_text(black_ms)}"


def _move(e: MoveMade) -> str:
    said = f"{numbered_move(e.san or e.uci, e.ply, e.fen)} ({e.uci})"
    return said if not e.clock else f"{said} · {clock_words(*e.clock)}"


def _illegal(e: Illegal) -> str:
    missing, extra = square_names_of(e.missing), square_names_of(e.extra)
    steps = []
    for stray, home in e.pairs:
        steps.append(f"the piece on {SQUARE_NAMES[stray]} goes back to {SQUARE_NAMES[home]}")
        missing.remove(SQUARE_NAMES[home])
        extra.remove(SQUARE_NAMES[stray])
    steps += [f"put a piece back on {home}" for home in missing]
    steps += [f"take the piece off {stray}" for stray in extra]
    return "Illegal: " + (", ".join(steps) or "the board does not match the game")


def _new_game(e: NewGame) -> str:
    variant = "Chess960" if e.chess960 or e.variant == "chess960" else "standard"
    control = e.time_control
    return f"New game, {variant}" + (f", clock {control}" if control else ", untimed")


def _sensor(e: SensorFault) -> str:
    square, fault = SQUARE_NAMES[e.square], e.fault
    if fault == "recovered":
        return f"Switch {square} reads sanely again"
    kept = "occupied" if e.occupied else "empty"
    return f"Switch {square} {fault.replace('_', ' ')}: left out, taken as {kept}"
