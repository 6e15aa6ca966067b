"""End to end in a real browser: the simulator's page played with the mouse.

Debian's chromium, driven by Playwright. A short game by clicks: a capture (the piece
taken is put beside the board) and a castling, the legal targets lit while a piece is
lifted, the move list at the end. Then what a chess player reads and does: a capture by
dragging onto a piece, illegal moves and touch-move said in words, the result in words,
a Chess960 set-up told as it goes, and the whole board on a phone's screen. Screenshots
are kept as test artefacts (REEDBOARD_ARTEFACTS names their folder).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.simweb.page import Board, expect_said, load_page, spoken, until
from tests.simweb.simproc import Sim


def test_a_short_game_by_clicking(board: Board, artefacts: Path) -> None:
    page, square = board.page, board.square

    def move(start: str, end: str, san: str) -> None:
        square(start).click()
        square(end).click()
        board.expect_move(san)

    # While the knight is lifted its legal targets are lit, in the strip's colours.
    square("g1").click()
    for target in ("f3", "h3"):
        page.wait_for_selector(f'.sq[data-square="{target}"][data-role="target"]')
    assert square("f3").locator(".led.on").count() == 1
    assert square("e4").get_attribute("data-role") is None
    square("f3").click()
    board.expect_move("Nf3")
    move("d7", "d5", "d5")
    move("g2", "g3", "g3")
    move("c8", "h3", "Bh3")
    # The capture, by two clicks: the black bishop is put beside the board and the
    # white one set down where it stood.
    square("f1").click()
    square("h3").click()
    board.expect_move("Bxh3")
    page.wait_for_selector('#tray span[data-piece="b"]')
    # A drag works as well as two clicks.
    board.drag("e7", "e6")
    board.expect_move("e6")
    # Castling, king first, by clicks.
    square("e1").click()
    square("g1").click()
    square("h1").click()
    square("f1").click()
    board.expect_move("O-O")
    moves = page.locator("#moves li").all_inner_texts()
    assert moves == ["Nf3 d5", "g3 Bh3", "Bxh3 e6", "O-O"]
    assert page.locator("#status").inner_text() == "Black to move"
    # A black knight lifted for the picture: its targets lit beside the last move.
    square("b8").click()
    page.wait_for_selector('.sq[data-square="c6"][data-role="target"]')
    shot = artefacts / "sim.png"
    page.screenshot(path=str(shot))
    print(f"screenshot: {shot}")
    assert shot.stat().st_size > 10_000
    square("b8").click()  # the knight back down


def test_a_drag_onto_an_opponent_s_piece_captures_it(board: Board) -> None:
    page = board.page
    board.drag("e2", "e4")
    board.expect_move("e4")
    board.drag("d7", "d5")
    board.expect_move("d5")
    # Dropped on the pawn: the pawn goes beside the board and the capture is made.
    board.drag("e4", "d5")
    board.expect_move("exd5")
    page.wait_for_selector('#tray span[data-piece="p"]')
    assert board.square("d5").locator(".piece.w").count() == 1
    assert board.square("e4").locator(".piece").inner_text() == ""
    assert "occupied" not in page.locator("#message").inner_text()
    assert page.locator("#notice").inner_text() == ""
    # Onto one's own piece it is refused, and the piece stays in the hand.
    board.drag("c8", "b7")
    board.expect_text("#message", "b7 holds a black pawn: put the bishop down elsewhere")
    page.wait_for_selector('#hand span[data-piece="b"]')
    board.square("c8").click()
    page.wait_for_selector('.sq[data-square="c8"] .piece.b')
    assert page.locator("#moves li").all_inner_texts() == ["e4 d5", "exd5"]


def test_illegal_moves_and_touch_move_are_said_in_words(board: Board, artefacts: Path) -> None:
    page = board.page
    # An illegal knight move: the page says what to put right, and clears once it is.
    board.drag("g1", "g4")
    board.expect_text("#notice", "Illegal: put the knight back on g1")
    board.drag("g4", "g1")
    board.expect_text("#notice", "")
    # Strict mode: the knight touched and put back must still move (FIDE 4.3a).
    page.select_option("#mode", "strict")
    until(page, "() => document.querySelector('#mode').value === 'strict'")
    board.square("g1").click()
    page.wait_for_selector('.sq[data-square="f3"][data-role="target"]')
    board.square("g1").click()
    board.expect_text("#notice", "")
    board.drag("b1", "c3")
    board.expect_text("#notice", "Touch-move (FIDE 4.3a): the touched knight on g1 must move")
    page.screenshot(path=str(artefacts / "sim-touch-move.png"))
    assert board.page.locator("#moves li").count() == 0


def test_the_result_is_said_in_words(board: Board, artefacts: Path) -> None:
    # The white king takes the last black piece: king against king, a dead draw.
    board.play_script("@start fen 4k3/8/8/8/8/8/3r4/4K3 w - - 0 1\n")
    board.page.wait_for_selector('.sq[data-square="d2"] .piece.b')
    board.drag("e1", "d2")
    board.expect_move("Kxd2")
    board.expect_text("#result", "Draw: insufficient material")
    board.expect_text("#status", "Draw: insufficient material")
    board.page.screenshot(path=str(artefacts / "sim-result.png"))


def test_a_chess960_set_up_is_told_as_it_goes(board: Board) -> None:
    page = board.page
    # Every status the page shows from the click on, kept as it changes.
    page.evaluate(
        """() => {
            window.statuses = [];
            const status = document.getElementById("status");
            new MutationObserver(() => window.statuses.push(status.textContent))
                .observe(status, {childList: true, characterData: true, subtree: true});
        }"""
    )
    page.select_option("#variant", "chess960")
    page.fill("#number", "0")
    page.click("#new-game")
    # Until the set-up is done and the game begins.
    until(
        page,
        "() => window.statuses.some(s => s.startsWith('Setting up'))"
        " && window.statuses.at(-1) === 'White to move'",
    )
    statuses = page.evaluate("() => window.statuses")
    assert "Setting up Chess960 position 0: place the rooks" in statuses, statuses
    assert "Setting up Chess960 position 0: place the pawns" in statuses, statuses
    assert not any("game over" in s or "script" in s for s in statuses), statuses


@pytest.mark.parametrize("board", [{"width": 360, "height": 640}], indirect=True)
def test_the_whole_board_fits_a_phone(board: Board, artefacts: Path) -> None:
    page = board.page
    box = page.locator("#board").bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    assert box["width"] > 300  # not shrunk to nothing either
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    # And it plays there as well, corner squares included.
    board.square("h2").click()
    board.square("h4").click()
    board.expect_move("h4")
    board.drag("a7", "a5")
    board.expect_move("a5")
    page.screenshot(path=str(artefacts / "sim-phone.png"), full_page=True)


def test_a_timed_game_shows_both_clocks_running_and_the_flag(board: Board, artefacts: Path) -> None:
    # 0.05 minutes (3 s) each: White moves at 1.4 s, then Black's time runs out.
    board.play_script("@clock 0.05+0\n@start standard\n1000 lift e2\n1400 place e4\n")
    page = board.page
    page.wait_for_selector("#clocks:not([hidden])")
    shown = page.locator("#clocks").inner_text()
    assert shown.startswith("▶ White 0:0") and "Black 0:03.0" in shown, shown
    board.expect_move("e4")
    # Black's clock runs now: it shows less than 3 s, then the flag.
    until(page, "() => /▶ Black 0:0[0-2]\\./.test(document.querySelector('#clocks').textContent)")
    board.expect_text("#result", "White wins on time")
    final = page.locator("#clocks").inner_text()
    assert final.endswith("Black 0:00.0") and "▶" not in final, final
    page.screenshot(path=str(artefacts / "sim-clocks.png"))


def test_a_new_game_with_a_time_control_and_then_without(board: Board) -> None:
    """The time control typed beside New game times that game; a bad one is named; an
    empty field makes the next game untimed, with nothing of the last one's clocks."""
    page = board.page
    page.fill("#time-control", "3 minutes")
    page.click("#new-game")
    until(page, "() => document.querySelector('#message').textContent !== ''")
    assert "clock" in page.locator("#message").inner_text()
    assert page.locator("#clocks").is_hidden()
    page.fill("#time-control", "3+2")
    page.click("#new-game")
    page.wait_for_selector("#clocks:not([hidden])")
    assert "Black 3:00" in page.locator("#clocks").inner_text()
    page.fill("#time-control", "")
    board.new_game()
    page.wait_for_selector("#clocks", state="hidden")
    page.focus("#move-text")
    page.keyboard.type("clock")
    page.keyboard.press("Enter")
    expect_said(board, "The game is not timed.")


