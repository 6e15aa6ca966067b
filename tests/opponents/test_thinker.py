"""The engine's thread with Debian's Stockfish: `stop` ends the searches asked so far at
once, each answered with a move, and not a search asked after it."""

from __future__ import annotations

import os
import time

import pytest
from reedboard.opponents.engine_play import EngineSettings
from reedboard.opponents.thinker import Answer, EngineThread, Question

STOCKFISH = "/usr/games/stockfish"
pytestmark = pytest.mark.skipif(not os.access(STOCKFISH, os.X_OK), reason="needs stockfish")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
TEN_MINUTES = ("movetime 600000", 600_000)  # a search no test waits out


def _answers(thread: EngineThread, count: int) -> list[Answer]:
    found: list[Answer] = []
    deadline = time.monotonic() + 30  # a bound for a stuck run, not a timing
    while len(found) < count:
        assert time.monotonic() < deadline, f"{len(found)} of {count} searches answered"
        thread.wait(0.05)
        found += thread.answers()
    return found


def test_stop_ends_every_search_asked_so_far_begun_or_not() -> None:
    thread = EngineThread(EngineSettings(level=5))
    try:
        thread.ask(Question("first", START, (), *TEN_MINUTES))
        thread.ask(Question("second", START, ("e2e4",), *TEN_MINUTES))  # not begun yet
        thread.stop()
        first, second = _answers(thread, 2)
        assert (first.key, second.key) == ("first", "second")
        assert first.thought is not None and first.thought.best[1] in "12"  # White's
        assert second.thought is not None and second.thought.best[1] in "78"  # Black's
    finally:
        thread.close()
    assert thread.error is None


def test_a_search_asked_after_stop_thinks_on_until_stopped_itself() -> None:
    thread = EngineThread(EngineSettings(level=5))
    try:
        thread.ask(Question("first", START, (), *TEN_MINUTES))
        thread.stop()
        assert [a.key for a in _answers(thread, 1)] == ["first"]
        thread.ask(Question("next", START, ("d2d4",), *TEN_MINUTES))
        assert not thread.wait(0.5)  # still thinking (a missed stop would answer at once)
        assert thread.answers() == []
        thread.stop()
        [answer] = _answers(thread, 1)
        assert answer.key == "next" and answer.thought is not None
    finally:
        thread.close()
