"""The opponent as `--opponent`, the page and the saved choice write it."""

from __future__ import annotations

import pytest
from reedboard.opponents.engine_play import EngineSettings
from reedboard.opponents.spec import BadOpponent, read_spec

CONFIGURED = EngineSettings(level=7, side="black", movetime_ms=400)


def test_a_person_or_the_configured_engine() -> None:
    assert read_spec("person", CONFIGURED) is None
    assert read_spec("engine", CONFIGURED) == CONFIGURED


def test_a_level_a_rating_and_a_side() -> None:
    assert read_spec("engine:5", CONFIGURED) == EngineSettings(level=5, movetime_ms=400)
    assert read_spec("engine 5", CONFIGURED) == read_spec("engine:5", CONFIGURED)  # the page's
    rated = read_spec("Engine:elo=1800:white", CONFIGURED)
    assert rated == EngineSettings(level=7, elo=1800, side="white", movetime_ms=400)
    assert rated.spec() == "engine:elo=1800:white"
    assert read_spec(rated.spec(), CONFIGURED) == rated


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("engine:0", "'0' is not in 1..20"),
        ("engine:21", "'21' is not in 1..20"),
        ("engine:elo=99", "'99' is not in 1320..3190"),
        ("engine:five", "'five' is not in 1..20"),
        ("robot", "opponent 'robot': expected person, engine"),
        ("engine:5:white:x", "expected person, engine"),
        ("lichess", "chosen through `Opponents.choose`"),
    ],
)
def test_what_cannot_be_read_is_said(text: str, says: str) -> None:
    with pytest.raises(BadOpponent) as caught:
        read_spec(text, CONFIGURED)
    assert says in str(caught.value)
