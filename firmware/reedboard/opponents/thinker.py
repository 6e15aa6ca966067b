"""The engine off the scan loop: Stockfish runs in its own process, at a lower priority,
and a thread of the board's process talks to it, so the loop only hands a question over
(`ask`) and picks the answers up on a later turn (`answers`); it never waits for the
engine, not even for its start. `stop` ends the searches asked so far at once (UCI
`stop`): each is answered with the best move found by then, and the engine is free for
the next question (a game taken back or begun anew while the engine thinks).

An engine that cannot start, stops or hangs is one `Answer` with the `error` in words;
the thread then ends and every later question is answered with that error at once."""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reedboard.errors import ReedboardError
from reedboard.opponents.engine_play import EngineSettings, uci_options

if TYPE_CHECKING:
    from reedboard.opponents.uci_engine import Thought, UciEngine

logger = logging.getLogger(__name__)

QUIT_S = 2.0  # how long an engine may take to quit when the opponent closes
REAP_S = 5.0  # a bound on a killed engine's end (the kernel ends it at once)


@dataclass(frozen=True)
class Question:
    key: object  # what the answer is for: the asker's own mark
    start_fen: str
    moves: tuple[str, ...]
    limits: str  # the `go` command's
    longest_ms: int
    multi_pv: int = 1


@dataclass(frozen=True)
class Answer:
    key: object
    thought: Thought | None = None
    error: str | None = None


class Thinker:
    """The port the engine opponent asks (the real one below; a test may give another)."""

    def ask(self, question: Question) -> None:
        raise NotImplementedError

    def answers(self) -> list[Answer]:
        raise NotImplementedError

    def stop(self) -> None:
        """End every search asked so far now: each is answered at once with the best move
        found by then (a question not yet begun, with the engine's first thoughts)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class EngineThread(Thinker):
    def __init__(
        self,
        settings: EngineSettings,
        *,
        make: Callable[[EngineSettings], UciEngine] | None = None,
    ) -> None:
        self.settings = settings
        self._make = make or _started
        self._questions: queue.Queue[tuple[int, Question] | None] = queue.Queue()
        self._asked = 0  # questions asked so far, each numbered in turn
        self._stopped = 0  # the questions up to this one are to end at once
        self._searching = 0  # the question in the engine now (0: none)
        self._answers: queue.Queue[Answer] = queue.Queue()
        self._answered = threading.Event()  # an answer waits to be picked up
        self.error: str | None = None  # why the engine is gone, once it is
        self.engine_name: str | None = None
        self.engine_pid: int | None = None
        self._engine: UciEngine | None = None  # once started, for `close` to stop
        self._closing = threading.Event()
        # Held while a search is started and while `close` or `stop` ends one: a search is
        # either started before `stop` is sent (which ends it) or started knowing it is to
        # end.
        self._starting = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="engine", daemon=True)
        self._thread.start()

    def ask(self, question: Question) -> None:
        with self._starting:
            self._asked += 1
            self._questions.put((self._asked, question))

    def stop(self) -> None:
        # Sent under the lock: the search in the engine now is one of those asked so far
        # (a later one begins only after `stop` is sent, and so is not ended by it).
        with self._starting:
            self._stopped = self._asked
            if self._searching and self._engine is not None:
                with contextlib.suppress(ReedboardError):  # it is gone: told by its thread
                    self._engine.send("stop")

    def answers(self) -> list[Answer]:
        self._answered.clear()
        found: list[Answer] = []
        while True:
            try:
                found.append(self._answers.get_nowait())
            except queue.Empty:
                return found

    def wait(self, timeout_s: float) -> bool:
        """Wait until an answer waits to be picked up (a test's or a bench's board that
        has nothing else to do meanwhile); whether one does."""
        return self._answered.wait(timeout_s)

    def _answer(self, answer: Answer) -> None:
        self._answers.put(answer)
        self._answered.set()

    def close(self) -> None:
        """Quit the engine; one still thinking (or hung, or starved of the CPU) past
        `QUIT_S` is killed, so no engine outlives the board's opponent. A search in
        progress is stopped first: the engine answers at once and quits, rather than
        holding the caller (the opponent's lock, the page's thread) until it is killed."""
        with self._starting:
            self._closing.set()
            engine = self._engine
        if engine is not None:
            with contextlib.suppress(ReedboardError):  # it stopped already: nothing to end
                engine.send("stop")
        self._questions.put(None)
        self._thread.join(timeout=QUIT_S)
        engine = self._engine
        if self._thread.is_alive() and engine is not None:
            engine.kill()  # its thread is told the engine stopped, and ends
            # Gone when `close` returns, not left for the thread to reap at its next turn
            # (on a busy CPU that turn can come after the join's time).
            engine.reap(REAP_S)
            self._thread.join(timeout=QUIT_S)

    def _run(self) -> None:
        engine: UciEngine | None = None
        try:
            engine = self._engine = self._make(self.settings)
            self.engine_pid = engine.pid
            engine.start(level=None)
            self.engine_name = engine.id_name
            for name, value in uci_options(self.settings):
                engine.set_option(name, value)
            engine.ready()
            multi_pv = 1
            while (asked := self._questions.get()) is not None:
                number, question = asked
                if question.multi_pv != multi_pv:
                    multi_pv = question.multi_pv
                    engine.set_option("MultiPV", multi_pv)
                with self._starting:
                    if self._closing.is_set():
                        break
                    engine.go(question.start_fen, list(question.moves), question.limits)
                    self._searching = number
                    if number <= self._stopped:  # stopped before it began: ends at once
                        engine.send("stop")
                thought = engine.thought(question.longest_ms)
                with self._starting:
                    self._searching = 0
                if not self._closing.is_set():  # a search `close` stopped: nobody waits on it
                    self._answer(Answer(question.key, thought))
        except ReedboardError as error:  # an EngineError: not found, stopped, hung
            if not self._closing.is_set():  # not one `close` killed: nobody waits on it
                self._failed(str(error))
        finally:
            if engine is not None:
                engine.close()

    def _failed(self, error: str) -> None:
        """Every question, the ones waiting and the ones to come, has this answer."""
        self.error = error
        logger.error("%s: the board plays on as a two-player board", error)
        self._answer(Answer(None, error=error))
        while self._questions.get() is not None:
            self._answer(Answer(None, error=error))


def _started(settings: EngineSettings) -> UciEngine:
    # Imported here, on the engine's thread: a board with no engine never loads
    # subprocess, and one with an engine does not wait for it before its first scan.
    from reedboard.opponents.uci_engine import UciEngine

    return UciEngine(settings.path, nice=settings.nice)
