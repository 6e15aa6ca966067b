"""Two boards publishing under one id are found out: a board starts a new session at each
start and never goes back to one, so a session that comes back is a second board's. The
relay says it once in its log, and the console flags the board."""

from __future__ import annotations

import json
import logging
import urllib.request
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from reedboard.link.frame import encode_frame
from reedboard.link.mqtt_client import BrokerSettings
from reedboard_relay.boards import Boards
from reedboard_relay.service import RelayService

from tests.relay.board_frames import read
from tests.relay.board_thread import board_of
from tests.relay.broker import running_broker
from tests.relay.fake_board import quiet_board
from tests.relay.test_arbiter_console import relay_urls, until
from tests.relay.test_game_pairings import hello
from tests.relay.test_relay_end_to_end import BIN


def test_a_board_restarting_is_not_taken_for_two(boards: Boards) -> None:
    for session in ("s1", "s2", "s3", "s4"):
        boards.heard("b1", read(hello(1, session)), 0)
    assert not boards.boards["b1"].twins and boards.twins_found == []


def test_a_session_that_comes_back_is_a_second_board(boards: Boards) -> None:
    boards.heard("b1", read(hello(1, "s1")), 0)
    boards.heard("b1", read(hello(1, "s2")), 0)  # the other board connects, the first is pushed off
    version = boards.boards["b1"].version
    boards.heard("b1", read(hello(1, "s1")), 0)  # and the first comes back
    assert boards.boards["b1"].twins and boards.twins_found == ["b1"]
    assert boards.boards["b1"].version > version  # the console is told
    boards.heard("b1", read(hello(1, "s2")), 0)
    assert boards.twins_found == ["b1"]  # found once


def frame_on(board: str, wire: dict[str, object]) -> mqtt.MQTTMessage:
    made = mqtt.MQTTMessage(topic=f"reedboard/boards/{board}/stream".encode())
    made.payload = encode_frame(wire).rstrip(b"\n")
    return made


def test_the_relay_logs_two_boards_with_one_id_once(
    boards: Boards, caplog: pytest.LogCaptureFixture
) -> None:
    service = RelayService(BrokerSettings("mqtt://127.0.0.1:1", "relay"), boards)
    told: list[str] = []
    service.changed = told.append
    with caplog.at_level(logging.WARNING):
        for session in ("s1", "s2", "s1", "s2", "s1"):
            service._message(service.client, None, frame_on("b7", hello(1, session)))
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["board b7: two boards publish with this id (sessions alternate)"]
    assert "b7" in told


def test_two_real_boards_with_one_id_are_flagged_on_the_console(tmp_path: Path) -> None:
    """Two fake boards given the same id, a real Mosquitto and the relay (the boards and
    the relay on threads of the test's process):
    each board pushes the other off the broker (one client id), and the relay, following
    the one id's stream, finds a session come back."""
    with running_broker(tmp_path) as broker:
        boards = [
            [str(BIN / "reedboard"), "run", "--fake", "--random-game", seed, "--speed", "2",
             "--mqtt", broker.url, "--board-id", "b1", *quiet_board(tmp_path)]
            for seed in ("1", "2")
        ]  # fmt: skip
        with (
            relay_urls(broker, tmp_path / "relay.sqlite") as (_page, console, _relay),
            board_of(boards[0]),
            board_of(boards[1]),
        ):
            base, _, token = console.partition("/arbiter?token=")

            def flagged() -> bool:
                request = urllib.request.Request(
                    base + "/arbiter/api/boards", headers={"X-Arbiter-Token": token}
                )
                with urllib.request.urlopen(request, timeout=5) as answer:
                    listed = json.loads(answer.read())["boards"]
                return any(b["id"] == "b1" and b["twins"] for b in listed)

            until(flagged, "b1 flagged as two boards")
