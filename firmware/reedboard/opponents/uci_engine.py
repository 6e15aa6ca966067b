"""A UCI engine (Stockfish from the OS packages, or any other) as a child process: the
board's engine opponent and `reedboard-host play` on a PC both run it.

Every wait has a deadline (counted in the engine's CPU time when it is starved of the CPU,
`engine_cpu`) and an engine that exits is noticed at once (a reader thread
turns its output into a queue that ends with None), so a hung or crashed engine becomes
one clear `EngineError`, never a hung board or host. `nice` lowers the engine's priority
once it runs: on the board it must never take the CPU from the scan loop."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass

from reedboard.errors import ReedboardError
from reedboard.opponents.engine_cpu import Usage, cpu_s, hung, usage

START_S = 10.0
EXTRA_S = 5.0  # on top of the think time, before an engine counts as hung
RECHECK_S = 1.0  # how often a late engine is looked at again: hung, or starved?


class EngineError(ReedboardError, RuntimeError):
    """The engine cannot be found, does not answer, or stopped."""


def find_engine(name: str) -> str:
    """The engine's program: a path, a name on PATH, or a game in /usr/games (where
    Debian's stockfish package installs it)."""
    if os.sep in name and os.access(name, os.X_OK):
        return name
    found = shutil.which(name) or shutil.which(name, path="/usr/games")
    if found is None:
        raise EngineError(f"engine {name!r} not found (install it: apt-get install stockfish)")
    return found


@dataclass(frozen=True)
class Thought:
    """What the engine found: its `best` move and, with MultiPV, each line's first move
    and score in centipawns from the mover's side (mates as +-100000 less the plies)."""

    best: str
    lines: tuple[tuple[str, int], ...] = ()


