"""The host reads the board's events as the very values the board made: the voice on
the PC hears what the board's own voice hears. An event that is not whole (a field left
out or of no use) is a stand-in naming the field; an event this host does not know is
kept aside, with its number."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.link.board_messages import (
    EffectMessage,
    OtherMessage,
    Skipped,
    read_board_message,
)
from reedboard.link.event_codec import effect_json

from tests.voice.test_narrator import CASES


def test_every_effect_comes_back_from_its_message() -> None:
    effects = [effect for case in CASES for effect in case.effects]
    assert {effect.kind for effect in effects} >= {"move", "illegal", "sensor", "setup", "offer"}
    for seq, effect in enumerate(effects, start=1):
        message = EffectMessage(effect, game=1, seq=seq)
        assert read_board_message(message.to_wire()) == (message, None)


def test_the_replay_json_is_the_message_without_its_envelope() -> None:
    effect = CASES[0].effects[0]
    wire = EffectMessage(effect, game=7, seq=3).to_wire()
    assert {k: v for k, v in wire.items() if k not in ("type", "seq", "game")} == effect_json(
        effect
    )


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"event": "move", "uci": "e2e4", "ply": 1}, "move effect: san is missing"),
        ({"event": "move", "uci": "e2e4", "san": "e4", "fen": "x", "ply": 0}, "ply must be"),
        ({"event": "touch", "piece": "N"}, "touch effect: square is missing"),
        ({"event": "illegal", "extra": ["e4"]}, "illegal effect: missing is missing"),
        ({"event": "setup", "chess960": True, "fen": ""}, "setup effect: chess960 must be"),
        ({"event": "sensor", "square": "z9", "fault": "stuck", "occupied": True}, "square"),
        ({"event": "sensor", "square": "e4", "fault": "stuck", "occupied": 1}, "occupied"),
        ({"event": "offer", "offer": "1-0"}, "offer effect: state is missing"),
        ({"event": "new_game", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "fen must be a FEN"),
        ({"event": "clock", "white_ms": 1, "black_ms": 2, "added": {"color": "red", "ms": 5}},
         "clock effect: added must be an object of color (white or black)"),
    ],
)  # fmt: skip
def test_an_event_that_is_not_whole_is_a_stand_in_naming_the_field(
    fields: dict[str, Any], named: str
) -> None:
    read, problem = read_board_message({"type": "effect", "seq": 4, "t_ms": 5, "game": 1, **fields})
    assert read == Skipped(4)
    assert problem is not None and named in problem


def test_an_effect_without_its_time_is_a_stand_in() -> None:
    read, problem = read_board_message({"type": "effect", "seq": 4, "game": 1, "event": "restored"})
    assert read == Skipped(4) and problem == "restored effect: t_ms is missing"


def test_an_event_this_host_does_not_know_keeps_its_number() -> None:
    wire = {"type": "effect", "seq": 9, "event": "lights", "t_ms": 5, "game": 1, "lit": {}}
    read, problem = read_board_message(wire)
    assert problem is None
    assert read == OtherMessage("effect", 9, {"event": "lights", "t_ms": 5, "game": 1, "lit": {}})
