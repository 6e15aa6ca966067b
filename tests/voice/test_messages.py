"""Effects read back from their JSON form say what the effects themselves say."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.arbiter.effects import effect_json
from reedboard.voice.messages import effect_of

from tests.voice.test_narrator import CASES


def test_every_effect_comes_back_from_its_json() -> None:
    for case in CASES:
        for effect in case.effects:
            assert effect_of(effect_json(effect)) == effect


@pytest.mark.parametrize(
    "message",
    [
        {},
        {"event": "move"},
        {"event": "touch", "square": "z9", "piece": "N"},
        {"event": "illegal", "missing": 5, "extra": []},
        {"event": "lights", "lit": {}},
        {"event": "setup", "chess960": "many", "fen": ""},
    ],
)
def test_a_message_that_is_no_whole_effect_gives_none(message: dict[str, Any]) -> None:
    assert effect_of(message) is None
