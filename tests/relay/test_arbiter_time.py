"""Time added from the arbiter's console, with real parts: a real Mosquitto, the relay
and a fake board on threads of the test's process. The console's form reaches the board, whose clock grows
and which says so; the broadcast shows an arbiter's comment at that ply (no variation),
also after a restart of the relay; bad input is refused with a reason."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from tests.relay.board_thread import FedLines, board_of, board_thread
from tests.relay.broker import Broker
from tests.relay.fake_board import quiet_board
from tests.relay.test_arbiter_console import (
    broker,
    console_page,
    post,
    relay_urls,
    scripted_board,
    summary,
    until,
)
from tests.relay.test_relay_end_to_end import get

__all__ = ["broker"]  # the fixture: a real Mosquitto

# A 5-minute game: 1.e4 e5 2.Nf3; Black thinks while the arbiter acts (the test writes
# the board's next lines once the board has the time), then plays 2...Nc6.
TIMED = """@start standard
@clock 5+0
1000 lift e2
1400 place e4
3000 lift e7
3400 place e5
5000 lift g1
5400 place f3
"""
THEN = "+1000 lift b8\n+400 place c6\n"  # timed after the line before, however late
UNTIMED = TIMED.replace("@clock 5+0\n", "") + "90000 lift b8\n90400 place c6\n"
# Black's thinking is the arbiter's time (wall time), times this: 2 minutes of it would
# take 30 s, far beyond a loaded machine's, before Black's clock shows less than 5 min.
PACE = "4"
COMMENT = "Arbiter: two minutes added to Black's clock (FIDE 7.5.5)}"


def listed(console: str, board_id: str) -> list[dict[str, Any]]:
    base, _, token = console.partition("/arbiter?token=")
    request = urllib.request.Request(
        f"{base}/arbiter/api/time?board={board_id}", headers={"X-Arbiter-Token": token}
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        added: list[dict[str, Any]] = json.loads(answer.read())["added"]
    return added


def test_time_added_reaches_the_board_and_the_broadcast(broker: Broker, tmp_path: Path) -> None:
    db = tmp_path / "relay.sqlite"
    add = {"board": "b1", "color": "black", "minutes": 2, "note": "FIDE 7.5.5"}
    with relay_urls(broker, db) as (page, console, _relay):
        assert 'id="add-time"' in console_page(console)  # the console's page has the form
        live = FedLines()
        live.feed(TIMED)
        command = ["--fake", "--script", "-", "--speed", PACE, "--mqtt", broker.url,
                   "--board-id", "b1", *quiet_board(tmp_path)]  # fmt: skip
        with board_thread(command, live) as b1:
            until(lambda: summary(page, "b1").get("ply") == 3, "2.Nf3 at the relay")
            assert post(console, "time", add) == 200
            shown = " ".join(get(page + "boards/b1.pgn").split())
            assert COMMENT in shown  # at once, before the board answers
            until(lambda: [a["state"] for a in listed(console, "b1")] == ["done"], "the ack")
            live.feed(THEN)
            until(lambda: summary(page, "b1").get("ply") == 4, "2...Nc6 at the relay")
            # Not waiting for a flag to end the board's run: stopped, it ends cleanly.
            assert b1.stop() == 0
            out = b1.output()
        pgn = get(page + "boards/b1.pgn")
        [row] = listed(console, "b1")
        assert (row["ply"], row["color"], row["ms"]) == (3, "black", 120_000)
    # The board's own clock: Black's time grew by two minutes while it ran.
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    [added] = [e for e in events if e["event"] == "clock"]
    assert added["added"] == {"color": "black", "ms": 120_000}
    assert 300_000 < added["black_ms"] <= 420_000
    [last] = [e for e in events if e["event"] == "move" and e["ply"] == 4]
    assert last["clock"]["black_ms"] > 300_000  # 5 min less her thinking, plus 2 min
    for text in (pgn, _restarted_pgn(broker, db)):
        moves = " ".join(text.split("\n\n", 1)[1].split())
        assert "(" not in moves.replace("(FIDE 7.5.5)", "")
        assert COMMENT in moves
        assert moves.index("Nf3") < moves.index(COMMENT) < moves.index("Nc6")


def _restarted_pgn(broker: Broker, db: Path) -> str:
    with relay_urls(broker, db) as (page, _console, _relay):
        return get(page + "boards/b1.pgn")


def test_bad_input_and_an_untimed_game_are_refused(broker: Broker, tmp_path: Path) -> None:
    with relay_urls(broker, tmp_path / "relay.sqlite") as (page, console, _relay):
        command = scripted_board(broker, tmp_path, "b1", UNTIMED)
        with board_of(command):
            until(lambda: summary(page, "b1").get("ply") == 3, "2.Nf3 at the relay")
            before = get(page + "games.pgn")
            good = {"board": "b1", "color": "white", "minutes": 2}
            assert post(console, "time", good, token="wrong") == 403
            assert post(console, "time", good | {"color": "red"}) == 400
            assert post(console, "time", good | {"minutes": 0}) == 400
            assert post(console, "time", good | {"minutes": 61}) == 400
            assert post(console, "time", good | {"minutes": "two"}) == 400
            assert post(console, "time", good | {"board": "nope"}) == 404
            assert post(console, "time", {"color": "white", "minutes": 2}) == 400
            assert post(console, "time", good) == 400  # the game is not timed
            assert get(page + "games.pgn") == before
            assert listed(console, "b1") == []
