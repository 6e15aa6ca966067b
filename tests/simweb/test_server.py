"""The simulator's server: gestures and commands over its WebSocket, the PGN, bad input
from a page, and the pty on which a host finds the board."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

pytest.importorskip("aiohttp")

from aiohttp.test_utils import TestClient, TestServer
from reedboard.errors import InvalidInputError
from reedboard.link.messages import SetMode
from reedboard.simweb.board import SimBoard
from reedboard.simweb.server import make_app
from reedboard_host.connection import BoardConnection

from tests.simweb.simproc import quiet_config
from tests.simweb.waiting import wait_for


@pytest.fixture
def board() -> Iterator[SimBoard]:
    sim = SimBoard(quiet_config())
    sim.start()
    try:
        yield sim
    finally:
        sim.stop()


def run_client(board: SimBoard, talk: Callable[[TestClient[Any, Any]], Any]) -> Any:
    async def main() -> Any:
        async with TestClient(TestServer(make_app(board))) as client:
            return await talk(client)

    return asyncio.run(main())


async def page_socket(client: TestClient[Any, Any]) -> Any:
    """The WebSocket as the simulator's own page opens it: from its own origin."""
    return await client.ws_connect("/ws", origin=f"http://{client.host}:{client.port}")


async def first_state(ws: Any, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = await asyncio.wait_for(ws.receive_json(), 5)
        if message["type"] == "state" and check(message):
            return message


def test_a_move_by_gestures_reaches_the_page(board: SimBoard) -> None:
    async def talk(client: TestClient[Any, Any]) -> dict[str, Any]:
        ws = await page_socket(client)
        await ws.send_json({"op": "touch", "square": "e2"})
        # The hand holds the pawn at once; the targets follow when the board has settled
        # the lift (a busy machine may send a state in between).
        lifted = await first_state(ws, lambda s: bool(s["hand"]) and bool(s["targets"]))
        assert {"e3", "e4"} <= set(lifted["targets"])
        assert lifted["roles"]["e4"] == "target"
        await ws.send_json({"op": "touch", "square": "e4"})
        state = await first_state(ws, lambda s: s["san"] == ["e4"])
        await ws.close()
        return state

    state = run_client(board, talk)
    assert state["pieces"]["e4"] == "P" and "e2" not in state["pieces"]
    assert state["turn"] == "black"
    assert [e["event"] for e in state["effects"]][-2:] == ["touch", "move"]
    assert "1. e4" in board.pgn()


@pytest.mark.parametrize(
    "data",
    [
        "not json",
        "[1, 2]",
        "{}",
        '{"op": "fly"}',
        '{"op": "touch", "square": "z9"}',
        '{"op": "touch", "square": 5}',
        '{"op": "lift", "square": "e4"}',
        '{"op": "place", "square": "e4"}',
        '{"op": "select", "index": true}',
        '{"op": "from_tray", "piece": ["Q"]}',
        '{"op": "command"}',
        '{"op": "command", "command": {"type": "new_game", "number": 2000}}',
        '{"op": "command", "command": {"type": "settings", "settle_ms": -1}}',
        '{"op": "command", "command": {"type": "resend", "after": 0}}',
        '{"op": "command", "command": {"type": "takeback"}}',
        '{"op": "script", "text": "0 fly e4"}',
        '{"op": "script", "text": 7}',
    ],
)
def test_bad_input_from_the_page_gets_an_error_and_the_board_goes_on(
    board: SimBoard, data: str
) -> None:
    async def talk(client: TestClient[Any, Any]) -> dict[str, Any]:
        ws = await page_socket(client)
        await ws.send_str(data)
        while True:
            message: dict[str, Any] = await asyncio.wait_for(ws.receive_json(), 5)
            if message["type"] != "state":
                break
        await ws.close()
        return message

    reply = run_client(board, talk)
    assert reply["type"] == "error" or reply.get("kind") == "error", reply
    assert board.snapshot()["fen"].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")
    assert board._thread.is_alive()


def test_a_chess960_game_from_the_page_sets_the_pieces_up(board: SimBoard) -> None:
    reply = board.command({"type": "new_game", "variant": "chess960", "number": 0})
    assert reply["kind"] == "ack"
    wait_for(lambda: board.snapshot()["pieces"].get("a1") == "B")
    wait_for(lambda: any(e["event"] == "new_game" for e in board.snapshot()["effects"]))


def test_the_page_serves_the_board_and_the_pgn(board: SimBoard) -> None:
    async def talk(client: TestClient[Any, Any]) -> tuple[str, str, str]:
        page = await (await client.get("/")).text()
        script = await (await client.get("/static/app.js")).text()
        pgn = await client.get("/game.pgn")
        assert "attachment" in pgn.headers["Content-Disposition"]
        return page, script, await pgn.text()

    page, script, pgn = run_client(board, talk)
    assert 'id="board"' in page and "WebSocket" in script
    assert '[Event "reedboard sim"]' in pgn


def test_an_event_script_is_played_visibly(board: SimBoard) -> None:
    board.play_script(_script("0 lift e2\n100 place e4\n600 lift e7\n700 place e5\n"))
    wait_for(lambda: board.snapshot()["san"] == ["e4", "e5"])
    assert board.snapshot()["pieces"]["e5"] == "p"


def test_a_host_on_the_pty_sees_the_page_s_moves(board: SimBoard) -> None:
    seen: list[dict[str, Any]] = []
    host = BoardConnection(board.link.path, on_message=lambda m: seen.append(m.to_wire()))
    hello = host.open()
    try:
        assert hello.board == "reedboard"
        board.gesture("touch", {"square": "g1"})
        board.gesture("touch", {"square": "f3"})
        deadline = time.monotonic() + 5
        while not any(m.get("event") == "move" for m in seen):
            assert time.monotonic() < deadline, seen
            host.poll(0.05)
        move = next(m for m in seen if m.get("event") == "move")
        assert move["san"] == "Nf3"
        # A host's command and the page agree: the mode the host sets is the page's.
        host.request(SetMode("strict"))
        assert board.snapshot()["mode"] == "strict"
    finally:
        host.close()


def _script(text: str) -> Any:
    from reedboard.replay.script import parse_script

    return parse_script(text)


def test_replies_are_json(board: SimBoard) -> None:
    from reedboard.simweb.server import handle

    reply = handle(board, json.dumps({"op": "command", "command": {"type": "state"}}))
    assert reply is not None and reply["kind"] == "state"
    json.dumps(reply)


def test_a_pawn_exchanged_for_a_spare_knight_promotes_to_a_knight(board: SimBoard) -> None:
    board.command({"type": "new_game", "fen": "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"})
    wait_for(lambda: any(e["event"] == "new_game" for e in board.snapshot()["effects"]))
    board.gesture("touch", {"square": "a7"})
    wait_for(lambda: "a8" in board.snapshot()["targets"])  # the board has seen the lift
    for op, fields in [("to_tray", {}), ("from_tray", {"piece": "N"}), ("touch", {"square": "a8"})]:
        board.gesture(op, fields)
    wait_for(lambda: bool(board.snapshot()["san"]))
    assert board.snapshot()["san"] == ["a8=N"]
    assert board.snapshot()["pieces"]["a8"] == "N"


def test_a_piece_put_down_on_an_opponent_s_piece_captures_it(board: SimBoard) -> None:
    board.command({"type": "settings", "settle_ms": 150})
    for start, end, plies in [("e2", "e4", 1), ("d7", "d5", 2), ("e4", "d5", 3)]:
        board.gesture("touch", {"square": start})
        wait_for(lambda: bool(board.snapshot()["hand"]))  # the lift is seen first
        board.gesture("place", {"square": end})
        wait_for(partial(_has_plies, board, plies))
    state = board.snapshot()
    assert state["san"] == ["e4", "d5", "exd5"]
    assert state["pieces"]["d5"] == "P" and state["tray"] == ["p"] and not state["hand"]
    assert state["notice"] is None
    # What the switches saw, in order: the pawn lifted, the black pawn lifted, the square
    # filled again (a capture, not a piece appearing from nowhere).
    touches = [e["square"] for e in state["effects"] if e["event"] == "touch"]
    assert touches[-2:] == ["e4", "d5"]
    # Onto one's own piece: refused in words, the piece stays in the hand.
    board.gesture("touch", {"square": "c8"})
    with pytest.raises(InvalidInputError, match="b7 holds a black pawn: put the bishop down"):
        board.gesture("place", {"square": "b7"})
    assert [h["piece"] for h in board.snapshot()["hand"]] == ["b"]


def test_the_page_is_told_what_is_happening_in_words(board: SimBoard) -> None:
    board.command({"type": "settings", "settle_ms": 150})
    assert board.snapshot()["status"] == "White to move"
    board.gesture("touch", {"square": "g1"})
    board.gesture("place", {"square": "g4"})
    wait_for(lambda: board.snapshot()["notice"] == "Illegal: put the knight back on g1")
    board.gesture("touch", {"square": "g4"})
    board.gesture("place", {"square": "g1"})
    wait_for(lambda: board.snapshot()["notice"] is None)
    board.play_script(_script("0 lift e2\n100 place e4\n5000 lift e7\n"))
    assert board.snapshot()["status"] == "White to move · playing a script"


def _has_plies(board: SimBoard, plies: int) -> bool:
    return len(board.snapshot()["san"]) == plies


def test_the_board_s_log_lines_reach_the_page(board: SimBoard) -> None:
    """A script line the simulated world refuses: one line on the page's log, and the
    board goes on."""
    board.play_script(_script("0 place e4\n"))
    wait_for(lambda: bool(board.snapshot()["log"]))
    assert board.snapshot()["log"] == ["script: the hand is empty"]
