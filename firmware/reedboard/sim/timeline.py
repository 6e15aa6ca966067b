"""The raw sensor lines a pair of hands produces, with a clock that only moves forward.

`Timeline` is the only writer of lines: every lift checks that the square reads occupied
and every place that it reads empty, so a generated script is consistent by construction.
Real changes may chatter (switch bounce); waypoints and flickers never do, because their
whole life is already as short as a debouncer allows.
"""

from __future__ import annotations

import random

from reedboard.errors import ReedboardError
from reedboard.hal.sensor_line import Action, SensorLine
from reedboard.rules.squares import SQUARE_NAMES, Bitboard, Square
from reedboard.sim.settings import HumanSettings


class SensorError(ReedboardError, AssertionError):
    """The model tried to lift an empty square or place on an occupied one: a bug here."""


class Timeline:
    def __init__(self, occupancy: Bitboard, rng: random.Random, settings: HumanSettings) -> None:
        self.occupied = occupancy
        self.rng = rng
        self.settings = settings
        self.t = 0
        self.lines: list[SensorLine] = []
        self.tags: set[str] = set()  # behaviours shown by the move being generated

    # ----- time -----

    def wait(self, bounds: tuple[int, int]) -> None:
        self.t += self.rng.randint(*bounds)

    def wait_log(self, bounds: tuple[int, int]) -> None:
        """A wait whose logarithm is uniform: most are short, a few long."""
        low, high = bounds
        self.t += round(low * (high / low) ** self.rng.random())

    def chance(self, probability: float) -> bool:
        return probability > 0 and self.rng.random() < probability

    # ----- sensor changes -----

    def is_empty(self, sq: Square) -> bool:
        return not self.occupied >> sq & 1

    def lift(self, sq: Square) -> int:
        """A real lift; returns its time (the first edge, which the debouncer reports)."""
        return self._change(sq, False, bounce=True)

    def place(self, sq: Square) -> int:
        return self._change(sq, True, bounce=True)

    def waypoint(self, sq: Square) -> None:
        """A sliding magnet rests on an empty square for a moment on its way."""
        self._change(sq, True, bounce=False)
        self.wait(self.settings.waypoint_ms)
        self._change(sq, False, bounce=False)
        self.tags.add("slide")

    def flick(self, sq: Square) -> None:
        """A magnet passing close by closes an empty square's switch for 1-5 ms."""
        self._change(sq, True, bounce=False)
        self.wait(self.settings.bounce_ms)
        self._change(sq, False, bounce=False)
        self.tags.add("flicker")

    def choose(self, letter: str) -> None:
        self.lines.append(SensorLine(self.t, "choose", letter))

    def _change(self, sq: Square, occupied: bool, bounce: bool) -> int:
        bit = 1 << sq
        if bool(self.occupied & bit) == occupied:
            state = "occupied" if occupied else "empty"
            raise SensorError(f"{SQUARE_NAMES[sq]} already reads {state} at {self.t} ms")
        start = self.t
        name = SQUARE_NAMES[sq]
        self.lines.append(SensorLine(start, "place" if occupied else "lift", name))
        self.occupied ^= bit
        if bounce and self.chance(self.settings.bounce):
            # One or two extra open/close pairs, all within bounce_ms of the real edge,
            # ending in the new state.
            low, high = self.settings.bounce_ms
            pairs = self.rng.randint(1, 2)
            offsets = sorted(self.rng.sample(range(low, high + 1), 2 * pairs))
            back: Action = "lift" if occupied else "place"
            again: Action = "place" if occupied else "lift"
            for index, offset in enumerate(offsets):
                self.lines.append(
                    SensorLine(start + offset, back if index % 2 == 0 else again, name)
                )
            self.t = start + offsets[-1]
            self.tags.add("bounce")
        return start
