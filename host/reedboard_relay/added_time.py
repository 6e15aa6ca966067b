"""Time the arbiter added to a player's clock (FIDE 7.5.5's two minutes to the opponent
of an illegal move; a disturbance or a faulty clock, 6.10/6.11), as the relay keeps it
and the broadcast says it: an arbiter's comment at the ply the game stood at, never a
variation. Pure."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from reedboard_relay.game_on_board import GameOnBoard

AddedState = Literal["sent", "done", "refused"]
MAX_MINUTES = 60  # the board's own bound for one addition (`clock_add`)
SMALL_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


@dataclass(frozen=True)
class AddedTime:
    number: int  # the relay's own, in the order the arbiter decided them
    game: GameOnBoard
    ply: int  # the plies the game had when the time was added
    white: bool  # whose clock
    ms: int
    note: str = ""
    state: AddedState = "sent"
    answer: str = ""  # the board's refusal, in its words

    def comment(self) -> str:
        """What the PGN says at `ply`: "Arbiter: two minutes added to White's clock
        (FIDE 7.5.5)"."""
        side = "White" if self.white else "Black"
        note = f" ({self.note})" if self.note else ""
        return f"Arbiter: {amount_words(self.ms)} added to {side}'s clock{note}"


def amount_words(ms: int) -> str:
    """ "two minutes", "1.5 seconds", "one minute and 30 seconds"."""
    minutes, rest = divmod(ms, 60_000)
    parts = [_counted(minutes, "minute")] if minutes else []
    if rest or not minutes:
        seconds = rest // 1000 if rest % 1000 == 0 else rest / 1000
        parts.append(_counted(seconds, "second"))
    return " and ".join(parts)


def minutes_in_ms(minutes: object) -> int:
    """The arbiter's minutes (a number, decimals allowed: 0.5 is 30 s) in whole ms;
    `ValueError` naming what is wrong otherwise."""
    if isinstance(minutes, bool) or not isinstance(minutes, int | float):
        raise ValueError(f"minutes {minutes!r}: a number of minutes such as 2")
    if not math.isfinite(minutes) or not 0 < minutes <= MAX_MINUTES:
        raise ValueError(f"minutes {minutes!r}: more than 0 and at most {MAX_MINUTES}")
    return max(1, round(minutes * 60_000))


def _counted(count: float, unit: str) -> str:
    said = SMALL_NUMBERS[count] if isinstance(count, int) and count < 10 else f"{count:g}"
    return f"{said} {unit}{'' if count == 1 else 's'}"
