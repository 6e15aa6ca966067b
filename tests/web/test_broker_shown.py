"""Broker trouble told to the people at the board, against a real Mosquitto and Debian's
Chromium at a phone's size: a broker never reached, one that refuses the board's
password, one that goes away mid-game and comes back. Each time the board's picture
carries the link's state (`broker`), the page shows it in a status line a screen reader
announces once per change (not at each picture the board sends), the voice says the
trouble once and its end once, and neither the page nor the picture names the broker's
address, the board's user or its password."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reedboard.link.broker_status import BrokerStatus, status_words

from tests.relay.broker import free_port, running_broker
from tests.simweb.waiting import wait_for
from tests.web.broker_board import BrokerBoard, broker_board, guarded_broker
from tests.web.conftest import PHONE
from tests.web.page_waits import wait_selector, wait_shown

DOWN = "The broadcast is down. The board keeps the game."
BACK = "The broadcast is back."
SAID_S = 30.0  # a bound for a voice that never speaks, on a loaded machine


def words(link: str, reason: str | None = None) -> str:
    return status_words(BrokerStatus(link, 0, reason))  # type: ignore[arg-type]


def open_page(phone: Any, board: BrokerBoard) -> None:
    phone.goto(board.url)
    wait_selector(phone, '.sq[data-square="e1"] .piece.w')
    # Each write of the broker's line counted: a screen reader announces each one.
    phone.evaluate(
        """() => {
          window.brokerWrites = 0;
          new MutationObserver((records) => { window.brokerWrites += records.length; })
            .observe(document.getElementById("broker"),
                     {childList: true, characterData: true, subtree: true});
        }"""
    )


def wait_line(phone: Any, text: str) -> str:
    """Until the broker's line starts with `text`; the line then."""
    shown: str = wait_shown(
        phone,
        "w => { const t = document.getElementById('broker').textContent;"
        " return t.startsWith(w) && t; }",
        text,
    )
    return shown


def carried(phone: Any) -> dict[str, Any]:
    """The `broker` of the latest picture the page was sent."""
    broker = phone.evaluate("() => state.broker")
    assert isinstance(broker, dict)
    return broker


def pictures_come_and_line_stays(phone: Any, board: BrokerBoard) -> None:
    """A move is played: the page is sent new pictures (the move, more frames waiting for
    the broker), and the broker's line, whose state has not changed, is not written again
    (a screen reader would announce it again)."""
    writes = phone.evaluate("() => window.brokerWrites")
    line = phone.inner_text("#broker")
    unsent = carried(phone)["unsent"]
    board.play_e4()
    wait_shown(phone, "() => document.querySelector('#moves li')?.textContent.includes('e4')")
    wait_shown(phone, "n => state.broker.unsent > n", unsent)
    assert "for the broker, kept on the board" in phone.inner_text("#broker-unsent")
    assert phone.evaluate("() => window.brokerWrites") == writes
    assert phone.inner_text("#broker") == line


def leaks(phone: Any, *secrets: str) -> list[str]:
    """Which of `secrets` the page shows, holds in its document or was sent in its
    picture (the wall time left out: its digits are no one's secret)."""
    picture = phone.evaluate(
        "() => JSON.stringify({...state, broker: {...state.broker, since_ms: 0}})"
    )
    seen = phone.inner_text("body") + phone.content() + json.dumps(picture)
    return [secret for secret in secrets if secret in seen]


def test_a_broker_never_reached_is_shown_and_said_once(tmp_path: Path, phone: Any) -> None:
    port = free_port()  # nothing listens there
    with broker_board(tmp_path, f"mqtt://127.0.0.1:{port}") as board:
        open_page(phone, board)
        line = wait_line(phone, words("unreachable", "network"))
        assert "cannot reach the broker" in line and "(since " in line
        broker = carried(phone)
        assert (broker["link"], broker["reason"]) == ("unreachable", "network")
        assert broker["unsent"] >= 1  # the board's hello and state at least, kept for it
        pictures_come_and_line_stays(phone, board)
        # Many attempts failed meanwhile (one every 100 ms): one sentence.
        wait_for(lambda: bool(board.said_of_the_broadcast()), SAID_S)
        assert board.said_of_the_broadcast() == [DOWN]
        assert leaks(phone, "127.0.0.1", str(port)) == []


def test_a_refused_password_is_shown_without_the_credentials(tmp_path: Path, phone: Any) -> None:
    user, right, wrong = "club-board-seven", "right-horse-battery", "wrong-staple-42"
    with guarded_broker(tmp_path, user, right) as guarded:
        (tmp_path / "board.password").write_text(wrong + "\n")
        secret_file = tmp_path / "board.password"
        mqtt = f'username = "{user}"\npassword_file = "{secret_file}"\n'
        with broker_board(tmp_path, guarded.url, mqtt) as board:
            open_page(phone, board)
            line = wait_line(phone, words("refused", "password"))
            assert "refused the board's user name or password" in line
            # The longest words, on the smallest phone: nothing wider than its screen.
            assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            broker = carried(phone)
            assert (broker["link"], broker["reason"]) == ("refused", "password")
            # Mosquitto logs each refusal: a few of them, still one sentence.
            guarded.wait_logged("not authorised")
            wait_for(lambda: guarded.logged_since_start().count("not authorised") >= 3, SAID_S)
            pictures_come_and_line_stays(phone, board)
            assert board.said_of_the_broadcast() == [DOWN]
            assert leaks(phone, user, right, wrong, str(secret_file), "127.0.0.1",
                         str(guarded.port)) == []  # fmt: skip


def test_a_broker_lost_then_back_is_shown_and_said_once_each(tmp_path: Path, phone: Any) -> None:
    with running_broker(tmp_path) as broker, broker_board(tmp_path, broker.url) as board:
        open_page(phone, board)
        wait_line(phone, words("connected"))
        writes = phone.evaluate("() => window.brokerWrites")
        wait_shown(phone, "() => document.getElementById('broker-unsent').hidden")
        broker.kill()
        lost = wait_line(phone, words("lost"))
        assert carried(phone)["link"] == "lost"
        wait_for(lambda: board.said_of_the_broadcast() == [DOWN], SAID_S)
        assert phone.evaluate("() => window.brokerWrites") == writes + 1
        # A move while the broker is away: on the page, and waiting for the broker.
        pictures_come_and_line_stays(phone, board)
        assert phone.inner_text("#broker") == lost
        broker.start()  # on its port again, its persisted session with it
        wait_line(phone, words("connected"))
        wait_shown(phone, "() => document.getElementById('broker-unsent').hidden")
        assert carried(phone)["unsent"] == 0  # the broker took the move
        wait_for(lambda: board.said_of_the_broadcast() == [DOWN, BACK], SAID_S)
        assert phone.evaluate("() => window.brokerWrites") == writes + 2
        assert board.said_of_the_broadcast() == [DOWN, BACK]
        assert leaks(phone, "127.0.0.1", str(broker.port)) == []
