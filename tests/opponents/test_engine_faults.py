"""Stockfish missing, crashing or hanging: the board is told once, in words, and plays on
as a two-player board; the engine's process runs below the scan loop's priority."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from reedboard.events import MoveMade
from reedboard.opponents import thinker, uci_engine
from reedboard.opponents.engine_cpu import Usage, hung
from reedboard.opponents.engine_play import EngineSettings
from reedboard.opponents.thinker import EngineThread, Question

from tests.opponents.engine_board import engine_board

STOCKFISH = "/usr/games/stockfish"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
needs_stockfish = pytest.mark.skipif(not os.access(STOCKFISH, os.X_OK), reason="needs stockfish")


def _engine(tmp_path: Path, body: str) -> str:
    """A program that answers the handshake as an engine, then does `body` on `go`."""
    path = tmp_path / "engine"
    path.write_text(
        f"#!{sys.executable}\nimport sys, time\n"
        "for line in sys.stdin:\n"
        "    word = line.split()[0] if line.split() else ''\n"
        "    if word == 'uci': print('id name Broken'); print('uciok', flush=True)\n"
        "    elif word == 'isready': print('readyok', flush=True)\n"
        "    elif word == 'quit': break\n"
        f"    elif word == 'go':\n        {body}\n"
    )
    path.chmod(0o755)
    return str(path)


def _play_two_moves(settings: EngineSettings) -> list[str]:
    board = engine_board(settings)
    try:
        board.make("e2e4")
        # Until the board has taken the engine's failure (an engine missing from the
        # start failed before e2e4, its answer picked up already: nothing more to wait for).
        deadline = time.monotonic() + 30  # a bound for a stuck run, not a timing
        while "a two-player board" not in board.opponents.current():
            assert time.monotonic() < deadline, board.opponents.current()
            board.step()
            for thread in board.threads:
                thread.wait(0.02)
        board.run_for(100)
        status = board.opponents.current()
        assert board.opponents.hint() == status  # no engine to ask: said why
        board.make("e7e5")  # the person plays both sides now
        board.make("g1f3")
        moves = [e.effect.uci for e in board.effects if isinstance(e.effect, MoveMade)]
        assert moves == ["e2e4", "e7e5", "g1f3"]
        assert board.shown() is None
        return [status]
    finally:
        board.opponents.close()


def test_a_missing_engine_is_told_and_the_board_plays_on_for_two() -> None:
    [status] = _play_two_moves(EngineSettings(path="no-such-engine-here", movetime_ms=50))
    assert status == (
        "the engine stopped (engine 'no-such-engine-here' not found (install it: "
        "apt-get install stockfish)): a two-player board"
    )


def test_an_engine_that_crashes_on_go_is_told_and_the_board_plays_on(tmp_path: Path) -> None:
    [status] = _play_two_moves(
        EngineSettings(path=_engine(tmp_path, "sys.exit(3)"), movetime_ms=50)
    )
    assert "the engine Broken" not in status  # it is named by its program
    assert "stopped (exit status 3)" in status and status.endswith("a two-player board")


def test_an_engine_that_hangs_is_given_up_after_its_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Given up after its time and the margin on top (5 s on the board, 0.2 s here: the
    same two looks at the asleep engine decide, 0.2 s apart rather than a second)."""
    monkeypatch.setattr(uci_engine, "EXTRA_S", 0.2)
    monkeypatch.setattr(uci_engine, "RECHECK_S", 0.2)
    [status] = _play_two_moves(
        EngineSettings(path=_engine(tmp_path, "time.sleep(60)"), movetime_ms=10)
    )
    assert "did not answer within 0.21 s" in status


