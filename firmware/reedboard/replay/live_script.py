"""An event script read as it comes (`reedboard run --fake --script -`): a program, or a
person at a terminal, plays the fake board live, one line at a time, answering moves it
could not know when the board started (an engine's, say).

The lines are a script's (docs/reference.md): the headers first, which the board reads
before it starts, up to the first timed line, an empty line or the end of the input; then
the timed lines, each applied as it arrives. A timed line's time is board time, as in a
script file, or `+N`: N ms after the line before it, or after the moment it is read if
that is later, so a hand's timing holds whenever its lines arrive. A line whose time has
passed is applied at once; time never runs backwards. A line that cannot be read is said
in one line (`warn`) and skipped: the game goes on. At the end of the input no more lines
come, and the board is `done` once it has applied them all."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from reedboard.errors import ScriptError
from reedboard.hal.fake_board import FakeBoard
from reedboard.replay.script import Script, ScriptReader

LIVE = "-"  # `--script -`: the script read from stdin as it comes


class Lines(Protocol):
    """Where the lines come from: stdin, or any text stream."""

    def readline(self) -> str: ...


class LiveScript:
    def __init__(self, stream: Lines, name: str = "stdin") -> None:
        self._stream = stream
        self._name = name
        self._reader = ScriptReader()
        self._line_no = 0
        self._first: str | None = None  # a timed line read with the headers

    def headers(self) -> Script:
        """Read the headers (blocking until they end); the script they start. Raises
        `ScriptError` naming the line for one that cannot be read."""
        while (raw := self._next()) is not None:
            if not raw.strip():
                break
            if _timed(raw):
                self._first = raw
                break
            try:
                self._reader.read(raw, self._line_no)
            except ScriptError as error:
                raise ScriptError(f"{self._name}: {error}") from None
        return self._reader.script()

    def feed(
        self, board: FakeBoard, now_ms: Callable[[], int], warn: Callable[[str], None]
    ) -> threading.Thread:
        """Apply the timed lines to `board` as they arrive, on a thread of their own (it
        ends with the input); `now_ms`: the board's time."""
        thread = threading.Thread(
            target=self._feed, args=(board, now_ms, warn), name="live-script", daemon=True
        )
        thread.start()
        return thread

    def _feed(
        self, board: FakeBoard, now_ms: Callable[[], int], warn: Callable[[str], None]
    ) -> None:
        first, self._first = self._first, None
        try:
            raw = first if first is not None else self._next()
            while raw is not None:
                try:
                    line = self._reader.read(self.dated(raw, now_ms()), self._line_no)
                except ScriptError as error:
                    warn(f"{self._name}: {error} (skipped)")
                else:
                    if line is not None:
                        board.insert(line)
                raw = self._next()
        except ScriptError as error:
            warn(str(error))
        board.finish()

    def dated(self, raw: str, now: int) -> str:
        """`raw` with its time as the board time it is applied at, given the board's
        `now`; as it was when it has no time (a header, a comment, a line to refuse)."""
        words = raw.split("#", 1)[0].split()
        if not words or not _timed(raw):
            return raw
        text, last = words[0], self._reader.last_t
        if text.startswith("+") and text[1:].isdigit():
            t_ms = max(now, last) + int(text[1:])
        elif text.isdigit():
            t_ms = max(int(text), last)
        else:
            return raw  # the reader names what is wrong with it
        return " ".join([str(t_ms), *words[1:]])

    def _next(self) -> str | None:
        """The next line of the input, None at its end; `ScriptError` when it cannot be
        read (then no more lines come)."""
        try:
            raw = self._stream.readline()
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise ScriptError(
                f"cannot read {self._name} after line {self._line_no}: {error}"
            ) from None
        if not raw:
            return None
        self._line_no += 1
        return raw


def _timed(raw: str) -> bool:
    """Whether `raw` is a timed line (not a header, not empty)."""
    words = raw.split("#", 1)[0].split()
    return bool(words) and not words[0].startswith("@")
