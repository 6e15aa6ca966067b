"""The board's page in Debian's Chromium at a phone's size (360 px), against a real
`reedboard run --fake --web 127.0.0.1:0`: moves played on the fake board appear on the
page and in its live region, and a move the host lights over the serial link is on the
page at once, not at its next refresh; a phone pairs by keyboard with the code read at
the board and then starts a game; a malformed command is a clear error that changes
nothing; a page whose socket drops shows the board as it is now once it is back."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from reedboard.web.feed import REFRESH_S

from tests.simweb.waiting import wait_for
from tests.web.board_process import RunningBoard, opening_lines, running_board
from tests.web.page_waits import wait_selector, wait_shown
from tests.web.shown_times import drawn_ms, forget_drawn, lit_words, watch_waiting

PHONE = {"width": 360, "height": 740}


def open_board(page: Any, board: RunningBoard) -> None:
    page.goto(board.url)
    wait_selector(page, '.sq[data-square="e1"] .piece.w')


def shown_moves(page: Any) -> list[str]:
    return " ".join(page.locator("#moves li").all_inner_texts()).split()


def wait_moves(page: Any, count: int) -> None:
    wait_shown(
        page,
        "n => document.querySelectorAll('#moves li').length * 2 >= n"
        " && [...document.querySelectorAll('#moves li')].map(li => li.textContent)"
        ".join(' ').split(' ').length >= n",
        count,
    )


def pair_by_keyboard(page: Any, board: RunningBoard) -> None:
    page.focus("#pair-start")
    page.keyboard.press("Enter")
    code = board.host.pairing_code()
    page.focus("#pair-code")
    page.keyboard.type(code)
    page.keyboard.press("Enter")
    wait_selector(page, "#controls:not([hidden])")


def lit_by_the_host_at_once(phone: Any, board: RunningBoard, lit: list[str | None]) -> None:
    """The host lights each of `lit` (Black to move) as soon as the page drew the one before;
    the page draws them at once. One that learned of them only on its refresh (once a
    second) drew each of them about a second after its command."""
    watch_waiting(phone)
    took: list[float] = []
    for uci in lit:
        forget_drawn(phone)
        sent = time.time() * 1000
        assert board.host.ask({"type": "show", "uci": uci})["type"] == "ack"
        took.append(drawn_ms(phone, lit_words(uci, "Black")) - sent)
        if uci is not None:
            label = phone.locator(f'.sq[data-square="{uci[2:]}"]').get_attribute("aria-label")
            assert label.endswith(", hint")
    assert statistics.mean(took) < REFRESH_S * 1000 / 2, f"drawn after {took} ms"


def test_moves_and_what_the_host_lights_appear_on_a_phone(tmp_path: Path, phone: Any) -> None:
    with running_board(tmp_path, live="") as board:
        open_board(phone, board)
        assert phone.locator("#pairing").is_visible()  # watching: no controls
        assert not phone.locator("#controls").is_visible()
        board.play(opening_lines(0, 3))  # played once the page is open: seen arriving
        wait_moves(phone, 3)
        assert shown_moves(phone)[:3] == ["e4", "e5", "Nf3"]
        wait_shown(
            phone,
            "() => [...document.querySelectorAll('#said li')].some(li => li.textContent === '2. Nf3')",
        )
        assert phone.locator('.sq[data-square="f3"]').get_attribute("aria-label") == (
            "f3 white knight, to"
        )
        assert phone.locator("#waiting").inner_text() == "Black to move"
        # It fits the phone: nothing to scroll sideways.
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        lit_by_the_host_at_once(phone, board, ["b8c6", "g8f6", "d7d6", "f8c5", "a7a6", None])


def test_a_phone_pairs_by_keyboard_then_starts_a_game(tmp_path: Path, phone: Any) -> None:
    with running_board(tmp_path) as board:
        open_board(phone, board)
        pair_by_keyboard(phone, board)
        wait_shown(
            phone, "() => document.querySelector('#status').textContent === 'connected, paired'"
        )
        first = board.host.state()["game"]
        phone.select_option("#mode", "strict")
        phone.focus("#new-game")
        phone.keyboard.press("Enter")

        def started() -> bool:
            state = board.host.state()
            return bool(state["game"] != first and state["mode"] == "strict")

        wait_for(started)
        # The device is remembered: a new page in the same phone is paired at once.
        again = phone.context.new_page()
        open_board(again, board)
        wait_selector(again, "#controls:not([hidden])")


def test_a_malformed_command_is_a_clear_error_and_changes_nothing(
    tmp_path: Path, phone: Any
) -> None:
    with running_board(tmp_path) as board:
        open_board(phone, board)
        pair_by_keyboard(phone, board)
        wait_shown(phone, "() => paired === true")
        before = board.host.state()
        phone.evaluate("command({type: 'new_game', variant: 'chess961'})")
        wait_shown(
            phone, "() => document.querySelector('#message').textContent.includes('variant')"
        )
        after = board.host.state()
        assert (after["game"], after["moves"]) == (before["game"], before["moves"])


def test_a_page_back_after_its_socket_dropped_shows_the_board_as_it_is_now(
    tmp_path: Path, phone: Any
) -> None:
    with running_board(tmp_path, live="") as board:
        open_board(phone, board)
        board.play(opening_lines(0, 1))
        wait_moves(phone, 1)
        # The socket drops and stays down (the Wi-Fi gone) while the game goes on.
        phone.evaluate("socket.onclose = null; socket.close()")
        seen = len(shown_moves(phone))
        board.play(opening_lines(seen, seen + 2))
        wait_for(lambda: len(board.host.state()["moves"]) >= seen + 2, timeout_s=60)
        now = board.host.state()
        assert len(now["moves"]) >= seen + 2 and len(shown_moves(phone)) == seen
        phone.evaluate("connect()")  # the Wi-Fi back: the page's own reconnection
        wait_moves(phone, len(now["moves"]))
        assert len(shown_moves(phone)) >= len(now["moves"])
        # And a socket closed by the other side comes back by itself.
        phone.evaluate("socket.close()")
        wait_shown(
            phone, "() => document.querySelector('#status').textContent.startsWith('disconnected')"
        )
        wait_shown(
            phone, "() => document.querySelector('#status').textContent === 'connected: watching'"
        )