def test_closing_the_opponent_stops_an_engine_hung_in_its_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board closes its opponent while the engine is hung in a long search: the
    engine's process is gone when `close` returns, not left running (given 2 s to quit
    on the board, 0.2 s here)."""
    monkeypatch.setattr(thinker, "QUIT_S", 0.2)
    went = tmp_path / "went"
    thread = EngineThread(
        EngineSettings(path=_engine(tmp_path, f"open({str(went)!r}, 'w').close(); time.sleep(600)"))
    )
    try:
        thread.ask(Question("k", START, (), "movetime 10", 60_000))
        deadline = time.monotonic() + 60  # a bound for a stuck run, not a timing
        while not went.exists():  # the engine is in its search
            assert time.monotonic() < deadline, "the engine never searched"
            time.sleep(0.01)
        pid = thread.engine_pid
        assert pid is not None
    finally:
        thread.close()
    assert not Path(f"/proc/{pid}").exists(), "the hung engine outlived close()"
    assert thread.answers() == []  # closed: nobody is told the engine stopped


def test_closing_the_opponent_stops_a_long_search_rather_than_killing_it(
    tmp_path: Path,
) -> None:
    """A search in progress when the opponent is closed (the page chose another, holding
    the opponents' lock) is told `stop`: the engine answers and quits at once, rather than
    holding the caller until it is given up and killed."""
    went, stopped = tmp_path / "went", tmp_path / "stopped"
    on_go = (
        f"open({str(went)!r}, 'w').close()\n"
        "        for line in sys.stdin:\n"
        "            if line.strip() == 'stop':\n"
        f"                open({str(stopped)!r}, 'w').close()\n"
        "                print('bestmove e2e4', flush=True)\n"
        "                break"
    )
    thread = EngineThread(EngineSettings(path=_engine(tmp_path, on_go)))
    try:
        thread.ask(Question("k", START, (), "movetime 600000", 600_000))
        deadline = time.monotonic() + 60  # a bound for a stuck run, not a timing
        while not went.exists():  # the engine is in its search
            assert time.monotonic() < deadline, "the engine never searched"
            time.sleep(0.01)
    finally:
        thread.close()
    assert stopped.exists(), "the search was not stopped: the engine was killed"
    assert thread.answers() == []  # closed: nobody waits for that move


def test_an_engine_that_answers_while_it_is_looked_at_is_not_hung(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look at a late engine (its CPU time and state, read from /proc) takes a moment,
    longer on a loaded machine: an engine that answers meanwhile is asleep by the end of
    the look, its answer waiting. It is taken, not the engine given up."""
    monkeypatch.setattr(uci_engine, "EXTRA_S", 0.05)
    engine = uci_engine.UciEngine(
        _engine(tmp_path, "time.sleep(0.2); print('bestmove e2e4', flush=True)")
    )

    def answered_while_looked_at(*_args: object) -> bool:
        deadline = time.monotonic() + 60  # a bound for a stuck run, not a timing
        while engine._lines.empty():
            assert time.monotonic() < deadline
            time.sleep(0.01)
        return True  # asleep by now: as a single look judges it

    monkeypatch.setattr(uci_engine, "hung", answered_while_looked_at)
    try:
        engine.start()
        assert engine.think(START, [], "movetime 10", 10).best == "e2e4"
    finally:
        engine.close()


@needs_stockfish
def test_the_engine_runs_below_the_boards_priority() -> None:
    thread = EngineThread(EngineSettings(nice=7))
    try:
        thread.ask(Question("k", "8/8/8/8/8/8/8/K6k w - - 0 1", (), "movetime 10", 10))
        assert thread.wait(30)
        assert thread.engine_pid is not None
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, thread.engine_pid) == min(19, ours + 7)
        assert os.sched_getscheduler(thread.engine_pid) == os.SCHED_IDLE
        [answer] = thread.answers()
        assert answer.error is None and answer.thought is not None
    finally:
        thread.close()


