"""A host's `effect` events read back as the board's effects: the board's voice on the PC
hears what the board's own voice hears, through the link's one decoder."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.link.board_messages import EffectMessage, EventMessage, read_board_message
from reedboard.link.event_effects import effect_of_event

from tests.voice.test_narrator import CASES


def heard(wire: dict[str, Any]) -> object:
    message, problem = read_board_message(wire)
    assert problem is None and isinstance(message, EventMessage)
    return effect_of_event(message.event, message.t_ms)


def test_every_effect_comes_back_from_its_message() -> None:
    effects = [effect for case in CASES for effect in case.effects]
    assert {effect.kind for effect in effects} >= {"move", "illegal", "sensor", "setup", "offer"}
    for seq, effect in enumerate(effects, start=1):
        assert heard(EffectMessage(effect, game=1, seq=seq).to_wire()) == effect


@pytest.mark.parametrize(
    "fields",
    [
        {"event": "move", "uci": "e2e4", "ply": 1},  # no fen: where the game went is unknown
        {"event": "touch", "piece": "N"},
        {"event": "illegal", "extra": ["e4"]},
        {"event": "lights", "lit": {}},
        {"event": "setup", "chess960": "many", "fen": ""},
        {"event": "setup", "chess960": True, "fen": ""},
        {"event": "sensor", "square": "z9", "fault": "stuck", "occupied": True},
        {"event": "sensor", "square": "e4", "fault": "stuck", "occupied": 1},
        {"event": "offer", "offer": "1-0"},
    ],
)
def test_an_event_that_is_no_whole_effect_gives_none(fields: dict[str, Any]) -> None:
    assert heard({"type": "effect", "seq": 1, "t_ms": 5, **fields}) is None
