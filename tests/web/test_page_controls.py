"""The page's game controls in Debian's Chromium at a phone's size, against a real
`reedboard run --fake` whose switches are played live from its stdin: the promotion
piece chosen on the page, by keyboard, is the piece the pawn becomes on the board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.board_process import running_board
from tests.web.test_page_browser import pair_by_keyboard

PHONE = {"width": 360, "height": 740}
PROMOTING = "@start fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1"


@pytest.mark.parametrize(("piece", "san"), [("n", "a8=N"), ("q", "a8=Q+")])
def test_the_piece_chosen_on_the_page_is_the_promoted_one(
    tmp_path: Path, phone: Any, piece: str, san: str
) -> None:
    with running_board(tmp_path, None, live=PROMOTING) as board:
        phone.goto(board.url)
        phone.wait_for_selector('.sq[data-square="a7"] .piece.w')
        pair_by_keyboard(phone, board)
        phone.focus("#promotion")
        phone.select_option("#promotion", piece)
        phone.keyboard.press("Tab")  # to its button, and pressed by keyboard
        assert phone.evaluate("document.activeElement.id") == "set-promotion"
        phone.keyboard.press("Enter")
        phone.wait_for_function("() => document.querySelector('#message').textContent === 'Done.'")
        board.play(["+0 lift a7", "+300 place a8"])
        phone.wait_for_function(
            "() => document.querySelector('#moves').textContent.includes('a8=')"
        )
        assert phone.locator("#moves li").all_inner_texts() == [san]
        assert board.host.state()["moves"] == [f"a7a8{piece}"]
        assert phone.locator('.sq[data-square="a8"] .piece.w').count() == 1
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
