"""Lichess as the opponent, as the command line, the page and the saved choice write it:
`lichess` (wait for a challenge, from anyone), `lichess:accept:USER` (from that player
only), `lichess:seek:10+5` (a seek at that clock), `lichess:challenge:USER` or
`lichess:challenge:USER:10+5` (a named friend, at the `[lichess]` section's clock or
this one), `lichess:resume` (only the game in progress, if any: what a seek or a
challenge saved becomes when the board starts again, so that a power cut does not seek
another game). Spaces may stand for the colons, as the page writes them. Pure."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Literal

from reedboard.lichess.game import parse_clock
from reedboard.opponents.spec import BadOpponent

LICHESS_FORMS = (
    "lichess, lichess:accept:USER, lichess:seek:MIN+INC, lichess:challenge:USER[:MIN+INC], "
    "lichess:resume"
)
Way = Literal["accept", "seek", "challenge", "resume"]


@dataclass(frozen=True)
class LichessSettings:
    """The `[lichess]` section's: the server, and a challenge's clock when none is named."""

    server: str = "https://lichess.org"
    clock: tuple[float, int] = (10.0, 5)


@dataclass(frozen=True)
class LichessPlan:
    way: Way = "accept"
    user: str = ""  # the friend challenged, or the one player accepted ("": anyone)
    clock: tuple[float, int] = (10.0, 5)  # minutes, seconds a move

    def spec(self) -> str:
        clock = f"{self.clock[0]:g}+{self.clock[1]}"
        if self.way == "seek":
            return f"lichess:seek:{clock}"
        if self.way == "challenge":
            return f"lichess:challenge:{self.user}:{clock}"
        if self.way == "resume":
            return "lichess:resume"
        return f"lichess:accept:{self.user}" if self.user else "lichess"

    def resumed(self) -> LichessPlan:
        """The plan when the board starts again: a seek or a challenge is not made
        again (a game it started goes on, found on Lichess's event stream)."""
        return LichessPlan("resume", "", self.clock) if self.way in ("seek", "challenge") else self

    def words(self) -> str:
        clock = f"{self.clock[0]:g}+{self.clock[1]}"
        if self.way == "seek":
            return f"seeking a {clock} game"
        if self.way == "challenge":
            return f"challenging {self.user} to {clock}"
        if self.way == "resume":
            return "following your game in progress, if any"
        return f"waiting for a challenge from {self.user or 'anyone'}"


def is_lichess(text: str) -> bool:
    return text.strip().lower().replace(" ", ":").split(":")[0] == "lichess"


def read_lichess(text: str, clock: tuple[float, int] = (10.0, 5)) -> LichessPlan:
    """The plan `text` says; `clock`: the `[lichess]` section's, for a challenge."""
    words = [w for w in text.strip().replace(" ", ":").split(":") if w]
    wrong = BadOpponent(f"opponent {text.strip()!r}: expected {LICHESS_FORMS}")
    if not words or words[0].lower() != "lichess" or len(words) > 4:
        raise wrong
    way = words[1].lower() if len(words) > 1 else "accept"
    rest = words[2:]
    try:
        if way == "accept" and len(rest) <= 1:
            return LichessPlan("accept", _user(rest[0]) if rest else "", clock)
        if way == "resume" and not rest:
            return LichessPlan("resume", "", clock)
        if way == "seek" and len(rest) == 1:
            return LichessPlan("seek", "", parse_clock(rest[0]))
        if way == "challenge" and 1 <= len(rest) <= 2:
            return LichessPlan(
                "challenge", _user(rest[0]), parse_clock(rest[1]) if rest[1:] else clock
            )
    except argparse.ArgumentTypeError as error:
        raise BadOpponent(f"opponent {text.strip()!r}: {error}") from None
    raise wrong


def _user(word: str) -> str:
    """A Lichess user name: 2 to 30 letters, digits, `_` or `-`."""
    if not 2 <= len(word) <= 30 or not all(
        c.isascii() and (c.isalnum() or c in "_-") for c in word
    ):
        raise BadOpponent(f"{word[:40]!r} is not a Lichess user name")
    return word
