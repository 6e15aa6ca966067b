"""The board is killed (SIGKILL) at random points while it plays whole games, and
restarted each time from its journal: no move it reported is ever lost, and none is
recorded twice or out of place.

Each run is a forked child playing the rest of the game from an event script on a
virtual clock (so a run takes milliseconds); it dies inside SQLite's work at a random
virtual-machine step, which lands before, inside and after commits alike. The journal is
written in the loop's own thread, and by the writer's thread (as `reedboard run` does),
where the loop has gone on while the write waits for the disk.

200 kills in all: 20 in each of five games, played once with each of the two writers.
(Each writer used to take 200, random ones: the test was written for the loop's writer
alone, and the count doubled unnoticed when the writer's thread came.)

Why 20 a game, on a stratified schedule, cover what 40 random ones did. A child counts
SQLite's virtual-machine steps from its start and dies at step `kill_after`; the board
writes one move (with the sensor lines that led to it) in about 110 steps and commits it
in one step at the end, then reports it: right away with the loop's writer, once the loop
hears the batch is on disk with the thread's. What a kill leaves behind depends only on
where its step falls among these: inside a transaction (rolled back, nothing new on
disk), between a commit and the report (a move on disk, never reported), after the report
(on disk and reported). The kills aim at the first two writes of each run, steps 1 to
`KILL_WINDOW`: a game's 20 kills fall one in each twentieth of that window, in a shuffled
order over the game's plies, each game at its own offset within the twentieth, so that
the five games of one writer put a kill in every stretch of `KILL_WINDOW / 100` (about 2)
steps, where 200 random draws over 199 steps left some 73 of them unhit, different ones
each time the draw changed. With the loop's writer the span between commit and report is
one step, which neither random nor evenly spread kills are sure to meet: the kill of the
twentieth where a quiet move's write ends is aimed at it instead, at the step measured on
a copy of the same journal (the rest of that twentieth lies inside the transaction, which
the other kills meet). What each kill left
behind is counted, and every outcome is asserted to occur in every game of the loop's
writer; with the thread's, where the threads' timing decides when a move is reported, a
kill that left nothing and one that left a move on disk."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
from collections import Counter
from collections.abc import Callable
from contextlib import closing, suppress
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
# 200 kills in all, 20 in each game and writer: each game is a test of its own, so that test
# processes running side by side share the games out.
KILLS_PER_GAME = 20
# The steps of SQLite's work the kills aim at, from a child's start: its first two moves'
# writes (each about 110 steps, a capture's about 140) and the reports after them.
KILL_WINDOW = 224
# With the loop's writer, the kill of this twentieth (steps 101 to 112, where a quiet
# move's write ends) goes to the step between the commit and the report instead, as
# measured on the same journal: a single step, which evenly spread kills would miss.
BOUNDARY_STRATUM = 9
NEVER = 10**12  # SQLite steps: a board that is not killed
# Each restart's script: the rest of the game by a clean hand, from 50 ms after the start,
# its lines 150 ms apart and 500 ms between moves.
T0_MS, GAP_MS, PAUSE_MS = 50, 150, 500


def _child(
    db: Path,
    script: str,
    on_move: Callable[[MoveMade, int], None],
    kill_after: int,
    background: bool,
) -> Journal:
    """The board's run (killed after `kill_after` SQLite steps), each move it reports
    given to `on_move` with the steps done by then; its journal, for a run that ends to
    close."""
    journal = Journal(db)
    steps = [0]

    def progress() -> int:
        steps[0] += 1
        if steps[0] >= kill_after:
            os.kill(os.getpid(), signal.SIGKILL)
        return 0

    parsed = parse_script(script)
    board = scripted_board(parsed, electrical=False)

    def report(message: EffectMessage) -> None:
        if isinstance(message.effect, MoveMade):
            on_move(message.effect, steps[0])

    app = App(
        Sensing(board, scan_hz=100, source=board),
        VirtualClock(),
        link=HostLink(on_effect=report),
        journal=JournalWriter(journal) if background else journal,
        game=GameSetup(start=Game(parsed.start)),
    )
    app.start()  # the resume is read first; the kills aim at the writing of moves
    journal.connection.set_progress_handler(progress, 1)
    try:
        app.run(until_done=True)
    except BaseException:
        journal.close()  # a measuring run stopped at its first move
        raise
    return journal


def _warm(folder: Path, script: str) -> None:
    """One board run here, unkilled, before the forks: what a first run fills in (the
    rules' and the reader's tables, SQLite's) each child then finds filled rather than
    filling it again, about a third of a child's CPU. In the loop's own thread only: a
    writer thread left in this process would be forked with its locks."""
    _child(folder / "warm.sqlite", script, lambda _move, _steps: None, NEVER, False).close()


class _Reported(Exception):
    """The first move of a measuring run is reported: its run need go no further."""


def first_report_step(folder: Path, db: Path, script: str) -> int:
    """The step at which a run of `script` from the journal `db` (copied, and left as it
    was) reports its first move with the loop's own writer: a kill there finds the move
    on disk and not yet reported. Measured here, in the loop's thread (see `_warm`)."""
    scratch = folder / "measure.sqlite"
    scratch.unlink(missing_ok=True)
    if db.exists():
        with closing(sqlite3.connect(db)) as source, closing(sqlite3.connect(scratch)) as target:
            source.backup(target)
    found: list[int] = []

    def on_move(_move: MoveMade, steps: int) -> None:
        found.append(steps)
        raise _Reported

    with suppress(_Reported):
        _child(scratch, script, on_move, NEVER, background=False).close()
    assert found, "the run reported no move"
    return found[0]


def _run_child(
    db: Path, script: str, kill_after: int, background: bool
) -> tuple[list[tuple[int, str]], bool]:
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the board
        os.close(read_fd)
        code = 0

        def on_move(move: MoveMade, _steps: int) -> None:
            os.write(write_fd, f"{move.ply} {move.uci}\n".encode())

        try:
            _child(db, script, on_move, kill_after, background)
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


def kill_schedule(rng: random.Random, number: int) -> list[tuple[int, int]]:
    """Each of a game's kills as its twentieth of the window and its SQLite step: one in
    each twentieth, at this game's own offset within it (game `number` of `GAMES` covers
    that fraction of every twentieth), in a shuffled order."""
    width = KILL_WINDOW / KILLS_PER_GAME
    kills = [
        (stratum, 1 + int((stratum + (number + rng.random()) / GAMES) * width))
        for stratum in range(KILLS_PER_GAME)
    ]
    rng.shuffle(kills)
    return kills


@pytest.mark.parametrize("background", [False, True], ids=["in-loop", "writer-thread"])
@pytest.mark.parametrize("number", range(GAMES))
def test_no_reported_move_is_lost_or_doubled_across_200_kills(
    tmp_path: Path, number: int, background: bool
) -> None:
    rng = random.Random(20240 + number)
    schedule = kill_schedule(rng, number)
    db = tmp_path / f"game{number}.sqlite"
    moves = random_game(1000 + number, PLIES)
    scripts = rest_scripts(moves)
    _warm(tmp_path, scripts[-1])
    reported: dict[int, str] = {}
    # What each kill left behind: no new move on disk; a move on disk not yet reported;
    # every move on disk reported.
    outcomes: Counter[str] = Counter()
    for _attempt in range(4 * KILLS_PER_GAME):
        done = _journal_moves(db)
        assert done == moves[: len(done)], "the journal holds exactly the game's moves"
        for ply, uci in reported.items():
            assert ply <= len(done) and done[ply - 1] == uci, f"reported ply {ply} lost"
        if len(done) == len(moves):
            break
        # Once a game's kills are made, the board plays the rest of the game unkilled,
        # after one more restart.
        kills = sum(outcomes.values())
        kill_after = NEVER
        if kills < KILLS_PER_GAME:
            stratum, kill_after = schedule[kills]
            if stratum == BOUNDARY_STRATUM and not background:
                kill_after = first_report_step(tmp_path, db, scripts[len(done)])
        new, killed = _run_child(db, scripts[len(done)], kill_after, background)
        for ply, uci in new:
            assert ply not in reported, f"ply {ply} reported twice"
            reported[ply] = uci
        if killed:
            outcomes[left_behind(len(_journal_moves(db)) - len(done), len(new))] += 1
    assert _journal_moves(db) == moves
    assert sum(outcomes.values()) == KILLS_PER_GAME, f"{outcomes} kills"
    check_outcomes(outcomes, background)


def left_behind(written: int, reported: int) -> str:
    """What a kill left behind, from the moves its run wrote and reported."""
    assert written >= reported, "a move reported before it was on disk"
    if not written:
        return "none written"
    return "unreported" if written > reported else "all reported"


def check_outcomes(outcomes: Counter[str], background: bool) -> None:
    """Every outcome, each game, with the loop's writer. The thread's reports wait until
    the loop hears that its batch is on disk, which the threads' timing decides: there
    each game must see a kill that left nothing and one that left a move on disk,
    reported by then or not."""
    if background:
        assert "none written" in outcomes, f"kills left {dict(outcomes)}"
        assert outcomes.keys() & {"unreported", "all reported"}, f"kills left {dict(outcomes)}"
    else:
        expected = {"none written", "unreported", "all reported"}
        assert outcomes.keys() == expected, f"kills left {dict(outcomes)}"
