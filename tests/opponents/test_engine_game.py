"""Whole games against Debian's Stockfish on the board itself: the real loop, the real
engine in its own process, a person at the fake switches."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from reedboard.events import GameOver, MoveMade, TakenBack
from reedboard.journal.store import Journal
from reedboard.opponents.engine_play import EngineSettings

from tests.opponents.engine_board import ScriptedThinker, engine_board, person_move, play_out

STOCKFISH = "/usr/games/stockfish"
pytestmark = pytest.mark.skipif(not os.access(STOCKFISH, os.X_OK), reason="needs stockfish")

FAST = EngineSettings(level=5, movetime_ms=10, side="black", seed=7)  # strength aside


def test_a_whole_game_against_the_engine_at_level_5() -> None:
    board = engine_board(FAST)
    try:
        play_out(board, person_white=True, seed=3, max_plies=300)
        moves = [e.effect for e in board.effects if isinstance(e.effect, MoveMade)]
        engine_moves = [m.uci for m in moves if m.ply % 2 == 0]
        # Every move of the engine's made on the board is the one its lights asked for.
        assert engine_moves == board.lit and board.lit
        assert board.game.is_game_over() or len(board.game) == 300
        if board.game.is_game_over():
            assert any(isinstance(e.effect, GameOver) for e in board.effects)
        assert board.opponents.current() == "Stockfish level 5, playing black"
    finally:
        board.opponents.close()


# A game the engine once played against the person's seed 3: its 12th move, a8d8 with the
# king on e8 and queenside castling still allowed, is a rook move castling may follow.
CASTLING_MAY_FOLLOW_GAME = (
    "e7e5 d7d5 f7f6 b8c6 c8e6 g8e7 d5c4 d8d4 d4d6 e6f7 d6d7 a8d8 e7f5 e5f4 f4e3 c4d3 d7d3 "
    "f7d5 d3e4 f5g3 d5b3 g7g6"
)
CASTLING_MAY_FOLLOW = CASTLING_MAY_FOLLOW_GAME.split()


def test_a_rook_move_castling_may_follow_is_made_once() -> None:
    """The board holds such a move until castling can no longer follow (longer than a
    plain move); the person who made it reads the board and does not make it again, and
    the engine's moves made are exactly those lit, whenever its answers come."""
    thinker = ScriptedThinker(CASTLING_MAY_FOLLOW)
    board = engine_board(FAST, make_thinker=lambda _settings: thinker)
    try:
        play_out(board, person_white=True, seed=3, max_plies=2 * len(CASTLING_MAY_FOLLOW))
        moves = [e.effect for e in board.effects if isinstance(e.effect, MoveMade)]
        assert [m.uci for m in moves if m.ply % 2 == 0] == board.lit == CASTLING_MAY_FOLLOW
        assert not any(isinstance(e.effect, TakenBack) for e in board.effects)
    finally:
        board.opponents.close()


def test_the_engine_plays_white_and_moves_first() -> None:
    board = engine_board(EngineSettings(level=3, movetime_ms=10, side="white", seed=1))
    try:
        play_out(board, person_white=False, seed=5, max_plies=12)
        moves = [e.effect.uci for e in board.effects if isinstance(e.effect, MoveMade)]
        assert moves[0::2] == board.lit[: len(moves[0::2])]
    finally:
        board.opponents.close()


def test_another_move_than_the_lit_one_is_taken_back_and_the_lit_one_asked_again() -> None:
    board = engine_board(FAST)
    try:
        board.make("e2e4")
        while board.shown() is None:
            board.wait_for_engine()
        lit = board.shown()
        assert lit is not None
        other = next(
            board.game.position.uci(m)
            for m in board.game.position.legal_moves()
            if board.game.position.uci(m) != lit and not board.game.position.is_capture(m)
        )
        board.make(other)
        board.run_for(200)
        taken = [e.effect for e in board.effects if isinstance(e.effect, TakenBack)]
        assert [t.uci for t in taken] == [other]
        assert len(board.game) == 1 and board.shown() == lit  # the lights insist
        # The person puts the piece back where the board asks it, then makes the lit move.
        board.put_back(other)
        board.make(lit)
        assert board.game.position.uci(board.game.moves[-1]) == lit and len(board.game) == 2
    finally:
        board.opponents.close()


# Ten minutes a move: the engine is still thinking whatever the machine's load, until the
# test has it move now (UCI `stop`).
SLOW = EngineSettings(level=5, movetime_ms=600_000, side="black", seed=7)


