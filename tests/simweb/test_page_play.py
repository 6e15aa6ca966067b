"""The simulator's page in a real browser, as a player first meets it: a capture by two
clicks, the very first sentence of a fresh simulator in the live region, and a new game
that sets the pieces up without a word about the last game's."""

from __future__ import annotations

from typing import Any

from tests.simweb.page import Board, expect_said, load_page, spoken, until
from tests.simweb.simproc import running_sim

# Keeps the largest number of pieces the page has shown in hand since it was set.
WATCH_HAND = """() => {
    window.mostInHand = 0;
    const hand = document.getElementById("hand");
    new MutationObserver(() => {
        window.mostInHand = Math.max(window.mostInHand, hand.childElementCount);
    }).observe(hand, {childList: true});
}"""


def test_a_click_on_an_opponent_s_piece_captures_it_at_once(board: Board) -> None:
    page, square = board.page, board.square
    board.type_line("e4")
    board.expect_move("e4")
    board.type_line("d5")
    board.expect_move("d5")
    page.evaluate(WATCH_HAND)
    square("e4").click()
    page.wait_for_selector('#hand span[data-piece="P"]')
    square("d5").click()
    board.expect_move("exd5")
    page.wait_for_selector('#tray span[data-piece="p"]')
    until(page, "() => document.querySelectorAll('#hand span').length === 0")
    assert page.evaluate("() => window.mostInHand") == 1
    assert square("d5").locator(".piece.w").count() == 1
    assert page.locator("#notice").inner_text() == ""


def test_the_first_sentence_of_a_fresh_simulator_is_shown(page_in_tab: Any) -> None:
    with running_sim() as sim:
        page = page_in_tab
        load_page(page, sim.url)
        board = Board(page)
        # The game stands once the status says whose move it is: a move typed while the
        # fresh board is still being read as set up would be taken for set-up.
        until(
            board.page,
            "() => document.querySelector('#status').textContent.startsWith('White to move')",
        )
        board.type_line("e2e4")
        board.expect_move("e4")
        expect_said(board, "Pawn e2 to e4.")
        assert spoken(page) == ["Pawn e2 to e4."]


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
