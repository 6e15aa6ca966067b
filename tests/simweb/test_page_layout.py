"""Where the simulator's page puts things, measured in a real browser at a laptop's
1280x900 and a phone's 360x740: the clocks beside the board, and the controls, the moves
and the clocks still in sight after the board has said long sentences (the voice log
keeps to a few lines and scrolls)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.simweb.page import Board, until

LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 740}
SLACK_PX = 2  # rounding of fractional layout


def box(page: Any, selector: str) -> dict[str, float]:
    """Where the element is on the page (not in the window, which may have scrolled)."""
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found) | {"y": found["y"] + page.evaluate("() => window.scrollY")}


def in_sight(page: Any, selector: str, size: dict[str, int]) -> None:
    """The element is wholly inside the window as the page opens (not scrolled)."""
    b = box(page, selector)
    assert b["y"] >= 0 and b["y"] + b["height"] <= size["height"] + SLACK_PX, (selector, b)
    assert b["x"] >= 0 and b["x"] + b["width"] <= size["width"] + SLACK_PX, (selector, b)


def timed_game_after_long_sentences(board: Board) -> None:
    """A timed game, a move, then the whole position said three times over."""
    page = board.page
    page.fill("#time-control", "5+3")
    page.click("#new-game")
    page.wait_for_selector("#clocks:not([hidden])")
    board.type_line("e4")
    board.expect_move("e4")
    for _ in range(3):
        board.type_line("?")
    until(
        page,
        "() => [...document.querySelectorAll('#spoken li')]"
        ".filter(li => li.textContent.startsWith('White: king e1')).length === 3",
    )
    page.fill("#time-control", "")
    page.evaluate("() => window.scrollTo(0, 0)")


@pytest.mark.parametrize("board", [LAPTOP], indirect=True)
def test_on_a_laptop_nothing_drops_out_of_sight(board: Board, artefacts: Path) -> None:
    page = board.page
    timed_game_after_long_sentences(board)
    for selector in ("#new-game", "#moves", "#clocks", "#board", "#move-text"):
        in_sight(page, selector, LAPTOP)
    # The clocks stand next to the board, Black's at the top and White's at the bottom.
    board_box, white, black = (
        box(page, "#board"),
        box(page, "#clock-white"),
        box(page, "#clock-black"),
    )
    for clock in (white, black):
        assert clock["x"] >= board_box["x"] + board_box["width"], (clock, board_box)
        assert board_box["y"] - SLACK_PX <= clock["y"] <= board_box["y"] + board_box["height"]
    assert black["y"] < white["y"]
    # The moves and the controls beside the board, not under it.
    assert box(page, "#new-game")["y"] < board_box["y"] + board_box["height"]
    page.screenshot(path=str(artefacts / "sim-laptop-long-sentences.png"))


@pytest.mark.parametrize("board", [PHONE], indirect=True)
def test_on_a_phone_the_clocks_are_under_the_board(board: Board, artefacts: Path) -> None:
    page = board.page
    before = box(page, "#new-game")["y"]
    timed_game_after_long_sentences(board)
    board_box, clocks = box(page, "#board"), box(page, "#clocks")
    below = clocks["y"] - (board_box["y"] + board_box["height"])
    assert 0 <= below <= 20, (clocks, board_box)
    in_sight(page, "#clocks", PHONE)
    # The voice log keeps to a few lines and scrolls, the latest sentence in sight: the
    # controls under it moved down by no more than those few lines.
    log = page.evaluate(
        "() => { const l = document.getElementById('spoken');"
        " return [l.clientHeight, l.scrollHeight, l.scrollTop]; }"
    )
    client, scroll, top = log
    assert client <= 200 and scroll > client, log
    assert top + client >= scroll - SLACK_PX, log
    assert box(page, "#new-game")["y"] - before <= 200 + box(page, "#clocks")["height"] + 20
    page.screenshot(path=str(artefacts / "sim-phone-long-sentences.png"), full_page=True)
