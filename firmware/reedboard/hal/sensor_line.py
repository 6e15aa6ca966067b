"""A sensor line: one change of one square's switch at a board time (`lift`, `place`), the
promotion piece a player chose at a time (`choose`), a player's press of their clock
button (`press`), or time the arbiter added to a player's clock (`add`, `white:120000`),
as the board's sensors, its buttons and its host report them.

The one shape of a sensor change everywhere: an event script's timed lines, the changes
a fake board applies, the lines the journal keeps of the game in progress and those the
human model writes. Its text is the script line `<t_ms> <action> <what>`.
"""

from typing import Literal, NamedTuple, TypeAlias

from reedboard.rules.squares import Square, parse_square

Action = Literal["lift", "place", "choose", "press", "add"]
ACTIONS: tuple[Action, ...] = ("lift", "place", "choose", "press", "add")
# The most an arbiter adds at once, in ms (the `clock_add` command's bound).
MAX_ADDED_MS = 60 * 60_000


def action_named(text: str) -> Action | None:
    """The action `text` names, or None when it names none."""
    return next((action for action in ACTIONS if action == text), None)


class SensorLine(NamedTuple):
    """`what` is a square's name (a1 .. h8) for `lift` and `place`, a promotion letter
        (q, r, b, n) for `choose`, the side (white, black) for `press`, the side and the ms
    (`white:120000`) for `add`. A tuple, so lines sort by time and unpack in place."""

    t_ms: int
    action: Action
    what: str

    @property
    def square(self) -> Square:
        """The square a lift or place changes."""
        return parse_square(self.what)

    def at(self, t_ms: int) -> "SensorLine":
        """The same change at another time."""
        return self._replace(t_ms=t_ms)

    def text(self) -> str:
        return f"{self.t_ms} {self.action} {self.what}"


def added_time(what: str) -> tuple[bool, int] | None:
    """An `add` line's `white:120000` as (White's?, ms), or None when it is not one: a
    side, a colon, and a whole number of ms 1..`MAX_ADDED_MS`."""
    side, colon, ms = what.partition(":")
    if side not in ("white", "black") or not colon or not ms.isdigit():
        return None
    if not 1 <= int(ms) <= MAX_ADDED_MS:
        return None
    return side == "white", int(ms)


def add_line(t_ms: int, white: bool, ms: int) -> SensorLine:
    """The line of `ms` added to a player's clock at `t_ms`."""
    return SensorLine(t_ms, "add", f"{'white' if white else 'black'}:{ms}")


# Named tuples, not dataclasses, with their annotations evaluated at once: a fake board
# reads its script before its first scan, which waits for nothing it does not need.
class ClockPress(NamedTuple):
    """A player pressed their side of the clock (`press`)."""

    white: bool


class PromotionChoice(NamedTuple):
    """The piece for the next promotion (`choose`): q, r, b or n."""

    piece: str


class ArbiterAddition(NamedTuple):
    """Time the arbiter gave a player (`add`): `ms` more for White when `white`."""

    white: bool
    ms: int


# What a scripted board's players, buttons and arbiter do besides moving pieces.
PlayersAction: TypeAlias = ClockPress | PromotionChoice | ArbiterAddition


def players_action(line: SensorLine) -> PlayersAction | None:
    """The action a `choose`, `press` or `add` line stands for (None: a lift or a place,
    or an `add` whose time is not one)."""
    if line.action == "choose":
        return PromotionChoice(line.what)
    if line.action == "press":
        return ClockPress(line.what == "white")
    added = added_time(line.what) if line.action == "add" else None
    return None if added is None else ArbiterAddition(*added)
