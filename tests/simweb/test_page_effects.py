"""The simulator's Effects panel in a real browser: the board's effects in words, the
link's JSON behind a toggle."""

from __future__ import annotations

from tests.simweb.page import Board, until


def test_the_effects_are_shown_in_words(board: Board) -> None:
    page = board.page
    board.type_line("e4")
    board.expect_move("e4")
    board.type_line("Nc6")
    board.expect_move("Nc6")
    until(
        page, "() => document.querySelector('#effects li').textContent.endsWith('1... Nc6 (b8c6)')"
    )
    shown = page.locator("#effects li").all_inner_texts()
    assert any(line.endswith("1. e4 (e2e4)") for line in shown), shown
    assert any(line.endswith("Touched: black knight on b8") for line in shown), shown
    assert not any("{" in line for line in shown), shown
    # The link's own JSON, for developers, behind a toggle.
    assert page.locator("#effects-json li").count() == 0
    page.click("#effects-raw summary")
    until(page, "() => document.querySelectorAll('#effects-json li').length > 0")
    assert '"event": "move"' in page.locator("#effects-json").inner_text().replace('":"', '": "')
