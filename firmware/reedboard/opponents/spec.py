"""The opponent as the command line (`--opponent`), the page and the saved choice write
it: `person` (two people at the board), `engine` (the `[engine]` section's settings),
`engine:5` or `engine 5` (a level 1 to 20), `engine:elo=1800` (a rating), each optionally followed by
the engine's side, `:white` or `:black` (default black). Pure."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from reedboard.errors import InvalidInputError
from reedboard.opponents.engine_play import ELO_RANGE, FULL_STRENGTH, EngineSettings, Side

PERSON = "person"
FORMS = (
    "person, engine, engine:LEVEL (1-20), engine:elo=RATING, each engine with :white or :black; "
    "lichess (docs/opponents.md)"
)


class BadOpponent(InvalidInputError):
    """An opponent that cannot be read, in one line."""


def read_spec(text: str, engine: EngineSettings) -> EngineSettings | None:
    """The engine's settings (None: a person), from `engine`'s with what `text` says."""
    words = text.strip().lower().replace(" ", ":").split(":")  # "engine 5" as the page writes it
    if words == [PERSON] or words == ["none"]:
        return None
    if words[0] == "lichess":
        raise BadOpponent("Lichess is chosen through `Opponents.choose` (lichess_spec)")
    if words[0] != "engine" or len(words) > 3:
        raise BadOpponent(f"opponent {text.strip()!r}: expected {FORMS}")
    settings = engine
    for word in words[1:]:
        if word in ("white", "black"):
            settings = replace(settings, side=cast(Side, word))
        elif word.startswith("elo="):
            settings = replace(settings, elo=_whole(word[4:], *ELO_RANGE, text))
        else:
            settings = replace(settings, level=_whole(word, 1, FULL_STRENGTH, text), elo=None)
    return settings


def _whole(word: str, low: int, high: int, text: str) -> int:
    if not word.isdigit() or not low <= int(word) <= high:
        raise BadOpponent(f"opponent {text.strip()!r}: {word!r} is not in {low}..{high} ({FORMS})")
    return int(word)
