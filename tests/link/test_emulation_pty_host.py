"""`reedboard-host emulate dgt` as a real program on a real pseudo-terminal, in front of a
running board: a capture shows the capturer before the board commits it, and in a timed
game a DGT client in update mode gets the clocks without asking (the timing and the
clock asked for, in memory: tests/host/test_emulate.py)."""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable

import pytest
from reedboard.board_game import Settings
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.rules.game import Game
from reedboard.rules.position import Position

from tests.app.games import move_lines
from tests.host.running_board import RunningBoard
from tests.link.emulated import DgtClient, DgtClockTimes, dgt_clocks
from tests.link.test_emulation_pty import _committed, _host_emulation, _whole_dgt

pytestmark = pytest.mark.timeout(150)


def _clocks_until(fd: int, done: Callable[[list[DgtClockTimes]], bool]) -> bytes:
    """Read the client's end until the clocks read so far satisfy `done`; a limit for a
    stuck run only."""
    data = b""
    deadline = time.monotonic() + 60
    while not done(dgt_clocks(_whole_dgt(data))):
        assert time.monotonic() < deadline, f"the client gave up; read {data.hex()}"
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            data += os.read(fd, 65536)
    return data


def test_the_clocks_of_a_timed_game_reach_a_dgt_client_through_the_host() -> None:
    settings = Settings(time_control=parse_time_control("5+0"))
    with (
        RunningBoard(speed=4, settings=settings) as board,
        _host_emulation(board.port, "dgt") as (fd, _host),
    ):
        os.write(fd, bytes((0x42, 0x4B)))  # the board, then changes and the clock
        lines, _end = move_lines(Position.standard(), "e2e4", 0)
        board.push(lines)
        _committed(board, 1)
        move = next(e for e in board.effects if e["event"] == "move")
        white_s = -(-move["clock"]["white_ms"] // 1000)
        # Black's time runs: more clocks come unasked, White's as the move left it.
        data = _clocks_until(
            fd, lambda clocks: sum(c.left_s == white_s and c.right_turn for c in clocks) >= 3
        )
        running = [c for c in dgt_clocks(_whole_dgt(data)) if c.right_turn]
        assert all(c.left_s == white_s and c.running and c.right_high for c in running)
        assert running[-1].right_s < running[0].right_s <= 300


def test_a_capture_shows_the_capturer_before_the_board_commits_it() -> None:
    """1.e4 d5, then exd5 by a hand that holds the pawn while the victim goes and sets it
    down 20 ms later: the board waits for a knock before it commits the capture (three
    real seconds on a board clock run at half speed); the client sees White's pawn on d5
    before that, not Black's."""
    start = Game(Position.standard())
    for uci in ("e2e4", "d7d5"):
        start.push(start.position.parse_uci(uci))
    after = "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR"
    with (
        RunningBoard(speed=0.5, start=start) as board,
        _host_emulation(board.port, "dgt") as (fd, _host),
    ):
        os.write(fd, bytes((0x42, 0x44)))
        board.push([(0, "lift", "e4"), (600, "lift", "d5"), (620, "place", "d5")])
        data = b""
        deadline = time.monotonic() + 60
        shown = DgtClient()
        while shown.board_fen() != after:
            assert time.monotonic() < deadline, f"the client gave up; read {data.hex()}"
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                data += os.read(fd, 65536)
            shown = DgtClient()
            shown.feed(_whole_dgt(data))
        moves_then = board.moves()
        _committed(board, 3)
        assert moves_then == ["e2e4", "d7d5"], "the client saw the capture only at its commit"
