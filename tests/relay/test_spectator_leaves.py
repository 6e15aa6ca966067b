"""A spectator closing the page is ordinary: the relay writes no traceback for the event
stream it can no longer write to (three sessions closed used to be four tracebacks)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.children import child, stop
from tests.relay.board_thread import board_of
from tests.relay.broker import Broker, running_broker
from tests.relay.fake_board import quiet_board
from tests.support.said_lines import SaidLines

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SCRIPT = ROOT / "docs" / "examples" / "italian-opening.events"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def plies(url: str) -> int:
    with urllib.request.urlopen(url + "api/boards", timeout=10) as answer:
        listed = json.loads(answer.read())
    return max((entry["ply"] for entry in listed), default=0)


def test_closed_event_streams_leave_no_traceback(broker: Broker, tmp_path: Path) -> None:
    command = [str(BIN / "reedboard-relay"), "--mqtt", broker.url,
               "--db", str(tmp_path / "relay.sqlite")]  # fmt: skip
    with child(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as relay:
        assert relay.stdout is not None and relay.stderr is not None
        url = relay.stdout.readline().strip()
        said = SaidLines(relay.stderr)
        for _ in range(3):  # three spectators come, see the boards, and leave
            with urllib.request.urlopen(url + "events", timeout=10) as stream:
                assert stream.readline().startswith(b"data: ")
        board = [str(BIN / "reedboard"), "run", "--fake", "--script", str(SCRIPT),
                 "--speed", "10", "--until-done", "--mqtt", broker.url, "--board-id", "b1", *quiet_board(tmp_path)]  # fmt: skip
        with board_of(board):  # stopped once the relay has its moves, as a board is
            deadline = time.monotonic() + 60
            while plies(url) < 5:  # the changes reached the relay: it wrote to the streams
                assert time.monotonic() < deadline, "the game never reached the relay"
                time.sleep(0.1)  # polling the relay, not timing it
        assert stop(relay, signal.SIGTERM) == 0
        relay_said = "\n".join(said.wait_end())
    assert "Traceback" not in relay_said and "Cannot write" not in relay_said, relay_said
