"""The arbiter's console with real parts: a real Mosquitto, the relay and fake boards (on
threads of the test's process, `relay_thread` and `board_thread`; a board on a serial
line published by `reedboard-host publish`, a process). Its token guards it; a result, the players and a FIDE 7.5.1 correction
show at once on every broadcast and survive a restart of the relay; the correction
reaches the board, which takes back and reads on from the reinstated position;
tournament mode reaches a board as it says hello."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.children import child
from tests.link.ptybridge import PtyBridge
from tests.relay.board_thread import BoardThread, FedLines, board_of, board_thread
from tests.relay.broadcast_standin import BroadcastStandIn
from tests.relay.broker import Broker, running_broker
from tests.relay.fake_board import RELAY_RETRY, quiet_board
from tests.relay.relay_thread import RelayThread, relay_thread
from tests.relay.test_relay_end_to_end import BIN, get

# 1.e4 e5 2.Nf3 on the board, while the players' real game had another move (a knight
# set up wrong, say): the arbiter cancels 2.Nf3 (ply 3), the knight goes back to g1,
# and 2.Nc3 is played. Strict mode: the board takes no move back by hand, so the knight
# on g1 again is a position the board accepts only after the arbiter's takeback.
CORRECTED = """@start standard
@mode strict
1000 lift e2
1400 place e4
3000 lift e7
3400 place e5
5000 lift g1
5400 place f3
90000 lift f3
90400 place g1
93000 lift b1
93400 place c3
"""
QUICK = "\n".join(CORRECTED.splitlines()[:8]) + "\n"  # 1.e4 e5 2.Nf3, and the board ends
# The rest of CORRECTED, played on a live board once it has taken 2.Nf3 back at the
# arbiter's word, however long that took: the knight back to g1, then 2.Nc3.
REINSTATED = "+1000 lift f3\n+400 place g1\n+2600 lift b1\n+400 place c3\n"
SPEED = "10"  # the boards play at ten times a person's pace
WAIT_S = 60


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


@contextmanager
def relay_urls(broker: Broker, db: Path, *extra: str) -> Iterator[tuple[str, str, RelayThread]]:
    """The relay, `reedboard-relay --mqtt URL --db DB ...extra` in the test's process:
    (the page's URL, the console's URL with its token, the relay)."""
    with relay_thread(["--mqtt", broker.url, "--db", str(db), *RELAY_RETRY, *extra]) as relay:
        page = relay.line()
        console = relay.line()
        assert page.startswith("http://127.0.0.1:") and page.endswith("/")
        assert console.startswith("arbiter: http://127.0.0.1:")
        yield page, console.removeprefix("arbiter: "), relay


def scripted_board(broker: Broker, tmp_path: Path, board_id: str, text: str) -> list[str]:
    """A fake board playing `text` to the broker. Without its own page (`--web off`):
    nobody here opens it, and the board does not load and serve it for nothing."""
    script = tmp_path / f"{board_id}.events"
    script.write_text(text)
    return [
        str(BIN / "reedboard"), "run", "--fake", "--script", str(script), "--speed", SPEED,
        "--until-done", "--mqtt", broker.url, "--board-id", board_id, *quiet_board(tmp_path),
    ]  # fmt: skip


def post(console: str, path: str, body: dict[str, Any], token: str | None = None) -> int:
    base, _, query = console.partition("/arbiter?token=")
    request = urllib.request.Request(
        f"{base}/arbiter/api/{path}",
        data=json.dumps(body).encode(),
        headers={"X-Arbiter-Token": query if token is None else token},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            status: int = answer.status
            return status
    except urllib.error.HTTPError as error:
        return error.code


def summary(page: str, board_id: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [
        b for b in json.loads(get(page + "api/boards")) if b["id"] == board_id
    ]
    return found[0] if found else {}


def until(what: Callable[[], bool], text: str, seen: Callable[[], str] | None = None) -> None:
    """Poll `what` until it holds; a failure says what was `seen` instead."""
    deadline = time.monotonic() + WAIT_S
    while not what():
        if time.monotonic() > deadline:
            instead = f"; instead:\n{seen()}" if seen is not None else ""
            raise AssertionError(f"not within {WAIT_S} s: {text}{instead}")
        time.sleep(0.05)  # polling the relay's answer, not timing anything


def console_page(console: str) -> str:
    """The console's page, as a browser gets it: the token traded for a cookie."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    with opener.open(console, timeout=5) as answer:
        text: str = answer.read().decode()
        return text


