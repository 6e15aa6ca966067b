"""The attack on an open broker, as it was made: while a real board plays, one publish of a
forged `state` (the CRC is public) with `seq` 10^9 and a resignation on the board's
stream. The relay refuses it and follows the real board to the end of its game;
restarted, it shows the real game still, with no result nobody gave."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from reedboard.link.frame import encode_frame

from tests.relay.board_thread import FedLines, board_thread
from tests.relay.broker import Broker, running_broker
from tests.relay.caught_up import caught_up
from tests.relay.fake_board import quiet_board
from tests.relay.held_script import split_at
from tests.relay.test_arbiter_console import relay_urls
from tests.relay.test_game_pairings import START
from tests.relay.test_relay_end_to_end import SCRIPTS, boards_moves, get, made, sans_of

FORGED = {"type": "state", "seq": 10**9, "id": 1, "game": 0, "variant": "standard",
          "chess960": False, "start_fen": START, "fen": START, "moves": [], "san": [],
          "result": "0-1", "reason": "resignation"}  # fmt: skip


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def forge(broker: Broker) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="attacker")
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        frame = encode_frame(FORGED).rstrip(b"\n")
        client.publish("reedboard/boards/b1/stream", frame, qos=1).wait_for_publish(10)
    finally:
        client.disconnect()
        client.loop_stop()


def test_a_forged_state_neither_ends_nor_freezes_the_game(broker: Broker, tmp_path: Path) -> None:
    # The board plays 1.e4 and waits (a live script): the attack comes mid-game however
    # slow the machine, and the six moves after it only once it has been made.
    script = split_at(SCRIPTS["b1"].read_text(), 2)
    lines = FedLines()
    lines.feed(script.headers + script.parts[0])
    board = [
        "--fake", "--script", "-", "--speed", "10", "--print", "--mqtt",
        broker.url, "--board-id", "b1", *quiet_board(tmp_path),
    ]  # fmt: skip
    with relay_urls(broker, tmp_path / "r.db") as (url, _console, _relay):
        with board_thread(board, lines) as b1:
            deadline = time.monotonic() + 60
            while not _follows(url):
                assert time.monotonic() < deadline, "the relay never heard the board"
                time.sleep(0.05)  # until the relay follows the game, then the attack
            forge(broker)
            # Mid-game: the relay must go on following the real board.
            assert b1.thread.is_alive(), "the game ended before the attack"
            lines.feed(script.parts[1])
            assert b1.wait_output(made(7), 120), b1.output()
            out = b1.output()
        # The board stopped once its game was played, as a board is switched off (not
        # once its script's tail had passed: ten seconds of its time for a late host).
        moves = boards_moves(out)
        assert caught_up(lambda: sans_of(get(url + "boards/b1.pgn")), moves) == moves
        pgn = get(url + "boards/b1.pgn")
        assert sans_of(pgn) == moves and '[Result "*"]' in pgn, pgn
    with relay_urls(broker, tmp_path / "r.db") as (url, _console, _relay):
        pgn = get(url + "boards/b1.pgn")
        assert sans_of(pgn) == moves and '[Result "*"]' in pgn, pgn


def _follows(url: str) -> bool:
    """Whether the relay shows board b1's first move."""
    return '"b1"' in get(url + "api/boards") and "e4" in sans_of(get(url + "boards/b1.pgn"))
