"""The page's game controls in Debian's Chromium at a phone's size, against a real
`reedboard run --fake` whose switches are played live from its stdin: the promotion
piece chosen on the page, by keyboard, is the piece the pawn becomes on the board, for
that promotion only; the page's live log says the choice and then the move as the board
made it (a8=N), and a promotion changed at the board afterwards is told again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.board_process import running_board
from tests.web.page_waits import wait_selector, wait_shown
from tests.web.test_page_browser import pair_by_keyboard

PHONE = {"width": 360, "height": 740}


def said(phone: Any) -> list[str]:
    """The page's live log (what a screen reader reads out), oldest first."""
    return list(phone.locator("#said li").all_inner_texts())


def wait_said(phone: Any, text: str) -> None:
    """Until the live log's latest line is `text`."""
    wait_shown(
        phone,
        "text => { const lines = document.querySelectorAll('#said li');"
        " return lines.length && lines[lines.length - 1].textContent === text; }",
        text,
    )


def test_the_piece_chosen_on_the_page_is_the_promoted_one_and_the_log_says_it(
    tmp_path: Path, phone: Any
) -> None:
    start = "@start fen 4k3/P6P/8/8/8/8/8/4K3 w - - 0 1"
    with running_board(tmp_path, None, live=start) as board:
        phone.goto(board.url)
        wait_selector(phone, '.sq[data-square="a7"] .piece.w')
        pair_by_keyboard(phone, board)
        phone.focus("#promotion")
        phone.select_option("#promotion", "n")
        phone.keyboard.press("Tab")  # to its button, and pressed by keyboard
        assert phone.evaluate("document.activeElement.id") == "set-promotion"
        phone.keyboard.press("Enter")
        wait_said(phone, "Next promotion: knight")
        board.play(["+0 lift a7", "+300 place a8"])
        wait_said(phone, "1. a8=N")
        assert phone.locator("#moves li").all_inner_texts() == ["a8=N"]
        assert phone.locator('.sq[data-square="a8"] .piece.w').count() == 1
        # The choice was for that promotion only: the next pawn becomes a queen.
        board.play(["+0 lift e8", "+300 place d7", "+600 lift h7", "+300 place h8"])
        wait_said(phone, "2. h8=Q")
        assert said(phone)[-3:] == ["1. a8=N", "1... Kd7", "2. h8=Q"]
        assert board.host.state()["moves"] == ["a7a8n", "e8d7", "h7h8q"]
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_promotion_changed_at_the_board_is_told_again_as_the_move_it_became(
    tmp_path: Path, phone: Any
) -> None:
    """The board's own way to under-promote: the new queen stands, then the player lifts
    and puts back their knight before the opponent moves: the move becomes a8=N."""
    start = "@start fen 4k3/P7/8/8/8/8/8/N3K3 w - - 0 1"
    with running_board(tmp_path, None, live=start) as board:
        phone.goto(board.url)
        wait_selector(phone, '.sq[data-square="a7"] .piece.w')
        board.play(["+0 lift a7", "+300 place a8"])
        wait_said(phone, "1. a8=Q+")
        board.play(["+0 lift a1", "+300 place a1"])
        wait_said(phone, "1. a8=N")
        assert phone.locator("#moves li").all_inner_texts() == ["a8=N"]
        assert board.host.state()["moves"] == ["a7a8n"]
