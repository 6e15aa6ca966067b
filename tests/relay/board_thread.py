"""A fake board in the test's own process: `reedboard run`'s board (`run_board`), from the
command line the test gives, on a thread of its own, its effects' JSON lines (what the
command prints) kept for the test, and ended by the test as the command is by SIGTERM.
The same board code as the command's, without a Python process to start and its
libraries to load for each board: the tests of the command itself (its signals, its exit
status, what it says on stderr) and those that cut a board's power (SIGKILL) still start
it as a process.

`board_thread(argv)` stops it whatever happens when its block ends, and fails the test
if the board did not end cleanly (within `GRACE_S`, without an exception)."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from reedboard.cli import build_parser
from reedboard.commands.run_board import InProcess, run_board
from reedboard.replay.live_script import Lines

GRACE_S = 30.0  # for the board to end once asked, on a loaded machine


class FedLines:
    """A live script's input (`--script -`) that the test writes as the game goes: the
    board waits for the next line, so a test's action lands between two moves however
    slow the machine, with no pause written into the script to make room for it."""

    def __init__(self) -> None:
        self._lines: queue.Queue[str] = queue.Queue()

    def feed(self, text: str) -> None:
        for line in text.splitlines(keepends=True):
            self._lines.put(line)

    def end(self) -> None:
        """No more lines: the board ends once it has played them (`--until-done`)."""
        self._lines.put("")

    def readline(self) -> str:
        return self._lines.get()


class BoardThread:
    def __init__(self, argv: list[str], lines: Lines | None = None) -> None:
        """`argv`: `reedboard run`'s arguments (without `run`); `lines`: what the board
        reads for `--script -`, as the command reads stdin."""
        self.args = build_parser().parse_args(["run", *argv])
        self.lines: list[str] = []  # the effects' JSON lines, as the command prints them
        self.changed = threading.Condition()  # told at each line and at the end
        self.status: int | None = None
        self.error: BaseException | None = None
        self._stopping = threading.Event()
        inside = InProcess(self._stopping.is_set, self._show, lines)
        self.thread = threading.Thread(target=self._run, args=(inside,), name="board", daemon=True)

    def start(self) -> BoardThread:
        self.thread.start()
        return self

    def output(self) -> str:
        """What the command would have printed so far."""
        with self.changed:
            return "".join(line + "\n" for line in self.lines)

    def wait_output(self, said: Callable[[str], bool], timeout_s: float) -> bool:
        """Until what the board printed so far makes `said` true; whether it came to that
        (a bound for a stuck board)."""
        with self.changed:
            return self.changed.wait_for(lambda: said(self.output()), timeout_s)

    def wait(self, timeout_s: float) -> int | None:
        """Until the board ends by itself (`--until-done`); its exit status."""
        self.thread.join(timeout_s)
        assert not self.thread.is_alive(), f"the board did not end within {timeout_s} s"
        if self.error is not None:
            raise AssertionError("the board failed") from self.error
        return self.status

    def stop(self) -> int | None:
        """Ask the board to end, as SIGTERM does, and wait for it; its exit status."""
        self._stopping.set()
        return self.wait(GRACE_S)

    def _show(self, line: str) -> None:
        with self.changed:
            self.lines.append(line)
            self.changed.notify_all()

    def _run(self, inside: InProcess) -> None:
        try:
            self.status = run_board(self.args, inside=inside)
        except BaseException as error:  # the test is told, in `wait`
            self.error = error
        finally:
            with self.changed:
                self.changed.notify_all()


@contextlib.contextmanager
def board_thread(argv: list[str], lines: Lines | None = None) -> Iterator[BoardThread]:
    """The board on a thread for the block, stopped whatever happens; a board that did not
    end with status 0 fails the test."""
    board = BoardThread(argv, lines).start()
    try:
        yield board
    finally:
        status = board.stop()
    assert status == 0, f"the board ended with status {status}"


def board_of(command: list[str]) -> contextlib.AbstractContextManager[BoardThread]:
    """`board_thread` for a command line a test would start (`.../reedboard run ARGS`)."""
    assert Path(command[0]).name == "reedboard" and command[1] == "run", command
    return board_thread(command[2:])
