"""The page's event stream sends what changed: every board in its first message, then
only the boards whose summary changed. It used to send every board on every change to
every listener (107 KB a message with 500 boards, for one board's move)."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.children import child
from tests.relay.broker import Broker, running_broker
from tests.relay.test_relay_end_to_end import board, relay_command

WAIT_S = 120


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def listed(url: str) -> dict[str, dict[str, Any]]:
    with urllib.request.urlopen(url + "api/boards", timeout=10) as answer:
        return {entry["id"]: entry for entry in json.loads(answer.read())}


def test_after_the_first_message_only_the_changed_boards_are_sent(
    broker: Broker, tmp_path: Path
) -> None:
    with child(relay_command(broker, tmp_path / "relay.sqlite"), stdout=subprocess.PIPE,
               text=True) as relay:  # fmt: skip
        assert relay.stdout is not None
        url = relay.stdout.readline().strip()
        with child(board(broker, "b2"), stdout=subprocess.DEVNULL) as b2:
            assert b2.wait(WAIT_S) == 0
        deadline = time.monotonic() + WAIT_S
        while listed(url).get("b2", {}).get("online", True):  # b2 played, and is gone
            assert time.monotonic() < deadline, "b2 never went offline at the relay"
            time.sleep(0.1)  # polling the relay, not timing it
        messages: list[list[dict[str, Any]]] = []
        with (
            urllib.request.urlopen(url + "events", timeout=WAIT_S) as stream,
            child(board(broker, "b1"), stdout=subprocess.DEVNULL),
        ):
            while not messages or not any(s["id"] == "b1" and s["ply"] == 7 for s in messages[-1]):
                line = stream.readline()
                assert line, "the stream ended"
                if line.startswith(b"data: "):
                    messages.append(json.loads(line[len(b"data: ") :]))
    first, *later = messages
    assert [s["id"] for s in first] == ["b2"]  # b1 had not come yet
    assert later and all([s["id"] for s in message] == ["b1"] for message in later)
