"""`reedboard-host lichess` against a stand-in Lichess: the person at the board (the human
model) plays white; the stand-in's moves light up and are carried out, the person's moves
reach the stand-in, and a resignation typed to the bridge ends the game there."""

from __future__ import annotations

import random
import signal
import subprocess
import threading
import time
from pathlib import Path

from reedboard.rules.position import Position
from reedboard.sim.human import human_script

from host.lichess_standin import StandIn
from host.running_board import RunningBoard, host_command, next_move

TOKEN = "lip_secretStandInToken42"
PLIES = 10


def _drain(stream: object, into: list[str]) -> threading.Thread:
    def run() -> None:
        for line in stream:  # type: ignore[attr-defined]
            into.append(line)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _wait(condition: object, deadline: float) -> bool:
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def test_a_lichess_game_is_played_on_the_board(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    rng = random.Random(11)
    err: list[str] = []
    with StandIn(TOKEN) as lichess, RunningBoard(speed=20) as board:
        bridge = subprocess.Popen(
            host_command("lichess", "--token-file", str(token_file), "--port", board.port,
                  "--server", lichess.url, "--seek", "15+10"),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        drained = _drain(bridge.stderr, err)
        acted_on: str | None = None
        deadline = time.monotonic() + 20
        try:
            while time.monotonic() < deadline:
                assert bridge.poll() is None, "".join(err)
                if len(board.moves()) >= PLIES and board.moves() == lichess.moves():
                    break
                with board.changed:
                    board.changed.wait(0.2)  # until the board shows something new
                view = board.quiet_view()
                started = any(e["event"] == "new_game" for e in board.effects)
                if view is None or not started:
                    continue
                if view.result is not None or len(board.moves()) >= PLIES:
                    continue
                if view.fen == acted_on or (not view.turn_white and view.hint is None):
                    continue  # the opponent's move has not come yet
                position = Position.from_fen(view.fen)
                move = next_move(position, None if view.turn_white else view.hint, rng)
                board.live.push(human_script(position, [move], seed=rng.randrange(1 << 30)).lines)
                acted_on = view.fen
            played = board.moves()
            assert len(played) >= PLIES, "".join(err)
            assert lichess.moves() == played

            assert bridge.stdin is not None
            bridge.stdin.write("resign\n")
            bridge.stdin.flush()
            assert _wait(lambda: lichess.status == "resign", time.monotonic() + 10), "".join(err)
            assert _wait(lambda: board.view is not None and board.view.result, time.monotonic() + 5)
        finally:
            bridge.send_signal(signal.SIGINT)
            bridge.wait(timeout=10)
            drained.join(5)
    stderr = "".join(err)
    assert bridge.returncode == 0, stderr
    assert lichess.seeks == [{"time": "15", "increment": "10", "rated": "false"}]
    assert "resign" in lichess.posts
    assert lichess.auth_headers == {f"Bearer {TOKEN}"}
    assert "your opponent plays" in stderr
    assert "chat StandIn: good luck" in stderr
    assert TOKEN not in stderr and "Traceback" not in stderr


def test_a_bad_token_is_one_clear_line(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("lip_notTheRightOne\n")
    with StandIn(TOKEN) as lichess:
        result = subprocess.run(
            host_command("lichess", "--token-file", str(token_file), "--port", "/no/such/board",
                  "--server", lichess.url),
            capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("reedboard-host lichess: Lichess refused the token (401")
    assert "lip_notTheRightOne" not in result.stderr


def test_no_token_and_an_unreadable_token_file(tmp_path: Path) -> None:
    env = {k: v for k, v in __import__("os").environ.items() if k != "LICHESS_TOKEN"}
    for extra in ([], ["--token-file", str(tmp_path / "missing")]):
        result = subprocess.run(
            host_command("lichess", "--port", "/no/such/board", "--server", "http://127.0.0.1:9", *extra),
            capture_output=True, text=True, timeout=20, env=env, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert result.returncode == 1
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Traceback" not in result.stderr