class _LateParent(subprocess.Popen[str]):
    """Popen as on a loaded machine: the board's process is back on a CPU only after the
    engine has started its search threads."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        deadline = time.monotonic() + 60  # a bound for a stuck run, not a timing
        while len(os.listdir(f"/proc/{self.pid}/task")) < 2:
            assert time.monotonic() < deadline, "the engine started no second thread"
            time.sleep(0.01)


@needs_stockfish
def test_every_thread_of_the_engine_runs_below_the_board_even_started_early(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Linux lowers a thread at a time: a search thread the engine started before it was
    lowered would search at the board's own priority, taking its CPU."""
    monkeypatch.setattr(subprocess, "Popen", _LateParent)  # as uci_engine calls it
    engine = uci_engine.UciEngine(STOCKFISH, nice=7)
    try:
        engine.start()
        threads = [int(task) for task in os.listdir(f"/proc/{engine.pid}/task")]
        assert len(threads) >= 2
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        for thread in threads:
            assert os.getpriority(os.PRIO_PROCESS, thread) == min(19, ours + 7), thread
            assert os.sched_getscheduler(thread) == os.SCHED_IDLE, thread
    finally:
        engine.close()


# A program at the board's own priority that wants a whole CPU; it says when it begins to.
HOG = "print('spinning', flush=True)\nwhile True: pass"


@needs_stockfish
def test_an_engine_starved_of_the_cpu_is_waited_for_not_taken_for_hung(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stockfish (SCHED_IDLE) on one CPU with a program at normal priority spinning on
    it gets a slice of CPU time now and then. Given a search it cannot finish (`go
    infinite`), once its time is past (half a second here) the engine is looked at and
    judged starved, not hung, and still waited for; stopped then, it answers with its
    move, no error. No wall time is assumed: the test waits for the judgement itself."""
    monkeypatch.setattr(uci_engine, "EXTRA_S", 0.5)
    verdicts: list[tuple[float, float, bool]] = []  # (waited, allowed, hung) at each look
    starved_seen = threading.Event()

    def judged(
        waited_s: float,
        allowed_s: float,
        before: float | None,
        now: Usage | None,
        last: Usage | None = None,
    ) -> bool:
        verdict = hung(waited_s, allowed_s, before, now, last)
        verdicts.append((waited_s, allowed_s, verdict))
        if waited_s >= allowed_s and not verdict:
            starved_seen.set()
        return verdict

    monkeypatch.setattr(uci_engine, "hung", judged)
    ours = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(ours)})  # what this thread starts from now on runs there
    try:
        thread = EngineThread(EngineSettings(nice=7))
        hog: subprocess.Popen[bytes] | None = None
        try:
            thread.ask(Question("warm", START, (), "nodes 1000", 10_000))
            assert thread.wait(120)
            assert [a.error for a in thread.answers()] == [None]
            hog = subprocess.Popen([sys.executable, "-c", HOG], stdout=subprocess.PIPE)
            assert hog.stdout is not None
            assert hog.stdout.readline() == b"spinning\n"  # the CPU is taken from now on
            # Only the search's judgement counts: on a loaded machine the handshake or the
            # warm-up may be late and judged starved too, and a `stop` sent on that would
            # reach the engine before its `go infinite`, a search then never stopped.
            # The engine waits for a question now: nothing is judged meanwhile.
            starved_seen.clear()
            verdicts.clear()
            thread.ask(Question("starved", START, (), "infinite", 10))
            # A bound for a stuck run, not a timing: the first look past its time comes
            # half a second after the question on any machine.
            assert starved_seen.wait(120), f"never judged starved: {verdicts}"
            assert thread.answers() == []  # waited for: no answer, and no error
            thread.stop()  # the search ends only so, with the move found so far
            hog.kill()
            assert thread.wait(300)
            [answer] = thread.answers()
            assert answer.error is None and answer.thought is not None, (answer, verdicts)
            assert answer.key == "starved"
        finally:
            if hog is not None:
                hog.kill()
                hog.communicate()
            thread.close()
    finally:
        os.sched_setaffinity(0, ours)
