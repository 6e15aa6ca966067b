"""The Lichess side of a game as values: Lichess's moves in the board's notation, the
forms of a challenge and a seek, the clock on the command line, the board's moves taken
back by hand."""

from __future__ import annotations

import argparse

import pytest
from reedboard.errors import InvalidInputError
from reedboard.lichess.game import (
    HandTakebacks,
    LichessMoves,
    challenge_form,
    common_prefix,
    initial_position,
    parse_clock,
    player_name,
    plies_to_undo,
    seek_form,
)
from reedboard.lichess.settings import BadSetting
from reedboard.rules.position import Position

CHESS960_FEN = "rnbbqnkr/pppppppp/8/8/8/8/PPPPPPPP/RNBBQNKR w KQkq - 0 1"


def test_lichess_moves_are_read_in_either_castling_notation() -> None:
    moves = LichessMoves(Position.standard())
    opening = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]
    moves.update([*opening, "e1h1"])
    assert moves.ucis[-1] == "e1g1"  # the board's notation in standard chess
    moves.update([*opening, "e1h1", "f8c5"])
    assert len(moves.ucis) == 8
    # Nonsense changes nothing; a shorter game (a takeback on Lichess) is read again.
    for bad in ([*opening, "e1h1", "f8c5", "zz99"], ["e2e5"]):
        with pytest.raises(InvalidInputError):
            moves.update(bad)
        assert len(moves.ucis) == 8
    moves.update(opening[:2])
    assert moves.ucis == opening[:2]

    chess960 = LichessMoves(Position.from_fen(CHESS960_FEN, chess960=True))
    chess960.update(["f1g3", "f8g6", "g1h1"])
    assert chess960.ucis[-1] == "g1h1"  # king takes rook, as the board writes Chess960


def test_challenge_forms() -> None:
    assert challenge_form((0.25, 0), False, "standard")["clock.limit"] == 15
    assert challenge_form((180, 60), True, "chess960") == {
        "rated": "true", "clock.limit": 10800, "clock.increment": 60,
        "keepAliveStream": "true", "variant": "chess960",
    }  # fmt: skip


def test_seek_forms_clocks_and_names() -> None:
    assert seek_form((15, 10), False, "standard") == {
        "rated": "false",
        "time": "15",
        "increment": 10,
    }
    assert seek_form((30, 0), True, "chess960")["variant"] == "chess960"
    assert parse_clock("15+10") == (15.0, 10)
    assert parse_clock("0.5+0") == (0.5, 0)
    for bad in ("fast", "0+0", "181+0", "5+-1", "+"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_clock(bad)
    with pytest.raises(BadSetting):
        challenge_form((2.5, 0), False, "standard")  # Lichess offers no 2.5 minutes
    assert player_name({"aiLevel": 3}) == "Stockfish level 3"
    assert player_name({"id": "someone"}) == "someone"
    assert initial_position("startpos", "standard").fen() == Position.standard().fen()
    assert initial_position(CHESS960_FEN, "chess960").chess960


def test_the_board_undoes_only_the_old_moves_lichess_took_back() -> None:
    before = ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert common_prefix(before, before[:2]) == 2
    assert common_prefix(before, ["e2e4", "c7c5"]) == 1
    # Lichess went back to 2 plies: the board's two old moves go, one at a time.
    assert plies_to_undo(before, before, 2) == 2
    assert plies_to_undo(before[:3], before, 2) == 1
    assert plies_to_undo(before[:2], before, 2) == 0
    # A move made on the board in place of an old one stays.
    assert plies_to_undo(["e2e4", "e7e5", "d2d4"], before, 2) == 0


def test_takebacks_by_hand_are_the_boards_takebacks_less_the_bridges_own() -> None:
    taken = HandTakebacks()
    assert taken.since(3) == 0  # the first look counts nothing: it sets where to count from
    assert taken.since(4) == 1  # one by hand
    taken.own += 1  # the bridge's own, answered before its event arrived
    assert taken.since(4) == 0
    assert taken.since(5) == 0  # its event, come late
    taken.own += 1
    assert taken.since(7) == 1  # its event and one by hand, in one batch
    assert taken.since(7) == 0


def test_takebacks_are_counted_afresh_once_forgotten() -> None:
    taken = HandTakebacks()
    taken.since(2)
    taken.own += 1  # a takeback of the bridge's that may or may not have been made
    taken.forget()
    assert taken.since(3) == 0  # whatever came meanwhile is no one's
    assert taken.own == 0
    assert taken.since(4) == 1
