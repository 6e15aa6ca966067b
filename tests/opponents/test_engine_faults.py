"""Stockfish missing, crashing or hanging: the board is told once, in words, and plays on
as a two-player board; the engine's process runs below the scan loop's priority."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from reedboard.events import MoveMade
from reedboard.opponents import uci_engine
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
        for thread in board.threads:
            thread.wait(30)
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


def test_an_engine_that_hangs_is_given_up_after_its_time(tmp_path: Path) -> None:
    [status] = _play_two_moves(
        EngineSettings(path=_engine(tmp_path, "time.sleep(60)"), movetime_ms=10)
    )
    assert "did not answer within 5.01 s" in status


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


HOG = "while True: pass"  # a program at the board's own priority that wants a whole CPU


@needs_stockfish
def test_an_engine_starved_of_the_cpu_is_waited_for_not_taken_for_hung(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stockfish (SCHED_IDLE) on one CPU with a program at normal priority spinning on
    it gets a slice of CPU time now and then: long past the wall time its move was
    allowed (half a second here, for the silences between those slices to outlast it),
    it is still waited for, and answers once the CPU is free."""
    monkeypatch.setattr(uci_engine, "EXTRA_S", 0.5)
    ours = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(ours)})  # what this thread starts from now on runs there
    try:
        thread = EngineThread(EngineSettings(nice=7))
        hog: subprocess.Popen[bytes] | None = None
        try:
            thread.ask(Question("warm", START, (), "nodes 1000", 10_000))
            assert thread.wait(120)
            assert [a.error for a in thread.answers()] == [None]
            hog = subprocess.Popen([sys.executable, "-c", HOG])
            # Far more nodes than a starved engine searches while the CPU is taken.
            thread.ask(Question("starved", START, (), "nodes 200000", 10))
            assert not thread.wait(5.0)  # starved: no answer, and no error
            hog.kill()
            assert thread.wait(300)
            [answer] = thread.answers()
            assert answer.error is None and answer.thought is not None
        finally:
            if hog is not None:
                hog.kill()
                hog.wait()
            thread.close()
    finally:
        os.sched_setaffinity(0, ours)
