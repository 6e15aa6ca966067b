"""The host's `clock_add`: the arbiter gives a player more time. Read strictly from the
wire, refused with a reason when there is no running clock to add to, and answered with
the clocks after it."""

from __future__ import annotations

import random

import pytest
from reedboard.board_game import BoardGame, Settings, players_command
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.events import TimeAdded
from reedboard.hal.sensor_line import (
    ArbiterAddition,
    ClockPress,
    PromotionChoice,
    SensorLine,
    players_action,
)
from reedboard.link.acks import TimeGiven
from reedboard.link.board_messages import Ack, ErrorReply, StateClock
from reedboard.link.event_codec import effect_json
from reedboard.link.messages import AddTime, ChoosePromotion, ProtocolError, Resign, parse_command
from reedboard.rules.game import Game
from reedboard.rules.position import Position

START = Position.standard().occupied
TWO_MINUTES = 120_000


def board_game(clock: str | None = "5+0") -> BoardGame:
    control = None if clock is None else parse_time_control(clock)
    return BoardGame(Game(), START, Settings(time_control=control), rng=random.Random(1))


def test_time_added_to_the_waiting_player() -> None:
    board = board_game()
    answer = board.command(AddTime("black", TWO_MINUTES), 1_000)
    assert answer.reply == Ack(TimeGiven(StateClock(299_000, 420_000, "white", "5+0")))
    assert answer.effects == (TimeAdded(1_000, False, TWO_MINUTES, 299_000, 420_000),)
    assert board.timer is not None and board.timer.flag_ms() == 300_000


def test_time_added_to_the_running_player_moves_the_flag() -> None:
    board = board_game("1+0")
    answer = board.carry_out(AddTime("white", 30_000), 10_000)
    assert answer.reply == Ack(TimeGiven(StateClock(80_000, 60_000, "white", "1+0")))
    assert board.next_deadline() == 90_000
    board.advance(89_999)
    assert not board.game.is_game_over()
    board.advance(90_000)
    assert board.game.is_game_over()


def test_the_effect_is_the_links_clock_event_with_what_was_added() -> None:
    effect = TimeAdded(1_000, True, TWO_MINUTES, 420_000, 300_000)
    assert effect_json(effect) == {
        "event": "clock",
        "t_ms": 1_000,
        "white_ms": 420_000,
        "black_ms": 300_000,
        "added": {"color": "white", "ms": TWO_MINUTES},
    }


def test_an_untimed_game_is_refused() -> None:
    answer = board_game(None).command(AddTime("white", TWO_MINUTES), 0)
    assert isinstance(answer.reply, ErrorReply)
    assert answer.reply.message == "the game is not timed: there is no clock to add time to"
    assert answer.effects == ()


def test_a_finished_game_is_refused() -> None:
    board = board_game()
    board.command(Resign("white"), 100)
    answer = board.command(AddTime("black", TWO_MINUTES), 200)
    assert isinstance(answer.reply, ErrorReply)
    assert answer.reply.message == "the game is already over"


def test_read_from_the_wire() -> None:
    command = parse_command({"type": "clock_add", "id": 4, "color": "black", "ms": 120_000})
    assert command == AddTime("black", TWO_MINUTES, 4)
    assert command.to_wire() == {"type": "clock_add", "id": 4, "color": "black", "ms": 120_000}
    with_game = parse_command({"type": "clock_add", "color": "white", "ms": 1, "game": 7})
    assert with_game == AddTime("white", 1, game=7)


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"color": "red", "ms": 1_000}, "color", "must be one of white, black, not 'red'"),
        ({"ms": 1_000}, "color", "is missing"),
        ({"color": "white"}, "ms", "is missing: an integer 1..3600000"),
        ({"color": "white", "ms": 0}, "ms", "must be an integer 1..3600000, not 0"),
        ({"color": "white", "ms": -5}, "ms", "must be an integer 1..3600000"),
        ({"color": "white", "ms": 3_600_001}, "ms", "must be an integer 1..3600000"),
        ({"color": "white", "ms": 1.5}, "ms", "must be an integer 1..3600000"),
        ({"color": "white", "ms": True}, "ms", "must be an integer 1..3600000"),
        ({"color": "white", "ms": 1, "game": -1}, "game", "must be an integer"),
    ],
)
def test_bad_fields_are_refused_by_name(fields: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_command({"type": "clock_add", **fields})
    assert refused.value.field == field
    assert words in str(refused.value)


def test_a_scripts_add_line_is_the_command() -> None:
    added = players_action(SensorLine(5, "add", "black:120000"))
    assert added == ArbiterAddition(white=False, ms=TWO_MINUTES)
    assert players_command(added) == AddTime("black", TWO_MINUTES)
    chosen = players_action(SensorLine(5, "choose", "q"))
    assert isinstance(chosen, PromotionChoice)
    assert players_command(chosen) == ChoosePromotion("q")
    assert players_action(SensorLine(5, "press", "black")) == ClockPress(white=False)
