"""What the Lichess synchroniser asks of the world, as values: requests to the board, calls
to Lichess, the game stream to follow, words for the person. `Steps` is the generator
each of its decisions is: it yields actions and is sent their answers."""

from __future__ import annotations

import urllib.parse
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from reedboard.link.messages import WireCommand


@dataclass(frozen=True)
class AskBoard:
    """A command to the board; answered with its reply, or a `BoardRequestError` thrown in."""

    command: WireCommand


@dataclass(frozen=True)
class SyncBoard:
    """Fetch the board's game into the copy now."""


@dataclass(frozen=True)
class PostNow:
    """A call to Lichess whose answer is awaited; a `LichessError` thrown in if refused."""

    path: str


@dataclass(frozen=True)
class PostLater:
    """A call to Lichess answered later, as `posted` or `refused`."""

    path: str
    form: dict[str, Any] | None = None


@dataclass(frozen=True)
class FollowGame:
    """Stream this game (None: none)."""

    game_id: str | None


@dataclass(frozen=True)
class PausedFor:
    """Answered with the seconds left of a 429's pause (0: none)."""


@dataclass(frozen=True)
class Tell:
    """Words for the person."""

    text: str


Action = AskBoard | SyncBoard | PostNow | PostLater | FollowGame | PausedFor | Tell
Steps = Generator[Action, Any, None]


def quote(text: str) -> str:
    """`text` as one segment of a Lichess path."""
    return urllib.parse.quote(text, safe="")
