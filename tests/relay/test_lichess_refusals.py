"""A game Lichess refuses, with the relay as a process and a real broker: the arbiter's
console names the board and why, the relay's log says it, and the relay never pushed an
empty round while no board had a game."""

from __future__ import annotations

import json
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.children import child
from tests.relay.board_thread import board_of
from tests.relay.broadcast_standin import BroadcastStandIn
from tests.relay.broker import Broker, running_broker
from tests.relay.test_arbiter_console import QUICK, scripted_board, until
from tests.relay.test_relay_end_to_end import relay_command


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def console_boards(console: str) -> dict[str, dict[str, object]]:
    base, _, token = console.partition("/arbiter?token=")
    request = urllib.request.Request(f"{base}/arbiter/api/boards",
                                     headers={"X-Arbiter-Token": token})  # fmt: skip
    with urllib.request.urlopen(request, timeout=5) as answer:
        return {b["id"]: b for b in json.loads(answer.read())["boards"]}


def test_a_game_lichess_refuses_is_named_on_the_console_and_in_the_log(
    broker: Broker, tmp_path: Path
) -> None:
    token = tmp_path / "lichess.token"
    token.write_text("lip_test\n")
    lichess = ["--lichess-round", "r1", "--token-file", str(token), "--lichess-url"]
    stderr = tmp_path / "relay.err"
    with BroadcastStandIn() as standin, stderr.open("w") as err:
        standin.bad_moves = {"Nf3"}  # 2.Nf3: Lichess says `Invalid move: Nf3`
        command = [*relay_command(broker, tmp_path / "relay.sqlite"), *lichess, standin.url]
        with child(command, stdout=subprocess.PIPE, stderr=err, text=True) as relay:
            assert relay.stdout is not None
            relay.stdout.readline()
            console = relay.stdout.readline().strip().removeprefix("arbiter: ")
            with board_of(scripted_board(broker, tmp_path, "b1", QUICK)):
                until(lambda: console_boards(console).get("b1", {}).get("lichess") is not None,
                      "the console names b1's refused game")  # fmt: skip
            said = console_boards(console)["b1"]["lichess"]
    assert said == "refused by Lichess: Invalid move: Nf3"
    log = stderr.read_text()
    assert "board b1's game refused by Lichess: Invalid move: Nf3" in log
    assert all(body.strip() for body, _ in standin.answered)  # no empty push, ever
    assert standin.answered and not any("Nf3" in body for _, _, _, body in standin.pushes)
