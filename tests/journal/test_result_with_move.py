"""A move that ends the game and the result it gives are one transaction: the board is
killed (SIGKILL) at the first SQL statement after the mating move's commit, and the
journal it leaves holds the mate together with its result, never the move alone (which
the next game would then close as `*`)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from reedboard.app import App
from reedboard.app_ports import GameSetup, Sensing
from reedboard.hal.clock import VirtualClock
from reedboard.journal.store import Journal
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game

from tests.app.games import game_script

FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]


def _board(db: Path) -> None:
    """The child: plays the game, and dies as soon as the mate's commit is done."""
    journal = Journal(db)
    inserts = [0]
    committed = [False]

    def trace(sql: str) -> None:
        # Called as each statement starts: a statement after the commit means the commit
        # is on disk.
        if committed[0]:
            os.kill(os.getpid(), signal.SIGKILL)
        if sql.startswith("INSERT INTO moves"):
            inserts[0] += 1
        elif sql == "COMMIT" and inserts[0] == len(FOOLS_MATE):
            committed[0] = True

    script = parse_script(game_script(FOOLS_MATE, t0=50, gap=150, pause=500))
    board = scripted_board(script, electrical=False)
    app = App(
        Sensing(board, scan_hz=100, source=board),
        VirtualClock(),
        journal=journal,
        game=GameSetup(start=Game(script.start)),
    )
    app.start()
    journal.connection.set_trace_callback(trace)
    app.run(until_done=True)
    journal.connection.set_trace_callback(None)
    journal.close()


def test_a_power_cut_after_the_mating_move_keeps_its_result(tmp_path: Path) -> None:
    db = tmp_path / "board.journal"
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            _board(db)
        except BaseException:
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3), "the board failed"
    with Journal(db) as journal:
        [game] = journal.connection.execute("SELECT id FROM games").fetchall()
        saved = journal.game(int(game[0]))
        assert saved is not None
        assert [m.uci for m in saved.moves] == FOOLS_MATE
        assert (saved.result, saved.reason) == ("0-1", "checkmate")
