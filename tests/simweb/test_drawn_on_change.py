"""What the pages draw (board.js, in Debian's chromium) is written to the page only where
it changed: a state comes each second while a clock runs, most often with the same board
and the same moves, and a write costs the browser a style, a layout and a paint."""

from __future__ import annotations

from typing import Any

import pytest

from tests.simweb.page import bare_page

MARKUP = """<div id="board"></div><ol id="moves"></ol>
<div id="clocks" hidden><span id="clock-black"></span><span id="clock-white"></span></div>"""
# Each write inside the element, as the id of the nearest element that has one.
WATCH = """selector => {
  window.writes = [];
  new MutationObserver(records => {
    for (const r of records) {
      let at = r.target.nodeType === Node.TEXT_NODE ? r.target.parentElement : r.target;
      while (!at.id && !(at.dataset && at.dataset.square)) at = at.parentElement;
      writes.push(at.id || at.dataset.square);
    }
  }).observe(document.querySelector(selector),
             {subtree: true, childList: true, characterData: true, attributes: true});
}"""
START = {
    **{f"{file}2": "P" for file in "abcdefgh"},
    **{f"{file}7": "p" for file in "abcdefgh"},
    **dict(zip([f"{f}1" for f in "abcdefgh"], "RNBQKBNR", strict=True)),
    **dict(zip([f"{f}8" for f in "abcdefgh"], "rnbqkbnr", strict=True)),
}


@pytest.fixture
def bare(page_in_tab: Any) -> Any:
    """A page with nothing but the board, the moves, the clocks and board.js."""
    page = bare_page(page_in_tab, MARKUP)
    page.evaluate("buildSquares(document.getElementById('board'), false)")
    return page


def taken(page: Any) -> list[str]:
    written: list[str] = page.evaluate("() => writes.splice(0)")
    return written


def test_a_board_drawn_again_the_same_is_not_written(bare: Any) -> None:
    bare.evaluate(WATCH, "#board")
    leds = ["#000000"] * 64
    leds[12] = "#00ff00"  # e2
    draw = "s => drawSquares(document.getElementById('board'), s)"
    state = {"leds": leds, "roles": {"e2": "lifted"}, "pieces": START}
    bare.evaluate(draw, state)
    assert "e2" in taken(bare)
    bare.evaluate(draw, state)
    assert taken(bare) == []
    # The pawn on e4: its two squares only.
    moved = {**START, "e4": "P"}
    del moved["e2"]
    bare.evaluate(draw, {"leds": ["#000000"] * 64, "roles": {}, "pieces": moved})
    assert set(taken(bare)) == {"e2", "e4"}
    assert bare.get_attribute('.sq[data-square="e4"]', "aria-label") == "e4 white pawn"


def test_moves_drawn_again_the_same_are_not_written(bare: Any) -> None:
    bare.evaluate(WATCH, "#moves")
    draw = "san => drawMoves(document.getElementById('moves'), san)"
    bare.evaluate(draw, ["e4", "e5", "Nf3"])
    assert taken(bare)
    bare.evaluate(draw, ["e4", "e5", "Nf3"])
    assert taken(bare) == []
    bare.evaluate(draw, ["e4", "e5", "Nf3", "Nc6"])
    assert taken(bare)
    assert bare.locator("#moves li").all_inner_texts() == ["e4 e5", "Nf3 Nc6"]


def test_a_clock_is_written_only_when_its_text_changes(bare: Any) -> None:
    bare.evaluate(WATCH, "#clocks")

    def draw(white_ms: float, black_ms: float) -> list[str]:
        bare.evaluate(
            "([w, b]) => drawClocks(document.getElementById('clocks'),"
            " {white_ms: w, black_ms: b, running: 'white'}, false)",
            [white_ms, black_ms],
        )
        return taken(bare)

    assert set(draw(299_950, 300_000)) == {"clocks", "clock-white", "clock-black"}
    # A tenth, then most of a second later: both clocks show what they showed.
    assert draw(299_850, 300_000) == []
    assert draw(299_001, 300_000) == []
    assert draw(298_999, 300_000) == ["clock-white"]
    assert bare.inner_text("#clock-white") == "▶ White 4:58"
    assert bare.inner_text("#clock-black") == "Black 5:00"