def status_of(url: str) -> int:
    """The status a client keeping cookies ends on (the console trades the token in its
    URL for a cookie, and redirects)."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    try:
        with opener.open(url, timeout=5) as answer:
            status: int = answer.status
            return status
    except urllib.error.HTTPError as error:
        return error.code


def test_the_console_needs_its_token_and_is_not_on_the_spectators_port(
    broker: Broker, tmp_path: Path
) -> None:
    with (
        relay_urls(broker, tmp_path / "relay.sqlite") as (page, console, _relay),
        board_of(scripted_board(broker, tmp_path, "b1", QUICK)),
    ):
        until(lambda: summary(page, "b1").get("ply") == 3, "b1's game at the relay")
        base = console.partition("?")[0]
        assert status_of(console) == 200
        assert status_of(base) == 403
        assert status_of(base + "?token=wrong") == 403
        assert status_of(page + "arbiter") == 404
        before = get(page + "games.pgn")
        assert post(console, "result", {"board": "b1", "result": "0-1"}, token="wrong") == 403
        assert post(console, "result", {"board": "b1", "result": "0-1"}, token="") == 403
        assert get(page + "games.pgn") == before  # nothing changed
        # Bad input: a clear refusal, nothing changed.
        assert post(console, "result", {"board": "b1", "result": "2-0"}) == 400
        assert post(console, "result", {"board": "nope", "result": "1-0"}) == 404
        assert post(console, "result", {"result": "1-0"}) == 400
        assert post(console, "players", {"board": "b1", "white_elo": "strong"}) == 400
        assert post(console, "correct", {"board": "b1", "ply": 99}) == 400
        assert get(page + "games.pgn") == before


def test_results_and_players_show_at_once_and_survive_a_restart(
    broker: Broker, tmp_path: Path
) -> None:
    db = tmp_path / "relay.sqlite"
    token = tmp_path / "lichess.token"
    token.write_text("lip_test\n")
    lichess = ["--lichess-round", "r1", "--token-file", str(token), "--lichess-url"]
    with (
        BroadcastStandIn() as standin,
        relay_urls(broker, db, *lichess, standin.url) as (page, console, _relay),
    ):
        quick = scripted_board(broker, tmp_path, "b1", QUICK)
        with board_of(quick):
            until(lambda: summary(page, "b1").get("ply") == 3, "b1's three plies")
        assert post(console, "result", {"board": "b1", "result": "1-0", "reason": "Black's flag fell, noticed by the arbiter"}) == 200  # fmt: skip
        players = {"board": "b1", "white": "Carlsen, Magnus", "white_elo": "2830",
                   "white_title": "gm", "black": "Nepo, Ian"}  # fmt: skip
        assert post(console, "players", players) == 200
        shown = summary(page, "b1")
        assert (shown["result"], shown["white"], shown["black"]) == (
            "1-0", "Carlsen, Magnus", "Nepo, Ian")  # fmt: skip
        pgn = get(page + "boards/b1.pgn")
        # The Lichess push follows at once (as soon as the API allows).
        standin.wait_for(lambda s: bool(s.pushes) and "Magnus" in s.pushes[-1][3])
        assert "Arbiter: 1-0" in standin.pushes[-1][3]
    for text in (pgn, _restarted_pgn(broker, db)):
        assert '[Result "1-0"]' in text and '[White "Carlsen, Magnus"]' in text
        assert '[WhiteElo "2830"]' in text and '[WhiteTitle "GM"]' in text
        assert '[Termination "adjudication"]' in text
        assert "Arbiter: 1-0, Black's flag fell, noticed by the arbiter" in text
        assert text.rstrip().endswith("1-0")
    with relay_urls(broker, db) as (page, console, _relay):
        assert post(console, "result", {"board": "b1", "result": "*"}) == 200  # undone
        text = get(page + "boards/b1.pgn")
        assert '[Result "*"]' in text and "Arbiter" not in text


def _restarted_pgn(broker: Broker, db: Path, name: str = "b1") -> str:
    with relay_urls(broker, db) as (page, _console, _relay):
        return get(page + f"boards/{name}.pgn")


@contextmanager
def correctable_board(
    broker: Broker, tmp_path: Path, line: str
) -> Iterator[tuple[str, BoardThread, FedLines]]:
    """A board played live (`--script -`: the test hands it its lines), on a thread of the
    test's process, on its own network or on a serial line published by `reedboard-host
    publish` (a process): (its id, the board, its lines)."""
    lines = FedLines()
    live = ["--fake", "--script", "-", "--speed", SPEED, "--until-done"]
    if line == "mqtt":
        mqtt = ["--mqtt", broker.url, "--board-id", "b1"]
        with board_thread([*live, *mqtt, *quiet_board(tmp_path)], lines) as board:
            yield "b1", board, lines
        return
    bridge = PtyBridge()
    publish = [str(BIN / "reedboard-host"), "publish", "--port", bridge.host_path,
               "--mqtt", broker.url, "--board-id", "usb1"]  # fmt: skip
    serial = ["--print", "--serial", bridge.board_path]
    try:
        with (
            # What the bridge says on stderr, shown if the relay never gets the game.
            (tmp_path / "said").open("w") as stderr,
            child(publish, stderr=stderr),
            board_thread([*live, *serial, *quiet_board(tmp_path)], lines) as board,
        ):
            yield "usb1", board, lines
    finally:
        bridge.close()


@pytest.mark.parametrize("line", ["mqtt", "serial"])
def test_a_correction_reinstates_the_position_on_the_board_and_in_the_broadcast(
    broker: Broker, tmp_path: Path, line: str
) -> None:
    db = tmp_path / "relay.sqlite"
    with relay_urls(broker, db) as (page, console, _relay):
        with correctable_board(broker, tmp_path, line) as (name, b1, lines):
            lines.feed(QUICK)  # 1.e4 e5 2.Nf3
            until(lambda: summary(page, name).get("ply") == 3, "2.Nf3 at the relay")
            assert post(console, "correct", {"board": name, "ply": 3, "note": "knight"}) == 200
            shown = summary(page, name)  # at once, before the board answers
            assert shown["ply"] == 2 and shown["last_move"] == "e7e5"
            # Strict mode: the knight back on g1 is a position the board accepts only
            # after the arbiter's takeback; the hands put it back once the board took it.
            took = b1.wait_output(lambda out: '"takeback"' in out, WAIT_S)
            assert took, f"the board never took 2.Nf3 back: {b1.output()}"
            lines.feed(REINSTATED)
            lines.end()  # the game's end: the board ends once it has played it all
            assert b1.wait(WAIT_S) == 0
            out = b1.output()

            def seen() -> str:
                said = (tmp_path / "said").read_text() if line == "serial" else ""
                return f"the relay shows {summary(page, name)}\nthe board printed {out}{said}"

            # Waited for while the bridge still runs: a move it has not yet published
            # when the board leaves would be lost with the bridge, not by the relay.
            until(lambda: summary(page, name).get("ply") == 3 and
                  summary(page, name).get("last_move") == "b1c3", "2.Nc3 at the relay",
                  seen)  # fmt: skip
        pgn = get(page + f"boards/{name}.pgn")
    # The board itself took the move back at the arbiter's word and read 2.Nc3 after it.
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    told = [(e["event"], e.get("uci")) for e in events if e["event"] in ("move", "takeback")]
    assert told == [("move", "e2e4"), ("move", "e7e5"), ("move", "g1f3"),
                    ("takeback", "g1f3"), ("move", "b1c3")]  # fmt: skip
    # One clean mainline with the arbiter's comment, no variation; the same after a restart.
    for text in (pgn, _restarted_pgn(broker, db, name)):
        moves = " ".join(text.split("\n\n", 1)[1].split())
        assert "(" not in moves.replace("(FIDE 7.5.1)", "").replace("(knight)", "")
        assert moves.startswith("1. e4 e5 {Arbiter: the illegal move 2. Nf3 cancelled")
        assert "reinstated (knight)} 2. Nc3 *" in moves


def test_tournament_mode_reaches_a_board_that_says_hello(broker: Broker, tmp_path: Path) -> None:
    command = scripted_board(broker, tmp_path, "b1", CORRECTED)
    with relay_urls(broker, tmp_path / "relay.sqlite", "--tournament") as (page, console, _relay):
        base = console.partition("/arbiter?")[0]
        token = console.partition("token=")[2]
        with board_of(command) as b1:
            # The board's acknowledgement of `settings` says what it set.
            def acknowledged(on: bool) -> bool:
                request = urllib.request.Request(
                    base + "/arbiter/api/boards", headers={"X-Arbiter-Token": token}
                )
                with urllib.request.urlopen(request, timeout=5) as answer:
                    listed = json.loads(answer.read())
                return listed["tournament"] is on and any(
                    b["id"] == "b1" and b["tournament"] is on for b in listed["boards"]
                )

            until(lambda: acknowledged(True), "b1 in tournament mode")
            assert post(console, "tournament", {"on": False}) == 200  # the console's switch
            until(lambda: acknowledged(False), "b1 out of tournament mode")
            assert post(console, "tournament", {"on": "yes"}) == 400
            assert b1.stop() == 0
        assert summary(page, "b1")["id"] == "b1"
