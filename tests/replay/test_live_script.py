"""An event script read as it comes (`--script -`): headers before the board starts, timed
lines applied as they arrive at the board time they name (`+N`: after the line before),
lines that cannot be read said and skipped, the board done at the end of the input."""

from __future__ import annotations

import io
import os

import pytest
from reedboard.errors import ScriptError
from reedboard.hal.fake_board import FakeBoard
from reedboard.replay.live_script import LiveScript
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square


class Pipe:
    """The read end of a real pipe, as stdin is: lines arrive when written."""

    def __init__(self) -> None:
        read, self.write_end = os.pipe()
        self.reader = os.fdopen(read, encoding="utf-8")

    def readline(self) -> str:
        return self.reader.readline()

    def send(self, text: str) -> None:
        os.write(self.write_end, text.encode())

    def end(self) -> None:
        os.close(self.write_end)


def fake_board() -> FakeBoard:
    return FakeBoard(Position.standard().occupied, electrical=False)


def test_the_headers_end_at_an_empty_line_and_the_board_starts_with_them() -> None:
    script = LiveScript(io.StringIO("@start chess960 0\n@clock 5+3\n\n100 lift b1\n"))
    headers = script.headers()
    assert headers.start_label == "chess960 0" and headers.clock is not None
    assert headers.lines == ()


def test_a_bad_header_stops_the_board_naming_the_line() -> None:
    with pytest.raises(ScriptError, match="stdin: line 2: @mode is casual or strict"):
        LiveScript(io.StringIO("@start standard\n@mode loose\n")).headers()


def test_lines_that_arrive_later_are_applied_at_their_times_from_then() -> None:
    pipe = Pipe()
    script = LiveScript(pipe)
    pipe.send("@start standard\n\n")
    assert script.headers().lines == ()
    board, now, warned = fake_board(), [5000], list[str]()
    feeding = script.feed(board, lambda: now[0], warned.append)
    try:
        pipe.send("+0 lift e2\n+300 place e4\n")
        # Nothing was scheduled when the board started: these come as they are read.
        while board.pending < 2:
            feeding.join(0.01)
        assert board.next_change_ms() == 5000
        assert board.advance(5000) == [] and not board.occupancy >> parse_square("e2") & 1
        assert board.next_change_ms() == 5300
        now[0] = 9000
        pipe.send("100 lift e7\n")  # its time has passed: due at once, after the lines before
        while board.pending < 2:
            feeding.join(0.01)
        assert board.next_change_ms() == 5300
        board.advance(5300)
        assert not board.occupancy >> parse_square("e7") & 1
        assert board.pending == 0 and not board.done  # more may come
    finally:
        pipe.end()
        feeding.join(30)
    assert board.done and warned == []


def test_a_line_that_cannot_be_read_is_said_and_skipped() -> None:
    script = LiveScript(io.StringIO("\n+0 lift e5\n+0 lift e2\n12x place e4\n+10 place e4\n"))
    script.headers()
    board, warned = fake_board(), list[str]()
    script.feed(board, lambda: 0, warned.append).join(30)
    assert warned == [
        "stdin: line 2: lift e5, but the sensor on e5 already reads empty (skipped)",
        "stdin: line 4: the time '12x' is not a whole number of ms (skipped)",
    ]
    board.advance(100)
    assert board.done
    occupied = board.occupancy
    assert not occupied >> parse_square("e2") & 1 and occupied >> parse_square("e4") & 1


def test_a_stream_that_cannot_be_read_is_said_and_ends() -> None:
    pipe = Pipe()
    script = LiveScript(pipe)
    pipe.send("\n")
    script.headers()
    board, warned = fake_board(), list[str]()
    feeding = script.feed(board, lambda: 0, warned.append)
    try:
        os.write(pipe.write_end, b"+0 lift e2\n\xff\xfe\n")
    finally:
        pipe.end()
        feeding.join(30)
    assert len(warned) == 1 and warned[0].startswith("cannot read stdin after line")
    board.advance(10)
    assert board.done
