"""A timed game on the host's side: the clocks read from the board's messages, shown by
`watch`, and written to the PGN (`[TimeControl]` per the PGN standard, `[%clk]` after
every move), which python-chess (the test oracle) reads back."""

from __future__ import annotations

import datetime
import io

import chess.pgn
import pytest
from reedboard.board_game import Settings
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.events import ClockPressed, MoveMade, NewGame, TakenBack
from reedboard.link.board_messages import EffectMessage, StateMessage, read_board_message
from reedboard.link.messages import AskState, StartGame
from reedboard.link.wire_fields import ProtocolError
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.position import Position
from reedboard.sim.human import human_script
from reedboard_host.board_text import clock_text, effect_line
from reedboard_host.follow import Follower
from reedboard_host.mirror import GameMirror
from reedboard_host.pgn_file import pgn_text

from tests.support.board_pair import BoardPair


def sent(effect: MoveMade | NewGame | ClockPressed, seq: int) -> EffectMessage:
    """The board's effect as the host reads it off the wire, checked on the way."""
    read, problem = read_board_message(EffectMessage(effect, 1, seq=seq).to_wire())
    assert problem is None and isinstance(read, EffectMessage)
    return read


def test_the_clocks_travel_the_link() -> None:
    move = sent(MoveMade(1412, "e2e4", "e4", "fen", 1, clock=(301_600, 300_000)), 2)
    assert move.effect == MoveMade(1412, "e2e4", "e4", "fen", 1, clock=(301_600, 300_000))
    press = sent(ClockPressed(1500, 301_500, 300_000), 3)
    assert press.effect == ClockPressed(1500, 301_500, 300_000)
    new = sent(NewGame(0, STARTING_FEN, time_control="5+3"), 1)
    assert isinstance(new.effect, NewGame) and new.effect.time_control == "5+3"
    assert effect_line(press) == "clock      pressed: White 5:01.5  Black 5:00.0"


def test_a_bad_clock_field_is_named() -> None:
    wire = EffectMessage(MoveMade(1, "e2e4", "e4", "fen", 1, clock=(1, 2)), 1, seq=2).to_wire()
    wire["clock"] = {"white_ms": -1, "black_ms": 2}
    _read, problem = read_board_message(wire)
    assert problem is not None
    assert problem.startswith("move effect: clock must be an object of white_ms and black_ms")


def test_new_clock_is_a_time_control() -> None:
    assert StartGame(clock="5+3").to_wire()["clock"] == "5+3"
    with pytest.raises(ProtocolError, match="clock"):
        from reedboard.link.messages import parse_command

        parse_command({"type": "new_game", "clock": "fast"})


def test_clock_text_reads_as_a_clock() -> None:
    assert clock_text(301_600, 59_999) == "White 5:01.6  Black 0:59.9"
    assert clock_text(5_400_000, 0) == "White 1:30:00  Black 0:00.0"


def test_the_pgn_has_the_time_control_and_every_moves_clock() -> None:
    mirror = GameMirror()
    mirror.needs_state = False
    messages = [
        EffectMessage(NewGame(0, STARTING_FEN, time_control="90/40:30+30"), 1, 1),
        EffectMessage(MoveMade(1412, "e2e4", "e4", "", 1, (5_428_600, 5_400_000)), 1, 2),
        EffectMessage(MoveMade(6012, "e7e5", "e5", "", 2, (5_428_600, 5_425_000)), 1, 3),
        EffectMessage(MoveMade(9012, "g1f3", "Nf3", "", 3, (5_400_000, 5_425_000)), 1, 4),
        EffectMessage(TakenBack(9500, "g1f3", ""), 1, 5),
        EffectMessage(MoveMade(9900, "d2d4", "d4", "", 3, (5_399_000, 5_425_000)), 1, 6),
    ]
    for message in messages:
        mirror.apply(message)
    assert mirror.current is not None
    text = pgn_text(mirror.current, site="here", date=datetime.date(2026, 1, 1), round_="1")
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    assert game.headers["TimeControl"] == "40/5400+30:1800+30"
    clocks = [node.clock() for node in game.mainline()]
    assert clocks == [5428.0, 5425.0, 5399.0]
    assert "[%clk 1:30:28]" in text


def test_a_host_that_joins_a_timed_game_late_has_its_clocks_at_once() -> None:
    pair = BoardPair(settings=Settings(time_control=parse_time_control("5+0")))
    position = Position.standard()
    for seed, uci in enumerate(["e2e4", "e7e5"]):
        move = position.parse_uci(uci)
        pair.push(human_script(position, [move], seed=seed).lines)
        position = position.play(move)
    pair.run_until(lambda: pair.moves() == ["e2e4", "e7e5"], "two moves on the board")
    pair.advance(3.0)  # White thinks: their time runs
    follower = Follower("memory", open_port=pair.open_port, clock=pair.host_clock)
    follower.connect()  # no move after this: the clocks come with the game fetched
    current = follower.mirror.current
    assert current is not None and len(current.game) == 2
    assert current.time_control == "5+0"
    white_ms, black_ms = current.clocks[2]
    assert 0 < black_ms < 300_000 and 0 < white_ms < 300_000
    text = pgn_text(current, site="here", date=datetime.date(2026, 1, 1), round_="1")
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and game.headers["TimeControl"] == "300"
    assert [node.clock() for node in game.mainline()][-1] == black_ms // 1000
    # The board's own state a second later: Black's time as it was, White's running.
    pair.advance(1.0)
    reply = follower.connection.request(AskState())
    assert isinstance(reply, StateMessage) and reply.clock is not None
    assert reply.clock.running == "white" and reply.clock.black_ms == black_ms
    assert white_ms - 1100 <= reply.clock.white_ms <= white_ms - 1000
    assert read_board_message(reply.to_wire()) == (reply, None)
