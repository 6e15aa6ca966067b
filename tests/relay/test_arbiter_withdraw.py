"""A correction the board refuses, withdrawn by the arbiter, with real parts: a real
Mosquitto, the relay and a fake board on threads of the test's process. The board's game ended by the kings'
resignation, so it refuses to take moves back; the broadcast shows the arbiter's cut until
the arbiter withdraws the correction, then the board's whole game and result again, also
after a restart of the relay. One the board carried out cannot be withdrawn."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.relay import board_scripts
from tests.relay.board_thread import board_of
from tests.relay.broker import Broker, running_broker
from tests.relay.test_arbiter_console import (
    QUICK,
    post,
    relay_urls,
    scripted_board,
    summary,
    until,
)
from tests.relay.test_relay_end_to_end import get

MOVES = 4  # the quiet opening's knight moves, then both kings: 1-0


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def staying_up(command: list[str]) -> list[str]:
    """A scripted board that stays up after its script, to answer the relay's commands."""
    return [part for part in command if part != "--until-done"]


def corrections(console: str, board_id: str) -> list[dict[str, Any]]:
    """The board's corrections as the console lists them."""
    base, _, token = console.partition("/arbiter?token=")
    request = urllib.request.Request(
        f"{base}/arbiter/api/boards", headers={"X-Arbiter-Token": token}
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        listed = json.loads(answer.read())
    found: list[dict[str, Any]] = [b for b in listed["boards"] if b["id"] == board_id]
    return list(found[0]["corrections"]) if found else []


def test_a_refused_correction_cuts_the_broadcast_until_withdrawn(
    broker: Broker, tmp_path: Path
) -> None:
    resigned = board_scripts.resignation().text()  # the board stays up: it has to answer
    db = tmp_path / "relay.sqlite"
    with (
        relay_urls(broker, db) as (page, console, _relay),
        board_of(staying_up(scripted_board(broker, tmp_path, "b1", resigned))),
    ):
        until(
            lambda: summary(page, "b1").get("result") == "1-0",
            "b1's resignation",
            lambda: json.dumps(summary(page, "b1")),
        )
        assert post(console, "correct", {"board": "b1", "ply": 3, "note": "set up wrong"}) == 200
        until(
            lambda: [c["state"] for c in corrections(console, "b1")] == ["refused"],
            "the board's refusal",
            lambda: json.dumps(corrections(console, "b1")),
        )
        (refused,) = corrections(console, "b1")
        assert "resignation" in refused["answer"]  # the board's own words
        assert summary(page, "b1")["ply"] == 2  # the arbiter's cut stands meanwhile
        # Bad input changes nothing: an unknown number, a number that is not one.
        assert post(console, "withdraw", {"board": "b1", "number": 999}) == 404
        assert post(console, "withdraw", {"board": "b1", "number": "1"}) == 400
        assert post(console, "withdraw", {"board": "nope", "number": refused["number"]}) == 404
        assert summary(page, "b1")["ply"] == 2

        assert post(console, "withdraw", {"board": "b1", "number": refused["number"]}) == 200
        shown = summary(page, "b1")  # at once
        assert (shown["ply"], shown["result"]) == (MOVES, "1-0")
        assert corrections(console, "b1")[0]["state"] == "withdrawn"
        assert post(console, "withdraw", {"board": "b1", "number": refused["number"]}) == 200
    with relay_urls(broker, db) as (page, _console, _relay):
        pgn = get(page + "boards/b1.pgn")
    assert "Arbiter" not in pgn and "cancelled" not in pgn
    assert " ".join(pgn.split("\n\n", 1)[1].split()) == "1. Nf3 Nf6 2. Nc3 Nc6 {Black resigns} 1-0"


def test_a_correction_the_board_carried_out_cannot_be_withdrawn(
    broker: Broker, tmp_path: Path
) -> None:
    with relay_urls(broker, tmp_path / "relay.sqlite") as (page, console, _relay):
        board = staying_up(scripted_board(broker, tmp_path, "b1", QUICK))
        with board_of(board):
            until(lambda: summary(page, "b1").get("ply") == 3, "2.Nf3 at the relay")
            assert post(console, "correct", {"board": "b1", "ply": 3}) == 200
            until(
                lambda: [c["state"] for c in corrections(console, "b1")] == ["done"],
                "the board's takeback",
                lambda: json.dumps(corrections(console, "b1")),
            )
        (done,) = corrections(console, "b1")
        assert post(console, "withdraw", {"board": "b1", "number": done["number"]}) == 400
        assert corrections(console, "b1")[0]["state"] == "done"
        assert summary(page, "b1")["ply"] == 2