def test_played_from_the_keyboard_alone_and_heard(board: Board, artefacts: Path) -> None:
    """A player who cannot see the board types moves and questions; the board's sentences
    come in the live region a screen reader reads, and go to the browser's speech."""
    page = board.page
    page.evaluate(
        "() => { window.heard = []; const speak = speechSynthesis.speak.bind(speechSynthesis);"
        " speechSynthesis.speak = (u) => { window.heard.push(u.text); speak(u); }; }"
    )
    log = page.locator("#spoken")
    assert log.get_attribute("role") == "log"
    assert log.get_attribute("aria-live") == "polite"

    type_line = board.type_line
    type_line("e2e4")
    board.expect_move("e4")
    expect_said(board, "Pawn e2 to e4.")
    type_line("Nf6")
    expect_said(board, "Knight g8 to f6.")
    type_line("?e4")
    expect_said(board, "e4: white pawn.")
    type_line("!")
    expect_said(board, "Last move: knight g8 to f6.")
    type_line("clock")
    expect_said(board, "The game is not timed.")
    type_line("e2e5")
    until(page, "() => document.querySelector('#message').textContent !== ''")
    assert "e2e5" in page.locator("#message").inner_text()
    type_line("e5")
    expect_said(board, "Pawn e4 to e5.")
    # In French, and a capture en passant typed in SAN.
    page.select_option("#language", "fr")
    until(page, "() => document.querySelector('#language').value === 'fr'")
    type_line("d5")
    expect_said(board, "Pion d7 d5.")
    type_line("exd6")
    expect_said(board, "Pion e5 prend d6 en passant.")
    type_line("?")
    expect_said(
        board,
        "Blancs : roi e1, dame d1, tours a1 et h1, fous c1 et f1, cavaliers b1 et g1, "
        "pions a2, b2, c2, d2, f2, g2, h2 et d6. Noirs : roi e8, dame d8, tours a8 et h8, "
        "fous c8 et f8, cavaliers f6 et b8, pions a7, b7, c7, e7, f7, g7 et h7. "
        "Trait aux noirs.",
    )
    assert page.locator("#moves li").all_inner_texts() == ["e4 Nf6", "e5 d5", "exd6"]
    heard = page.evaluate("() => window.heard")
    assert heard[-2:] == spoken(page)[-2:]
    assert "Pion e5 prend d6 en passant." in heard
    page.screenshot(path=str(artefacts / "sim-voice.png"))
    page.select_option("#language", "en")


def test_the_page_needs_nothing_from_outside(page_in_tab: Any, sim: Sim) -> None:
    """As the board's own page must (its contract): every request the page makes, its
    WebSocket included, goes to the simulator that served it."""
    origin = urlsplit(sim.url).netloc
    asked: list[str] = []
    page = page_in_tab
    listeners = {
        "request": lambda request: asked.append(request.url),
        "websocket": lambda socket: asked.append(socket.url),
    }
    for event, listener in listeners.items():
        page.on(event, listener)
    try:
        load_page(page, sim.url)
        until(page, "() => document.getElementById('status').textContent.includes('to move')")
    finally:  # the tab goes on to the module's next test without them
        for event, listener in listeners.items():
            page.remove_listener(event, listener)
    assert any(url.startswith("ws://") for url in asked), asked
    assert all(urlsplit(url).netloc == origin for url in asked), asked
