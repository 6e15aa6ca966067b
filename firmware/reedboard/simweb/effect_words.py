"""The board's effects, as the simulator's Effects panel shows them: in words a chess
player reads ("2... Nc6", "Touched: white knight on g1", "Illegal: put a piece back on
g1, take the piece off g4"), not the link's JSON. Pure: one effect as the link sends it
in, one line out; an effect this module does not know is still shown, field by field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from reedboard.rules.move_numbers import numbered_move
from reedboard.simweb.words import piece_words, result_words

Effect = Mapping[str, Any]
SHOWN_ELSEWHERE = frozenset({"type", "seq", "event", "t_ms", "game"})
OFFERS = {"1-0": "White wins", "0-1": "Black wins", "1/2-1/2": "a draw"}


def effect_words(effect: Effect) -> str:
    """One effect in words."""
    event = str(effect.get("event"))
    say = SAYINGS.get(event)
    try:
        if say is not None:
            return say(effect)
    except (KeyError, TypeError, ValueError):
        pass  # a field missing or odd: shown as it came, below
    rest = ", ".join(f"{k} {v}" for k, v in effect.items() if k not in SHOWN_ELSEWHERE)
    return f"{event.replace('_', ' ').capitalize()}: {rest}" if rest else event


def clock_words(white_ms: int, black_ms: int) -> str:
    """ "White 4:58.2, Black 5:00.0"."""
    return f"White {_time(white_ms)}, Black {_time(black_ms)}"


def _time(ms: int) -> str:
    tenths = ms // 100
    hours, rest = divmod(tenths, 36_000)
    minutes, tenths = divmod(rest, 600)
    if hours:
        return f"{hours}:{minutes:02d}:{tenths // 10:02d}"
    return f"{minutes}:{tenths // 10:02d}.{tenths % 10}"


def _move(e: Effect) -> str:
    said = f"{numbered_move(e.get('san') or e['uci'], int(e['ply']), e.get('fen'))} ({e['uci']})"
    clock = e.get("clock")
    return said if not clock else f"{said} · {clock_words(clock['white_ms'], clock['black_ms'])}"


def _clock(e: Effect) -> str:
    times = clock_words(e["white_ms"], e["black_ms"])
    added = e.get("added")
    if not added:
        return f"Clock pressed: {times}"
    return f"{added['ms'] // 1000} s added to {added['color'].capitalize()}: {times}"


def _illegal(e: Effect) -> str:
    missing, extra = list(e.get("missing") or ()), list(e.get("extra") or ())
    steps = []
    for stray, home in e.get("pairs") or ():
        steps.append(f"the piece on {stray} goes back to {home}")
        missing.remove(home)
        extra.remove(stray)
    steps += [f"put a piece back on {home}" for home in missing]
    steps += [f"take the piece off {stray}" for stray in extra]
    return "Illegal: " + (", ".join(steps) or "the board does not match the game")


def _new_game(e: Effect) -> str:
    variant = "Chess960" if e.get("chess960") or e.get("variant") == "chess960" else "standard"
    control = e.get("time_control")
    return f"New game, {variant}" + (f", clock {control}" if control else ", untimed")


def _offer(e: Effect) -> str:
    what = OFFERS.get(e["offer"], e["offer"])
    return f"Kings in the centre: {what} ({e['state']})"


def _sensor(e: Effect) -> str:
    square, fault = e["square"], str(e["fault"])
    if fault == "recovered":
        return f"Switch {square} reads sanely again"
    kept = "occupied" if e.get("occupied") else "empty"
    return f"Switch {square} {fault.replace('_', ' ')}: left out, taken as {kept}"


SAYINGS: dict[str, Callable[[Effect], str]] = {
    "move": _move,
    "clock": _clock,
    "touch": lambda e: f"Touched: {piece_words(e['piece'])} on {e['square']}",
    "illegal": _illegal,
    "restored": lambda e: "Board restored",
    "violation": lambda e: f"Touch-move (FIDE {e['rule']}) at {e['square']}: {e['message']}",
    "takeback": lambda e: f"Taken back: {e['uci']}",
    "new_game": _new_game,
    "game_over": lambda e: result_words(e["result"], e["reason"]),
    "promotion": lambda e: f"Next promotion: {piece_words(e['piece'], False)}",
    "offer": _offer,
    "setup": lambda e: f"Setting up Chess960 position {e['chess960']}",
    "sensor": _sensor,
}