def test_a_move_made_for_the_engine_before_it_answered_is_taken_back() -> None:
    board = engine_board(SLOW)
    try:
        board.make("e2e4")
        assert board.shown() is None  # still thinking
        board.make("e7e5")
        board.run_for(200)
        assert [e.effect.uci for e in board.effects if isinstance(e.effect, TakenBack)] == ["e7e5"]
        assert len(board.game) == 1
        # The search went on through the move and its takeback: told to move now, the
        # engine answers with its move for the position after e2e4, lit.
        board.move_now()
        board.wait_for_engine()
        lit = board.shown()
        assert lit is not None and len(board.game) == 1
        board.put_back("e7e5")  # the person puts the pawn back and makes the lit move
        board.make(lit)
        assert len(board.game) == 2
    finally:
        board.opponents.close()


def test_a_takeback_while_the_engine_thinks_stops_its_search() -> None:
    """The person takes e2e4 back while the engine thinks about it: the engine's search
    is stopped at once (it would take ten minutes), its move not lit, and the engine is
    free for the position the person makes next."""
    board = engine_board(SLOW)
    try:
        board.make("e2e4")
        assert board.shown() is None  # still thinking
        board.put_back("e2e4")
        assert len(board.game) == 0
        assert any(thread.wait(30) for thread in board.threads), "the search was not stopped"
        board.run_for(100)  # its answer picked up: not played, nothing lit
        assert board.shown() is None
        board.make("d2d4")
        assert board.shown() is None  # thinking about d2d4 now
        board.move_now()
        board.wait_for_engine()
        lit = board.shown()
        assert lit is not None
        board.make(lit)
        assert [board.game.position.uci(m) for m in board.game.moves][:1] == ["d2d4"]
        assert len(board.game) == 2
    finally:
        board.opponents.close()


def test_an_engine_game_goes_on_after_a_power_cut(tmp_path: Path) -> None:
    journal_path = tmp_path / "journal.sqlite"
    with Journal(journal_path) as journal:
        board = engine_board(FAST, journal=journal, data_dir=str(tmp_path), spec="engine:5")
        try:
            play_out(board, person_white=True, seed=11, max_plies=6)
            board.make(person_move(board.game, random.Random(2)))  # the engine's turn
            before = [board.game.position.uci(m) for m in board.game.moves]
            standing = board.game.position  # the pieces stay where they stood
            board.app.close()
        finally:
            board.opponents.close()  # the power goes: the engine with it
    assert (tmp_path / "opponent").read_text().strip() == "engine:5:black"
    with Journal(journal_path) as journal:
        # The board comes back with the opponent it had, from the data directory.
        again = engine_board(FAST, journal=journal, data_dir=str(tmp_path), spec="", start=standing)
        try:
            saved = again.opponents.saved()
            assert saved == "engine:5:black"
            assert again.opponents.choose(saved) is None
            assert len(again.game) == len(before) == 7
            while again.shown() is None:
                again.wait_for_engine()
            lit = again.shown()
            assert lit is not None
            again.make(lit)
            assert [again.game.position.uci(m) for m in again.game.moves][:7] == before
            assert len(again.game) == 8
        finally:
            again.opponents.close()


def test_a_hint_lights_the_engines_best_move_for_the_person() -> None:
    board = engine_board(FAST)
    try:
        assert board.opponents.hint() is None  # asked
        while board.shown() is None:
            board.wait_for_engine()
        hint = board.shown()
        assert hint is not None and board.game.position.turn  # White's move: the person's
        board.make(hint)
        assert len(board.game) == 1
    finally:
        board.opponents.close()


def test_a_hint_at_a_two_player_board_and_a_choice_changed_mid_game() -> None:
    board = engine_board(FAST, spec="person")
    try:
        board.make("e2e4")
        board.opponents.hint()  # Black's move: two people play, the engine only hints
        while board.shown() is None:
            board.wait_for_engine()
        assert board.opponents.current() == "a person at the board"
        board.make(board.shown() or "")
        # The engine takes over White's side in the game as it stands.
        assert board.opponents.choose("engine:4:white") is None
        while board.shown() is None:
            board.wait_for_engine()
        assert len(board.game) == 2 and board.game.position.turn
        assert board.opponents.choose("engine:99") is not None  # refused: nothing changes
        assert board.opponents.current() == "Stockfish level 4, playing white"
    finally:
        board.opponents.close()
