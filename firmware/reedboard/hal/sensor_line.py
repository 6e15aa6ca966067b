"""A sensor line: one change of one square's switch at a board time (`lift`, `place`), the
promotion piece a player chose at a time (`choose`), or a player's press of their clock
button (`press`), as the board's sensors, its buttons and its host report them.

The one shape of a sensor change everywhere: an event script's timed lines, the changes
a fake board applies, the lines the journal keeps of the game in progress and those the
human model writes. Its text is the script line `<t_ms> <action> <what>`.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from reedboard.rules.squares import Square, parse_square

Action = Literal["lift", "place", "choose", "press"]
ACTIONS: tuple[Action, ...] = ("lift", "place", "choose", "press")


def action_named(text: str) -> Action | None:
    """The action `text` names, or None when it names none."""
    return next((action for action in ACTIONS if action == text), None)


class SensorLine(NamedTuple):
    """`what` is a square's name (a1 .. h8) for `lift` and `place`, a promotion letter
    (q, r, b, n) for `choose`, the side (white, black) for `press`. A tuple, so lines sort by time and unpack in place."""

    t_ms: int
    action: Action
    what: str

    @property
    def square(self) -> Square:
        """The square a lift or place changes."""
        return parse_square(self.what)

    def at(self, t_ms: int) -> SensorLine:
        """The same change at another time."""
        return self._replace(t_ms=t_ms)

    def text(self) -> str:
        return f"{self.t_ms} {self.action} {self.what}"
