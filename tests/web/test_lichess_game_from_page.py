"""A whole Lichess game from the phone and the board alone: a phone (Debian's Chromium,
360 px) pairs with the code lit on the board, enters the Lichess token (refused once,
then taken; the field never shows it again), seeks a game, and the person plays it to
mate on the fake switches, carrying out the moves the page says the board lights. The
board is `reedboard run --fake`'s own (tests/opponents/lichess_board.py), Lichess the
stand-in over real HTTP."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reedboard.lichess.token_store import TOKEN_FILE

from tests.host.lichess_standin import StandIn
from tests.opponents.lichess_board import TOKEN, LichessBoard, lichess_board
from tests.simweb.waiting import wait_for
from tests.web.page_waits import wait_selector, wait_shown

PHONE = {"width": 360, "height": 740}
PERSON = ["e2e4", "f1c4", "d1h5", "h5f7"]
STAND_IN = ["e7e5", "b8c6", "g8f6"]
LIT = re.compile(r"Black to play the move lit on the board: ([a-h][1-8])-([a-h][1-8])")


@pytest.fixture
def board(tmp_path: Path) -> Iterator[LichessBoard]:
    with StandIn(TOKEN) as lichess, lichess_board(tmp_path, lichess) as running:
        yield running


def pair(phone: Any, board: LichessBoard) -> None:
    phone.click("#pair-start")
    wait_for(lambda: len(board.state().marked or ()) == 4)
    code = "".join(square[1] for square in sorted(board.state().marked or ()))
    phone.fill("#pair-code", code)
    phone.press("#pair-code", "Enter")
    wait_selector(phone, "#controls:not([hidden])")


def said(phone: Any, text: str) -> None:
    wait_shown(phone, "text => document.querySelector('#message').textContent.includes(text)", text)


def test_a_whole_lichess_game_from_the_phone(board: LichessBoard, phone: Any) -> None:
    board.lichess.opponent_script = list(STAND_IN)
    phone.goto(board.url)
    wait_selector(phone, '.sq[data-square="e1"] .piece.w')
    pair(phone, board)
    wait_selector(phone, "#lichess-form:not([hidden])")
    phone.fill("#lichess-token", "lip_notthetoken")
    phone.press("#lichess-token", "Enter")
    said(phone, "Lichess refused the token")
    assert not (board.data_dir / TOKEN_FILE).exists()
    phone.fill("#lichess-token", TOKEN)
    phone.press("#lichess-token", "Enter")
    said(phone, "signed in to Lichess as BoardPlayer")
    assert phone.input_value("#lichess-token") == ""
    assert TOKEN not in phone.content()
    phone.fill("#opponent-spec", "lichess seek 10+0")
    phone.press("#opponent-spec", "Enter")
    wait_shown(
        phone,
        "() => document.querySelector('#opponent-now').textContent.includes('you play white')",
    )
    for ply, mine in enumerate(PERSON):
        board.make(mine)
        if ply == len(STAND_IN):
            break
        # The page showing the person's move, and then Lichess's answer lit.
        wait_shown(
            phone,
            "n => [...document.querySelectorAll('#moves li')].map(li => li.textContent)"
            ".join(' ').split(/\\s+/).filter(w => w).length >= n"
            " && /lit on the board/.test(document.querySelector('#waiting').textContent)",
            2 * ply + 1,
        )
        lit = LIT.fullmatch(phone.locator("#waiting").inner_text())
        assert lit is not None, phone.locator("#waiting").inner_text()
        assert lit.group(1) + lit.group(2) == STAND_IN[ply]
        board.make(STAND_IN[ply])
        wait_for(lambda: board.plies() == 2 * ply + 2)  # noqa: B023 - called at once
    wait_shown(phone, "() => document.querySelector('#result').textContent !== ''")
    assert "White wins" in phone.locator("#result").inner_text()
    moves = " ".join(phone.locator("#moves li").all_inner_texts()).split()
    assert [m for m in moves if not m.endswith(".")] == [
        "e4",
        "e5",
        "Bc4",
        "Nc6",
        "Qh5",
        "Nf6",
        "Qxf7#",
    ]
    wait_for(lambda: board.lichess.status == "mate")
    assert board.lichess.moves() == list(board.state().moves)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
