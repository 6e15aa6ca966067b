"""The fake board: a hand's changes at once, scheduled lines at their times, both read
through the real scanner."""

from __future__ import annotations

import threading

import pytest
from reedboard.hal.clock import VirtualClock
from reedboard.hal.fake_board import FakeBoard
from reedboard.hal.sensor_line import PromotionChoice, SensorLine
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square

from tests.support.pushed_lines import LEAD_MS, push

START = Position.standard().occupied
E2, E4 = 1 << parse_square("e2"), 1 << parse_square("e4")


def test_a_hand_changes_the_switches_at_once_and_the_real_scanner_reads_them() -> None:
    board = FakeBoard(START)
    try:
        assert board.scan() == START
        board.lift("e2")
        board.place(parse_square("e4"))
        assert board.scan() == START & ~E2 | E4 == board.occupancy
        board.set_occupancy(0)
        assert board.scan() == 0
    finally:
        board.close()


@pytest.mark.parametrize("electrical", [True, False])
def test_scheduled_lines_fall_due_at_their_times(electrical: bool) -> None:
    board = FakeBoard(START, electrical=electrical)
    lines = [SensorLine(100, "lift", "e2"), SensorLine(400, "place", "e4")]
    assert board.schedule(lines) == 400 == board.end_ms
    assert board.next_change_ms() == 100 and board.pending == 2
    assert board.advance(99) == [] and board.scan() == START
    assert board.advance(100) == [] and board.scan() == START & ~E2
    assert board.next_change_ms() == 400
    board.advance(1000)
    assert board.scan() == START & ~E2 | E4 and board.next_change_ms() is None
    board.close()


def test_a_choice_is_handed_to_the_loop_and_the_board_is_done_once_finished() -> None:
    board = FakeBoard(START, electrical=False)
    board.schedule([SensorLine(10, "choose", "n")])
    assert not board.done
    board.finish()
    assert not board.done
    assert board.advance(10) == [PromotionChoice("n")]
    assert board.done


def test_lines_scheduled_later_never_fall_before_those_already_scheduled() -> None:
    board = FakeBoard(START, electrical=False)
    board.schedule([SensorLine(500, "lift", "e2")])
    assert board.schedule([SensorLine(0, "place", "e2")], start_ms=100) == 500
    assert board.schedule([SensorLine(50, "lift", "d2")], start_ms=1000) == 1050
    assert board.advance(500) == [] and board.scan() == START
    assert board.advance(1050) == [] and board.scan() == START & ~(1 << parse_square("d2"))


def test_lines_pushed_count_from_the_push_and_an_unknown_action_is_refused() -> None:
    clock = VirtualClock(1000)
    board = FakeBoard(START, electrical=False)
    assert push(board, clock, [(0, "lift", "e2"), (300, "place", "e4")]) == 1000 + LEAD_MS + 300
    assert board.next_change_ms() == 1000 + LEAD_MS and not board.done
    with pytest.raises(ValueError, match="unknown action 'drop'"):
        push(board, clock, [(0, "drop", "e2")])


def test_a_scan_never_sees_the_switches_half_set() -> None:
    """Another thread sets whole boards while the loop scans: each scan reads one of them."""
    board = FakeBoard(START)
    other = START & ~E2 | E4
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            board.set_occupancy(other)
            board.set_occupancy(START)

    thread = threading.Thread(target=flip)
    thread.start()
    try:
        assert all(board.scan() in (START, other) for _ in range(300))
    finally:
        stop.set()
        thread.join()
        board.close()


def test_a_line_inserted_falls_due_among_those_scheduled_and_follow_hears_of_it() -> None:
    heard: list[SensorLine] = []
    board = FakeBoard(START, electrical=False, follow=heard.append)
    board.schedule([SensorLine(100, "lift", "e2"), SensorLine(900, "place", "e4")])
    board.insert(SensorLine(500, "lift", "d2"))
    board.schedule([SensorLine(0, "choose", "q")], start_ms=0)  # after the last: 900
    assert board.advance(500) == [] and heard == [
        SensorLine(100, "lift", "e2"),
        SensorLine(500, "lift", "d2"),
    ]
    assert (
        board.advance(900) == [PromotionChoice("q")] and len(heard) == 3
    )  # a choice is the loop's
    assert board.pending == 0 and board.end_ms == 900


def test_clearing_drops_the_lines_not_applied_yet() -> None:
    board = FakeBoard(START, electrical=False)
    board.schedule([SensorLine(100, "lift", "e2"), SensorLine(900, "place", "e4")])
    board.advance(100)
    board.clear()
    assert board.pending == 0 and board.next_change_ms() is None
    assert board.advance(1000) == [] and board.scan() == START & ~E2
    assert board.schedule([SensorLine(10, "place", "e2")], start_ms=50) == 60
