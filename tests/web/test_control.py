"""A page's control request read by the board's own command codec (`web.control`): what a
page may send, and a clear error naming what is wrong with anything else."""

from __future__ import annotations

import pytest
from reedboard.link.messages import Resign, SetMode, StartGame
from reedboard.web.control import BadRequest, opponent_spec, page_command


def test_the_page_s_commands_are_the_board_s_own() -> None:
    assert page_command(
        {"type": "new_game", "variant": "chess960", "number": 7, "clock": "5+3"}
    ) == (StartGame(variant="chess960", number=7, clock="5+3"))
    assert page_command({"type": "mode", "mode": "strict"}) == SetMode("strict")
    assert page_command({"type": "resign", "id": 99}) == Resign()  # the page's ids are the feed's


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ("new_game", "an object with a type"),
        ({"variant": "standard"}, "an object with a type"),
        ({"type": "hello"}, "cannot send 'hello'"),
        ({"type": "led_test"}, "cannot send 'led_test'"),
        ({"type": "new_game", "variant": "chess961"}, "variant"),
        ({"type": "new_game", "variant": "chess960", "number": 960}, "number"),
        ({"type": "brightness", "percent": "full"}, "percent"),
        ({"type": "new_game", "clock": "forever"}, "clock"),
    ],
)
def test_anything_else_is_a_clear_error(fields: object, said: str) -> None:
    with pytest.raises(BadRequest, match=said):
        page_command(fields)


def test_an_opponent_is_a_short_text() -> None:
    assert opponent_spec({"spec": " engine 5 "}) == "engine 5"
    for bad in ({}, {"spec": ""}, {"spec": 5}, {"spec": "x" * 200}):
        with pytest.raises(BadRequest, match="short text"):
            opponent_spec(bad)
