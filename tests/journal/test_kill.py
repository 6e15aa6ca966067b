"""The board is killed (SIGKILL) at random points while it plays whole games, and
restarted each time from its journal: no move it reported is ever lost, and none is
recorded twice or out of place.

Each run is a forked child playing the rest of the game from an event script on a
virtual clock (so a run takes milliseconds); it dies inside SQLite's work at a random
virtual-machine step, which lands before, inside and after commits alike. The journal is
written in the loop's own thread, and by the writer's thread (as `reedboard run` does),
where the loop has gone on while the write waits for the disk."""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import pytest
from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.events import MoveMade
from reedboard.hal.clock import VirtualClock
from reedboard.journal.store import Journal
from reedboard.journal.writer import JournalWriter
from reedboard.link.board_messages import EffectMessage
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game
from reedboard.rules.position import Position

from tests.app.games import move_lines, random_game

GAMES = 5
PLIES = 40
# 200 kills in all, 40 in each game: each game is a test of its own, so that test processes
# running side by side share the games out.
KILLS_PER_GAME = 40
NEVER = 10**12  # SQLite steps: a board that is not killed
# Each restart's script: the rest of the game by a clean hand, from 50 ms after the start,
# its lines 150 ms apart and 500 ms between moves.
T0_MS, GAP_MS, PAUSE_MS = 50, 150, 500


def _child(db: Path, script: str, report_fd: int, kill_after: int, background: bool) -> Journal:
    """The board's run (killed after `kill_after` SQLite steps); its journal, for a run
    that ends to close."""
    journal = Journal(db)
    steps = [kill_after]

    def progress() -> int:
        steps[0] -= 1
        if steps[0] <= 0:
            os.kill(os.getpid(), signal.SIGKILL)
        return 0

    parsed = parse_script(script)
    board = scripted_board(parsed, electrical=False)

    def report(message: EffectMessage) -> None:
        if isinstance(message.effect, MoveMade):
            os.write(report_fd, f"{message.effect.ply} {message.effect.uci}\n".encode())

    app = App(
        Sensing(board, scan_hz=100, source=board),
        VirtualClock(),
        link=HostLink(on_effect=report),
        journal=JournalWriter(journal) if background else journal,
        game=GameSetup(start=Game(parsed.start)),
    )
    app.start()  # the resume is read first; the kills aim at the writing of moves
    journal.connection.set_progress_handler(progress, 1)
    app.run(until_done=True)
    return journal


def _warm(folder: Path, script: str) -> None:
    """One board run here, unkilled, before the forks: what a first run fills in (the
    rules' and the reader's tables, SQLite's) each child then finds filled rather than
    filling it again, about a third of a child's CPU. In the loop's own thread only: a
    writer thread left in this process would be forked with its locks."""
    read_fd, write_fd = os.pipe()
    try:
        _child(folder / "warm.sqlite", script, write_fd, NEVER, background=False).close()
    finally:
        os.close(read_fd)
        os.close(write_fd)


def _run_child(
    db: Path, script: str, kill_after: int, background: bool
) -> tuple[list[tuple[int, str]], bool]:
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the board
        os.close(read_fd)
        code = 0
        try:
            _child(db, script, write_fd, kill_after, background)
        except BaseException:
            code = 3
        os._exit(code)
    os.close(write_fd)
    data = b""
    try:
        while chunk := os.read(read_fd, 65536):
            data += chunk
    except BaseException:  # the test failed or timed out: the board must not run on
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    finally:
        os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert killed or os.WEXITSTATUS(status) == 0, "the board failed instead of being killed"
    reported = [(int(p), u) for p, u in (line.split() for line in data.decode().splitlines())]
    return reported, killed


def rest_scripts(moves: list[str]) -> list[str]:
    """The script a restart plays after each number of plies done (as `game_script`
    writes it), each move's lines made once for the game and then moved in time: made
    anew at each of a game's 40-odd restarts, they cost a quarter of the test's CPU."""
    positions = [Position.standard()]
    timed = []  # each move's lines from t = 0, and how long the move takes
    for uci in moves:
        position = positions[-1]
        timed.append(move_lines(position, uci, 0, GAP_MS, PAUSE_MS))
        positions.append(position.play(position.parse_uci(uci)))
    scripts = []
    for done in range(len(moves)):
        lines = [f"@start fen {positions[done].fen()}" if done else "@start standard"]
        t = T0_MS
        for move, length in timed[done:]:
            lines += [line.at(t + line.t_ms).text() for line in move]
            t += length
        scripts.append("\n".join(lines) + "\n")
    return scripts


def _journal_moves(db: Path) -> list[str]:
    if not db.exists():
        return []
    with Journal(db) as journal:
        rows = journal.connection.execute(
            "SELECT id FROM games ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if rows is None:
            return []
        game = journal.game(int(rows[0]))
        assert game is not None
        plies = [m.ply for m in game.moves]
        assert plies == list(range(1, len(plies) + 1)), "plies must run 1, 2, 3... once each"
        return [m.uci for m in game.moves]


@pytest.mark.parametrize("background", [False, True], ids=["in-loop", "writer-thread"])
@pytest.mark.parametrize("number", range(GAMES))
def test_no_reported_move_is_lost_or_doubled_across_200_kills(
    tmp_path: Path, number: int, background: bool
) -> None:
    rng = random.Random(20240 + number)
    kills = 0
    db = tmp_path / f"game{number}.sqlite"
    moves = random_game(1000 + number, PLIES)
    scripts = rest_scripts(moves)
    _warm(tmp_path, scripts[-1])
    reported: dict[int, str] = {}
    for _attempt in range(400):
        done = _journal_moves(db)
        assert done == moves[: len(done)], "the journal holds exactly the game's moves"
        for ply, uci in reported.items():
            assert ply <= len(done) and done[ply - 1] == uci, f"reported ply {ply} lost"
        if len(done) == len(moves):
            break
        # A move's writing (with the sensor lines that led to it) takes about 110
        # SQLite steps: the kills land before, inside and after it. About half of them
        # land before the next move is written, so a game's 40 kills take some 20 of its
        # plies; once they are made, the board plays the rest of the game unkilled, after
        # one more restart (the kills went on to the last ply before: twice the CPU for
        # kills no different from these).
        kill_after = rng.randrange(1, 200) if kills < KILLS_PER_GAME else NEVER
        new, killed = _run_child(db, scripts[len(done)], kill_after, background)
        for ply, uci in new:
            assert ply not in reported, f"ply {ply} reported twice"
            reported[ply] = uci
        kills += killed
    assert _journal_moves(db) == moves
    assert kills == KILLS_PER_GAME, f"{kills} kills"
