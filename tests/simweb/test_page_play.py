"""The simulator's page in a real browser, as a player first meets it: a capture by two
clicks, the very first sentence of a fresh simulator in the live region, and a new game
that sets the pieces up without a word about the last game's."""

from __future__ import annotations

from typing import Any

from tests.simweb.page import Board, expect_said, open_page, spoken
from tests.simweb.simproc import running_sim


def test_the_first_sentence_of_a_fresh_simulator_is_shown(browser: Any) -> None:
    with running_sim() as sim:
        page = open_page(browser, sim.url)
        try:
            board = Board(page)
            board.type_line("e2e4")
            board.expect_move("e4")
            expect_said(board, "Pawn e2 to e4.")
            assert spoken(page) == ["Pawn e2 to e4."]
        finally:
            page.close()


def test_new_game_says_no_illegal_move(board: Board) -> None:
    for move in ("e4", "c5", "c3"):
        board.type_line(move)
        board.expect_move(move)
    expect_said(board, "Pawn c2 to c3.")
    board.new_game()
    expect_said(board, "New game, white to move.")
    board.type_line("d4")  # its sentence comes after any about the new game's pieces
    expect_said(board, "Pawn d2 to d4.")
    said = spoken(board.page)
    after = said[len(said) - 1 - said[::-1].index("New game, white to move.") :]
    assert after == ["New game, white to move.", "Pawn d2 to d4."], said
