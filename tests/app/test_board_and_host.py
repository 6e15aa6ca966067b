"""The board (`reedboard run --fake`) and the host (`reedboard-host record`) as a pair over
real pseudo-terminals, with a clean line and with a faulty one."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from reedboard.journal.store import Journal
from reedboard.rules.pgn import read_pgn

from tests.app.games import game_script, random_game
from tests.children import child, stop
from tests.link.ptybridge import PtyBridge

pytestmark = pytest.mark.timeout(180)  # a whole game on a faulty line, with its own 90 s limit


def _play(
    tmp_path: Path,
    moves: list[str],
    *,
    corrupt: float,
    cuts_per_s: float,
    drop: float = 0.0,
    unplug_at: int | None = None,
) -> tuple[list[str], list[str], str]:
    """The board plays `moves`; the host records them: the board's moves, the host's, and
    the host's log. With `unplug_at`, the host's end is unplugged for a second once the
    host has recorded that many moves, and the game waits for the host to be back."""
    script = tmp_path / "game.events"
    script.write_text(game_script(moves))
    out, db = tmp_path / "games.pgn", tmp_path / "journal.sqlite"
    board_command = [
        sys.executable, "-m", "reedboard.cli", "run", "--fake", "--script", str(script),
        "--speed", "40", "--web", "off", "--journal", str(db), "--serial",
    ]  # fmt: skip
    host_command = [sys.executable, "-m", "reedboard_host.cli", "record", "--out", str(out)]
    with (
        PtyBridge(
            corrupt=corrupt, seed=7, cuts_per_s=cuts_per_s, drop=drop, pluggable=True
        ) as bridge,
        child([*board_command, bridge.board_path]) as board,
    ):
        # The host starts once the board speaks on the line, so the game is the test's
        # subject (`record` started beside a board still starting waits for it: that is
        # tests/host/test_record_and_watch.py's).
        board_started = time.monotonic() + 60
        while not bridge.board_spoke.wait(0.2) and board.poll() is None:
            assert time.monotonic() < board_started, "the board never spoke on its line"
        assert board.poll() is None, "the board ended before it spoke on its line"
        host_log = tmp_path / "host.log"
        with (
            host_log.open("w") as host_stderr,
            child([*host_command, "--port", bridge.host_path], stderr=host_stderr) as host,
        ):
            board_moves: list[str] = []
            unplugged = False
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                with Journal(db) as journal:
                    finished = journal.finished_games()
                    game = journal.current() or (finished[-1] if finished else None)
                    board_moves = [m.uci for m in game.moves] if game else []
                recorded = _recorded(out)
                # Unplugged once the host has recorded that many moves: it is following
                # the game then, and the unplug is a board lost mid-game, not a port
                # taken away before the host's first open (which ends `record`).
                if unplug_at is not None and not unplugged and len(recorded) >= unplug_at:
                    bridge.unplug(1.0)
                    unplugged = True
                back = not unplugged or "connected again" in host_log.read_text()
                if back and len(board_moves) == len(moves) and recorded == board_moves:
                    break
                time.sleep(0.2)  # polling for the outcome, not timing anything
            host_status = stop(host)
            assert host_status == 0, (host_status, host_log.read_text())
            assert stop(board) == 0
    return board_moves, _recorded(out), host_log.read_text()


def _recorded(out: Path) -> list[str]:
    if not out.exists() or not out.read_text().strip():
        return []
    game = read_pgn(out.read_text()).game
    return [b.uci(m) for b, m in zip(game.positions, game.moves, strict=False)]


def test_a_whole_game_is_recorded_move_for_move(tmp_path: Path) -> None:
    moves = random_game(11, 50)
    board_moves, recorded, _ = _play(tmp_path, moves, corrupt=0.0, cuts_per_s=0.0)
    assert board_moves == moves and recorded == moves
    text = (tmp_path / "games.pgn").read_text()
    for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Result"):
        assert f"[{tag} " in text


def test_a_whole_game_survives_a_line_that_corrupts_and_drops_bytes(tmp_path: Path) -> None:
    """1% of the bytes corrupted, 0.2% dropped, the line cut now and then, both
    directions, and the host's end unplugged once: the board's journal, the host's PGN
    and the script agree move for move, nothing lost or doubled, one game."""
    moves = random_game(5, 60)
    board_moves, recorded, log = _play(
        tmp_path, moves, corrupt=0.01, drop=0.002, cuts_per_s=1.0, unplug_at=25
    )
    assert "lost the board" in log and "connected again" in log
    assert board_moves == moves
    assert recorded == moves
    assert (tmp_path / "games.pgn").read_text().count("[Event ") == 1
