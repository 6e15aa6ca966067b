"""A script a test hands a fake board a part at a time (`reedboard run --script -`), so
that a fault the test places after a board's Nth move comes before its next one however
slow the machine, and the board can play at many times a person's pace without running
past the fault.

Each timed line is written relative to the line before it (`+N`, docs/reference.md): a
part handed over late starts when it is read, and its hands keep their timing."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.sim.human import human_script


@dataclass(frozen=True)
class HeldScript:
    headers: str  # read before the board starts (`@start`, `@mode`, comments), then ""
    parts: tuple[str, ...]  # the timed lines, in the parts the test hands over


def relative(text: str) -> tuple[str, list[str]]:
    """A script's headers, and its timed lines each timed from the one before (`+N`)."""
    headers: list[str] = []
    timed: list[str] = []
    before = 0
    for line in text.splitlines():
        first, _, rest = line.strip().partition(" ")
        if not first.isdigit():
            assert not timed or not line.strip(), f"a header after a timed line: {line!r}"
            if not timed:
                headers.append(line)
            continue
        timed.append(f"+{int(first) - before} {rest.strip()}")
        before = int(first)
    # An empty line ends the headers: the board starts even with no timed line yet.
    return "".join(line + "\n" for line in headers if line.strip()) + "\n", timed


def split_at(text: str, *lines: int) -> HeldScript:
    """`text` in parts cut before each of its timed `lines` (counted from 0)."""
    headers, timed = relative(text)
    cuts = [0, *lines, len(timed)]
    parts = ("".join(line + "\n" for line in timed[a:b]) for a, b in pairwise(cuts))
    return HeldScript(headers, tuple(parts))


def move_by_move(start: Position, game: Game, seed: int) -> HeldScript:
    """The human model's script of `game` from `start`, one part per move (the first
    part is move 1's)."""
    script = human_script(start, game.moves, seed=seed)
    return split_at(script.text(), *script.starts[1:])
