"""Time controls as players write them, and as PGN writes them.

- `5+3`: Fischer, 5 minutes each, 3 seconds added after every move;
- `15+0` or `15`: sudden death; decimals are allowed (`0.5+0` is 30 seconds);
- `90/40:30+30`: 90 minutes for the first 40 moves, then 30 more minutes, 30 seconds
  after every move from move 1 (FIDE's classical control). More periods chain the same
  way (`120/40:60/20:15+30`); only the last has no move count.
"""

from typing import NamedTuple

from reedboard.errors import InvalidInputError

MS_PER_MINUTE = 60_000
MAX_MINUTES = 24 * 60  # a longer period is a typing slip, not a game


# Named tuples, not dataclasses: the board's configuration reads a time control before
# its first scan, which waits for nothing it does not need (see config.py).
class Period(NamedTuple):
    """`time_ms` added to a player's clock at the period's start; `moves` the moves it
    covers (None: the rest of the game)."""

    time_ms: int
    moves: int | None = None


class TimeControl(NamedTuple):
    periods: tuple[Period, ...]
    increment_ms: int = 0

    @property
    def start_ms(self) -> int:
        return self.periods[0].time_ms

    def bonus_after(self, moves_made: int) -> int:
        """Time a player gains as their `moves_made`-th move completes a period (FIDE
        6.3): the next period's time, or 0."""
        boundary = 0
        for index, period in enumerate(self.periods[:-1]):
            assert period.moves is not None
            boundary += period.moves
            if moves_made == boundary:
                return self.periods[index + 1].time_ms
        return 0

    def text(self) -> str:
        """As `parse_time_control` reads it: `5+3`, `90/40:30+30`."""
        parts = []
        for period in self.periods:
            minutes = _number(period.time_ms / MS_PER_MINUTE)
            parts.append(minutes if period.moves is None else f"{minutes}/{period.moves}")
        return ":".join(parts) + f"+{_number(self.increment_ms / 1000)}"

    def pgn_tag(self) -> str:
        """The PGN `TimeControl` tag's value (PGN standard 9.6.1): seconds, each period
        `moves/seconds` or the last `seconds`, with `+increment` when there is one."""
        increment = f"+{_number(self.increment_ms / 1000)}" if self.increment_ms else ""
        fields = []
        for period in self.periods:
            seconds = _number(period.time_ms / 1000)
            head = seconds if period.moves is None else f"{period.moves}/{seconds}"
            fields.append(head + increment)
        return ":".join(fields)


def parse_time_control(text: str) -> TimeControl:
    """`InvalidInputError` naming the fault for anything else."""
    spec = text.strip()
    body, plus, increment_text = spec.partition("+")
    if not body or (plus and not increment_text):
        raise InvalidInputError(
            f"time control {text!r}: expected MIN+SEC (5+3), MIN (15) or MIN/N:MIN2+SEC"
            " (90/40:30+30)"
        )
    increment_ms = _amount(increment_text, 1000, text, "increment") if plus else 0
    periods: list[Period] = []
    fields = body.split(":")
    for index, field in enumerate(fields):
        minutes_text, slash, moves_text = field.partition("/")
        last = index == len(fields) - 1
        if slash == "" and not last:
            raise InvalidInputError(
                f"time control {text!r}: every period but the last says its moves (90/40:30)"
            )
        if slash and last:
            raise InvalidInputError(
                f"time control {text!r}: the last period has no move count (90/40:30)"
            )
        time_ms = _amount(minutes_text, MS_PER_MINUTE, text, "minutes")
        if time_ms > MAX_MINUTES * MS_PER_MINUTE:
            raise InvalidInputError(f"time control {text!r}: over {MAX_MINUTES} minutes")
        moves = None
        if slash:
            if not moves_text.isdigit() or int(moves_text) < 1:
                raise InvalidInputError(
                    f"time control {text!r}: {moves_text!r} is not a number of moves"
                )
            moves = int(moves_text)
        periods.append(Period(time_ms, moves))
    if periods[0].time_ms <= 0:
        raise InvalidInputError(f"time control {text!r}: a game needs some time to start with")
    return TimeControl(tuple(periods), increment_ms)


def _amount(word: str, unit_ms: int, text: str, what: str) -> int:
    """`word` (a non-negative decimal) times `unit_ms`, in whole milliseconds."""
    try:
        value = float(word)
    except ValueError:
        value = -1.0
    if not word or not word.replace(".", "", 1).isdigit() or value < 0:
        raise InvalidInputError(f"time control {text!r}: {word!r} is not a number of {what}")
    ms = value * unit_ms
    if abs(ms - round(ms)) > 1e-6:
        raise InvalidInputError(f"time control {text!r}: {word} {what} is not a whole ms")
    return round(ms)


def _number(value: float) -> str:
    """`5`, `0.5`: no trailing zeros."""
    return f"{value:.3f}".rstrip("0").rstrip(".")
