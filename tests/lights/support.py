"""Helpers for light tests: real arbiter views from compact square changes."""

from __future__ import annotations

from reedboard.lights.scenes import scene_roles
from reedboard.reader.move_reader import MoveReader
from reedboard.reader.view import BoardView
from reedboard.rules.squares import SQUARE_NAMES
from reedboard.rules.squares import parse_square as sq
from reedboard.sensing.debounce import SquareChange


def bits(*names: str) -> int:
    return sum(1 << sq(n) for n in names)


def play(arbiter: MoveReader, text: str, start_ms: int = 1000, gap_ms: int = 400) -> int:
    """'lift e2, place e4' at `gap_ms` apart; returns the time after the last change."""
    t = start_ms
    for part in text.split(","):
        action, name = part.split()
        arbiter.feed(SquareChange(sq(name), action == "place", t))
        t += gap_ms
    return t


def named(view: BoardView) -> dict[str, str]:
    """The scene of `view` as {square name: role}."""
    return {SQUARE_NAMES[s]: role for s, role in sorted(scene_roles(view).items())}