class UciEngine:
    def __init__(self, name: str = "stockfish", *, nice: int = 0) -> None:
        self.name = name
        self.path = find_engine(name)
        self.id_name: str | None = None  # what the engine calls itself (`id name`)
        try:
            self._process = subprocess.Popen(
                [self.path],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(f"cannot start {self.path}: {error.strerror or error}") from None
        if nice:
            _lower(self._process.pid, os.getpriority(os.PRIO_PROCESS, 0) + nice)
        self._lines: queue.Queue[str | None] = queue.Queue()
        # `stop` may come from another thread than the one asking: one line at a time.
        self._writing = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    @property
    def pid(self) -> int:
        return self._process.pid

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line.strip())
        self._lines.put(None)

    def send(self, line: str) -> None:
        try:
            assert self._process.stdin is not None
            with self._writing:
                self._process.stdin.write(line + "\n")
                self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._stopped() from None

    def expect(self, prefix: str, timeout_s: float) -> str:
        """Wait for the first line starting with `prefix`. An engine past `timeout_s` is
        given up only if it is hung, not while it is starved of the CPU (`engine_cpu`)."""
        started, before = time.monotonic(), cpu_s(self.pid)
        last: Usage | None = None  # the engine at the previous look past its time
        while True:
            wait = started + timeout_s - time.monotonic()
            try:
                line = self._lines.get(timeout=wait if wait > 0 else RECHECK_S)
            except queue.Empty:
                waited, now = time.monotonic() - started, usage(self.pid)
                if not hung(waited, timeout_s, before, now, last):
                    last = now if waited >= timeout_s else None
                    continue
                if not self._lines.empty():
                    continue  # it answered while it was looked at: asleep since, not hung
                self.kill()  # hung: told to quit, it would not either
                raise EngineError(
                    f"the engine {self.name} did not answer within {timeout_s:g} s"
                ) from None
            if line is None:
                raise self._stopped()
            if line.startswith(prefix):
                return line

    def _stopped(self) -> EngineError:
        try:
            code = self._process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        return EngineError(f"the engine {self.name} stopped (exit status {code})")

    def start(
        self, *, level: int | None = None, chess960: bool = False, handshake_s: float = START_S
    ) -> None:
        """The UCI handshake, then the options. A program that does not answer `uci` with
        `uciok` within `handshake_s` is not a UCI engine (`/bin/cat` echoes, a shell waits)."""
        self.send("uci")
        deadline = time.monotonic() + handshake_s
        while True:
            try:
                line = self.expect("", max(0.0, deadline - time.monotonic()))
            except EngineError as error:
                if "did not answer" not in str(error):
                    raise  # it stopped: that says more
                raise EngineError(
                    f"{self.path} is not a UCI engine: no uciok within {handshake_s:g} s"
                ) from None
            if line.startswith("id name "):
                self.id_name = line.removeprefix("id name ").strip()
            elif line == "uciok":
                break
        if level is not None:
            self.send(f"setoption name Skill Level value {max(0, min(20, level))}")
        if chess960:
            self.send("setoption name UCI_Chess960 value true")
        self.ready()

    def ready(self) -> None:
        self.send("isready")
        self.expect("readyok", START_S)

    def set_option(self, name: str, value: object) -> None:
        self.send(f"setoption name {name} value {value}")

    def best_move(self, start_fen: str, moves: list[str], movetime_ms: int) -> str:
        return self.think(start_fen, moves, f"movetime {movetime_ms}", movetime_ms).best

    def think(self, start_fen: str, moves: list[str], limits: str, longest_ms: int) -> Thought:
        """`go` with `limits` (`movetime 500`, `wtime 60000 btime 59000 winc 2000 ...`);
        the engine counts as hung after `longest_ms` and a few seconds more."""
        self.go(start_fen, moves, limits)
        return self.thought(longest_ms)

    def go(self, start_fen: str, moves: list[str], limits: str) -> None:
        """Start a search (`think`'s first half): its `thought` is read next."""
        position = f"position fen {start_fen}" + (" moves " + " ".join(moves) if moves else "")
        self.send(position)
        self.send(f"go {limits}")

    def thought(self, longest_ms: int) -> Thought:
        """The search's result (`think`'s second half); `stop`, sent meanwhile from any
        thread, has the engine answer at once with the best move found so far."""
        lines: dict[int, tuple[str, int]] = {}
        while True:
            line = self.expect("", longest_ms / 1000 + EXTRA_S)
            if line.startswith("info ") and " pv " in line:
                found = _pv_line(line.split())
                if found is not None:
                    lines[found[0]] = found[1]
            elif line.startswith("bestmove"):
                break
        words = line.split()
        if len(words) < 2 or words[1] in ("(none)", "0000"):
            raise EngineError(f"the engine {self.name} has no move in this position")
        return Thought(words[1], tuple(lines[k] for k in sorted(lines)))

    def kill(self) -> None:
        """Stop the engine at once, whatever it is doing (safe from any thread): a thread
        waiting on it is told it stopped."""
        with contextlib.suppress(OSError):
            self._process.kill()

    def reap(self, timeout_s: float) -> None:
        """Wait (up to `timeout_s`) for a killed engine's end: until its parent has waited
        for it, a process killed is still there (a zombie), whichever thread waits."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=timeout_s)

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                self.send("quit")
                self._process.wait(timeout=2)
            except (EngineError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()


def _lower(pid: int, niceness: int) -> None:
    """Every thread of the engine `nice` below the board, and only on time no one else
    wants (SCHED_IDLE): a nice process still takes its weighted share, which on one small
    CPU is the scan loop's. Linux sets both per thread: the threads the engine starts
    after its first one is lowered inherit it, but the engine may already have started
    its search threads (a parent late back on a loaded CPU), so each one is lowered,
    until no new one appears. An engine that ended already is told by the handshake."""
    done: set[int] = set()
    while True:
        try:
            threads = {pid} | {int(task) for task in os.listdir(f"/proc/{pid}/task")}
        except OSError:
            threads = {pid}  # no /proc: the first thread, as elsewhere
        if threads <= done:
            return
        for thread in sorted(threads - done, key=lambda tid: tid != pid):
            with contextlib.suppress(OSError):  # a thread that ended meanwhile
                os.setpriority(os.PRIO_PROCESS, thread, niceness)
                os.sched_setscheduler(thread, os.SCHED_IDLE, os.sched_param(0))
            done.add(thread)


MATE_CP = 100_000


def _pv_line(words: list[str]) -> tuple[int, tuple[str, int]] | None:
    """(MultiPV index, (first move, centipawns)) of an `info ... pv ...` line, if whole."""
    try:
        index = int(words[words.index("multipv") + 1]) if "multipv" in words else 1
        at = words.index("score")
        kind, value = words[at + 1], int(words[at + 2])
        move = words[words.index("pv") + 1]
    except (ValueError, IndexError):
        return None
    if kind == "mate":
        value = MATE_CP - abs(value) if value > 0 else -MATE_CP + abs(value)
    elif kind != "cp":
        return None
    return index, (move, value)
