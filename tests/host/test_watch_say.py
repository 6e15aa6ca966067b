"""`reedboard-host watch --say LANG`: the board's sentences printed and said on the PC,
through the espeak-ng adapter (here a stand-in `espeak-ng` first on the PATH, which notes
what it is given to say)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from reedboard.rules.position import Position
from reedboard.sim.human import human_script

from tests.children import child, stop
from tests.host.running_board import RunningBoard

pytestmark = pytest.mark.timeout(120)

STAND_IN = """#!/bin/sh
cat >> "{notes}"
echo >> "{notes}"
"""


def test_watch_says_each_move(tmp_path: Path) -> None:
    notes = tmp_path / "said.txt"
    program = tmp_path / "espeak-ng"
    program.write_text(STAND_IN.format(notes=notes))
    program.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}{os.pathsep}{os.environ['PATH']}"}
    with RunningBoard(speed=10) as board:
        command = [sys.executable, "-m", "reedboard_host.cli", "watch", "--say", "fr",
                   "--port", board.port]  # fmt: skip
        with child(command, sig=signal.SIGINT, stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, text=True, env=env) as watch:  # fmt: skip
            seen: list[str] = []
            said = threading.Event()

            def read() -> None:
                assert watch.stdout is not None
                for line in watch.stdout:
                    seen.append(line)
                    if line.startswith("say Cavalier g1 f3."):
                        said.set()

            reader = threading.Thread(target=read, daemon=True)
            reader.start()
            board.wait_until(
                lambda: "hello" in board.answered and "state" in board.answered,
                "the watcher's handshake and its request of the state",
            )
            start = Position.standard()
            script = human_script(start, [start.parse_uci("g1f3")], seed=2)
            board.live.push(script.lines)
            assert said.wait(30), "".join(seen)
            deadline = time.monotonic() + 10
            while "Cavalier g1 f3." not in (notes.read_text() if notes.exists() else ""):
                assert time.monotonic() < deadline, "espeak-ng was never asked to say it"
                time.sleep(0.05)
            assert stop(watch, signal.SIGINT) == 0, watch.stderr and watch.stderr.read()
            reader.join(10)
    assert notes.read_text().splitlines() == ["Cavalier g1 f3."]
