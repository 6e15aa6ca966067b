"""The DGT emulation's clock (`BWTIME`), read by a decoder written from DGT's protocol
description (tests/link/emulated.py), not from the codec: when it is sent in each mode,
and what it says."""

from __future__ import annotations

from reedboard.link.dgt import DgtBoard
from reedboard.link.dgt_clock import ClockReading

from tests.link.emulated import dgt_clock_acks, dgt_clocks, play_timed

SEND_CLOCK, UPDATE, UPDATE_BOARD, UPDATE_NICE = 0x41, 0x43, 0x44, 0x4B


def _board(mode: int | None, reading: ClockReading | None) -> DgtBoard:
    board = DgtBoard()
    if mode is not None:
        board.receive_data(bytes((mode,)))
    board.clock_changed(reading)
    return board


def _ticks(board: DgtBoard, start_ms: int, end_ms: int, every_ms: int = 100) -> bytes:
    data = b""
    for t in range(start_ms, end_ms + 1, every_ms):
        board.tick(t)
        data += board.data_to_send()
    return data


def test_asked_for_the_clock_the_board_answers_in_any_mode() -> None:
    """White (the left player) 5:00 stopped, Black (right) 4:55.5 running: asked a second
    later, Black's clock shows the second it is in."""
    for mode in (None, UPDATE_BOARD):
        board = _board(mode, ClockReading(300_000, 295_500, "black", at_ms=0))
        assert _ticks(board, 0, 1000) == b""  # nothing unasked in these modes
        board.receive_data(bytes((SEND_CLOCK,)))
        [clock] = dgt_clocks(board.data_to_send())
        assert (clock.left_s, clock.right_s) == (300, 295)
        assert clock.running and clock.right_turn and clock.right_high
        assert not clock.left_turn and not clock.no_clock
        assert not clock.left_flag and not clock.right_flag


def test_an_untimed_game_has_no_clock_to_send() -> None:
    board = _board(UPDATE_NICE, None)
    board.receive_data(bytes((SEND_CLOCK,)))
    assert _ticks(board, 0, 3000) == b""


def test_update_nice_sends_the_clock_each_time_it_shows_another_second() -> None:
    board = _board(UPDATE_NICE, ClockReading(61_000, 90_000, "white", at_ms=0))
    clocks = dgt_clocks(_ticks(board, 0, 3000))
    # 1:01 at once, then 1:00, 0:59, 0:58 as White's time runs; Black's stays.
    assert [c.left_s for c in clocks] == [61, 60, 59, 58]
    assert all(c.right_s == 90 and c.left_turn and not c.right_high for c in clocks)
    # A stopped clock changes no more: nothing until it changes.
    board.clock_changed(ClockReading(57_500, 90_000, None, at_ms=3100))
    clocks = dgt_clocks(_ticks(board, 3100, 6000))
    assert len(clocks) == 1 and clocks[0].left_s == 58 and not clocks[0].running


def test_update_sends_the_clock_at_least_once_a_second() -> None:
    board = _board(UPDATE, ClockReading(61_000, 90_000, None, at_ms=0))
    clocks = dgt_clocks(_ticks(board, 0, 3000))
    assert len(clocks) == 4  # at 0, 1000, 2000, 3000 ms
    assert {(c.left_s, c.right_s, c.running) for c in clocks} == {(61, 90, False)}


def test_update_board_mode_carries_no_clock() -> None:
    board = _board(UPDATE_BOARD, ClockReading(61_000, 90_000, "white", at_ms=0))
    assert dgt_clocks(_ticks(board, 0, 3000)) == []


def test_hours_the_display_limit_and_a_fallen_flag() -> None:
    board = _board(None, ClockReading(2 * 3600_000 + 59_000, 12 * 3600_000, "white", 0))
    board.receive_data(bytes((SEND_CLOCK,)))
    [clock] = dgt_clocks(board.data_to_send())
    assert clock.left_s == 2 * 3600 + 59
    assert clock.right_s == 9 * 3600 + 59 * 60 + 59  # the most the display holds
    board.tick(3 * 3600_000)  # White's time ran out
    board.receive_data(bytes((SEND_CLOCK,)))
    [clock] = dgt_clocks(board.data_to_send())
    assert clock.left_s == 0 and clock.left_flag and not clock.right_flag


def test_the_boards_own_emulation_sends_the_clocks_of_a_timed_game() -> None:
    """`reedboard run --protocol dgt` in a 5+0 game: after 1.e4 (completed at 1.3 s of
    White's time) the client in update mode gets White's time stopped, 4:59, and Black's
    running, once a second; after 1...e5 the other way round."""
    script = """@start standard
@clock 5+0
1000 lift e2
1300 place e4
6000 lift e7
6300 place e5
"""
    # The board runs to Black's flag, 300 s on: scanned 20 times a second, it costs a
    # tenth of the CPU of the default 200, for the same 306 clock messages (each at the
    # scan after its second, at most 50 ms on rather than 5).
    writes = play_timed("dgt", script, bytes((0x42, 0x4B)), scan_hz=20)
    clocks = [(t, c) for t, data in writes for c in dgt_clocks(data)]
    black_running = [(t, c) for t, c in clocks if c.right_turn]
    assert len(black_running) >= 4
    assert all(c.left_s == 299 and c.running and c.right_high for _t, c in black_running)
    seconds = [c.right_s for _t, c in black_running]
    assert seconds == sorted(seconds, reverse=True) and seconds[0] - seconds[-1] >= 3
    white_running = [c for _t, c in clocks if c.left_turn]
    assert white_running and white_running[-1].right_s == seconds[-1]


VERSION_REQUEST = bytes((0x2B, 0x03, 0x03, 0x09, 0x00))
ASCII_TEXT = bytes((0x2B, 0x0C, 0x03, 0x0C, *b"reedbord", 0x00, 0x00))


def test_clock_commands_are_acknowledged_as_a_dgt3000_does() -> None:
    """In a timed game, in the modes that carry the clock, each clock command gets its
    acknowledgement (done, the command's id; the version asked for): software that
    waits for it before its next command (picochess) is not left asking again."""
    board = _board(UPDATE_NICE, ClockReading(61_000, 90_000, "white", at_ms=0))
    board.data_to_send()
    board.receive_data(VERSION_REQUEST + ASCII_TEXT)
    data = board.data_to_send()
    assert dgt_clock_acks(data) == [(0x10, 0x09, 0x10, 0x00), (0x10, 0x0C, 0x00, 0x00)]
    assert dgt_clocks(data) == []  # acknowledgements, not times
    for mode, reading in ((UPDATE_BOARD, ClockReading(1, 1, None, 0)), (UPDATE_NICE, None)):
        quiet = _board(mode, reading)
        quiet.data_to_send()
        quiet.receive_data(VERSION_REQUEST)
        assert quiet.data_to_send() == b""  # no clock, or a mode without it: no answer
