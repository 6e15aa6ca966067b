"""The pairings file and the PGN the relay makes of a board's game."""

from __future__ import annotations

import os
from pathlib import Path

from reedboard.link.board_messages import read_board_message
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard_host.mirror import MirroredGame
from reedboard_relay.boards import Board
from reedboard_relay.pairings import Pairing, Pairings
from reedboard_relay.pgn import board_pgn


def test_pairings_name_the_players_and_are_read_again_when_the_file_changes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "round1.csv"
    path.write_text("board,round,board_number,white,black,white_elo\nb1,1,3,Ann,Bob,2100\n")
    pairings = Pairings(str(path), check_every_s=0)
    assert pairings.get("b1") == Pairing("1", "3", "Ann", "Bob", white_elo="2100")
    assert pairings.get("b9") == Pairing()  # a board with no pairing is still shown
    path.write_text("board,round,board_number,white,black\nb1,2,1,Cy,Dee\n")
    os.utime(path, (1, 1))  # a different time, however fast the test wrote it
    assert pairings.get("b1").white == "Cy"


def test_a_missing_or_broken_file_keeps_the_last_pairings_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "round.csv"
    path.write_text("board,white,black\nb1,Ann,Bob\n")
    pairings = Pairings(str(path), check_every_s=0)
    assert pairings.get("b1").white == "Ann"
    path.unlink()
    assert pairings.get("b1").white == "Ann"
    assert pairings.problem is not None and "round.csv" in pairings.problem


def test_the_pgn_has_the_roster_the_pairing_and_the_moves() -> None:
    game = Game()
    for uci in ("e2e4", "e7e5", "g1f3"):
        game.push_uci(uci)
    text = board_pgn("b1", MirroredGame(game), Pairing("4", "2", "Ann", "Bob", "2100", "1950"))
    for tag in ('[Round "4"]', '[White "Ann"]', '[Black "Bob"]', '[Result "*"]',
                '[Board "2"]', '[WhiteElo "2100"]', '[Event ', '[Site ', '[Date '):  # fmt: skip
        assert tag in text
    assert text.rstrip().endswith("1. e4 e5 2. Nf3 *")


def test_a_chess960_game_has_its_tags_and_a_finished_one_its_result() -> None:
    start = Position.from_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
                              chess960=True)  # fmt: skip
    game = Game(start)
    game.push_uci("g2g3")
    text = board_pgn("b2", MirroredGame(game, result="0-1", reason="resignation"), Pairing())
    assert '[Variant "Chess960"]' in text and '[SetUp "1"]' in text
    assert '[Round "?"]' in text and '[White "?"]' in text
    assert '[Result "0-1"]' in text and text.rstrip().endswith("0-1")


def test_a_timed_game_from_the_boards_stream_has_its_clocks_in_the_pgn() -> None:
    board = Board("b3")
    fen = Position.standard().fen()
    stream: list[dict[str, object]] = [
        {"type": "effect", "seq": 1, "event": "new_game", "t_ms": 0, "game": 0, "fen": fen,
         "time_control": "5+3"},
        {"type": "effect", "seq": 2, "event": "move", "t_ms": 1, "game": 0, "uci": "e2e4",
         "san": "e4", "fen": "", "ply": 1, "clock": {"white_ms": 299_000, "black_ms": 300_000}},
        {"type": "effect", "seq": 3, "event": "move", "t_ms": 2, "game": 0, "uci": "e7e5",
         "san": "e5", "fen": "", "ply": 2, "clock": {"white_ms": 299_000, "black_ms": 61_500}},
    ]  # fmt: skip
    for wire in stream:
        message, _problem = read_board_message(wire)
        assert message is not None
        board.deliver(message)
    text = board_pgn("b3", board.mirror.current, Pairing())
    assert '[TimeControl "300+3"]' in text
    assert "1. e4 {[%clk 0:04:59]} 1... e5 {[%clk 0:01:01]}" in text
