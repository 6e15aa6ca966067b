"""The evidence on the arbiter's console with real parts: a real Mosquitto, the relay and
a fake board on threads of the test's process. A piece of the side not to move lifted and put back shows as
an ambiguous touch at its ply, the export is CSV, and both are the console's only."""

from __future__ import annotations

import csv
import io
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.relay.board_thread import board_of
from tests.relay.broker import Broker, running_broker
from tests.relay.test_arbiter_console import relay_urls, scripted_board, until

# 1.e4, then White's d-pawn lifted and put back while Black is to move, then 1...e5.
TOUCHED = """@start standard
1000 lift e2
1400 place e4
3000 lift d2
3400 place d2
5000 lift e7
5400 place e5
"""


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def asked(console: str, path: str, token: str | None = None) -> tuple[int, str]:
    base, _, query = console.partition("/arbiter?token=")
    request = urllib.request.Request(
        f"{base}{path}", headers={"X-Arbiter-Token": query if token is None else token}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, ""


def rows(console: str, query: str) -> list[dict[str, Any]]:
    status, text = asked(console, f"/arbiter/api/evidence?{query}")
    return list(json.loads(text)["rows"]) if status == 200 else []


def test_the_console_shows_and_exports_a_touch(broker: Broker, tmp_path: Path) -> None:
    with relay_urls(broker, tmp_path / "relay.sqlite") as (page, console, _relay):
        with board_of(scripted_board(broker, tmp_path, "b1", TOUCHED)):
            until(
                lambda: any(
                    r["kind"] == "move" and r["ply"] == 2 for r in rows(console, "board=b1")
                ),
                "the board's second move in the evidence",
                lambda: json.dumps(rows(console, "board=b1"), indent=1),
            )
        at_one = rows(console, "board=b1&ply=1")
        touches = [r for r in at_one if r["kind"] == "touch"]
        assert any(
            "White's pawn lifted from d2 while Black was to move: AMBIGUOUS" in r["text"]
            for r in touches
        ), at_one
        assert all(r["ply"] == 1 for r in at_one)
        status, text = asked(console, "/arbiter/evidence.csv?board=b1")
        assert status == 200
        lines = list(csv.reader(io.StringIO(text.split("\n", 1)[1])))
        assert lines[0][:2] == ["board", "game"]
        assert any("lifted from d2" in line[-1] for line in lines[1:])
        # The console's only: no token, no evidence; the public page has none.
        assert asked(console, "/arbiter/api/evidence?board=b1", token="wrong")[0] in (401, 403)
        assert asked(console, "/arbiter/evidence.csv?board=b1", token="wrong")[0] in (401, 403)
        assert asked(console, "/arbiter/api/evidence?board=nope")[0] == 404
        assert asked(console, "/arbiter/api/evidence?board=b1&ply=x")[0] == 400
        status, _ = asked(page.rstrip("/") + "/arbiter?token=", "/arbiter/evidence.csv?board=b1")
        assert status == 404
