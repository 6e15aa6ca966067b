"""The Chess960 setup guide and the board-only gesture that starts it."""

from __future__ import annotations

import random

import pytest
from reedboard.lights.setup import (
    GESTURE_HOLD_MS,
    GESTURE_OCCUPANCY,
    PAWN_SQUARES,
    SETUP_ORDER,
    START_OCCUPANCY,
    GestureWatch,
    SetupGuide,
    draw_chess960,
    is_chess960_gesture,
    setup_scene,
)
from reedboard.rules.pieces import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK
from reedboard.rules.position import Position

from tests.lights.support import bits

# Position 0: BBQNNRKR (bishops a b, queen c, knights d e, rooks f h, king g).
RANKS_OF_0 = {
    ROOK: bits("f1", "h1", "f8", "h8"),
    KNIGHT: bits("d1", "e1", "d8", "e8"),
    BISHOP: bits("a1", "b1", "a8", "b8"),
    QUEEN: bits("c1", "c8"),
    KING: bits("g1", "g8"),
    PAWN: PAWN_SQUARES,
}


def test_the_guide_goes_type_by_type_from_an_empty_board() -> None:
    guide = SetupGuide.chess960(0)
    board = 0
    for kind in SETUP_ORDER:
        progress = guide.step(board)
        assert progress.piece_type == kind
        assert progress.needed == RANKS_OF_0[kind]
        assert (progress.wrong, progress.missing) == (0, 0)
        assert setup_scene(progress).lit_roles() == {
            name: "setup" for name in setup_scene(progress).lit_roles()
        }
        board |= RANKS_OF_0[kind]
    done = guide.step(board)
    assert done.done and done.piece_type is None
    assert setup_scene(done).lit_roles() == {}


def test_each_step_waits_for_all_its_squares() -> None:
    guide = SetupGuide.chess960(0)
    progress = guide.step(bits("f1", "h1", "f8"))
    assert progress.piece_type == ROOK
    assert progress.needed == bits("h8")


def test_a_piece_placed_before_its_turn_must_go_before_the_next_step() -> None:
    # Were the guide to go on, a bishop put early on a knight's square would pass for
    # the knight.
    guide = SetupGuide.chess960(0)
    progress = guide.step(RANKS_OF_0[ROOK] | bits("d1", "e4"))
    assert progress.piece_type == ROOK
    assert (progress.needed, progress.wrong) == (0, bits("d1", "e4"))
    assert setup_scene(progress).lit_roles() == {"d1": "extra", "e4": "extra"}
    progress = guide.step(RANKS_OF_0[ROOK])
    assert progress.piece_type == KNIGHT
    assert setup_scene(progress).lit_roles()["d1"] == "setup"


def test_a_finished_step_emptied_again_is_shown_without_going_back() -> None:
    guide = SetupGuide.chess960(0)
    guide.step(RANKS_OF_0[ROOK])
    guide.step(RANKS_OF_0[ROOK] | RANKS_OF_0[KNIGHT])
    progress = guide.step(RANKS_OF_0[ROOK] & ~bits("h1") | RANKS_OF_0[KNIGHT])
    assert progress.piece_type == BISHOP
    assert progress.missing == bits("h1")
    assert setup_scene(progress).lit_roles()["h1"] == "missing"
    assert not progress.done


def test_pawns_may_stand_from_the_start() -> None:
    guide = SetupGuide.chess960(518)
    progress = guide.step(PAWN_SQUARES)
    assert progress.piece_type == ROOK
    assert progress.wrong == 0
    assert progress.needed == bits("a1", "h1", "a8", "h8")


@pytest.mark.parametrize("number", [0, 518, 959, 2])
def test_the_guide_ends_on_the_position_of_its_number(number: int) -> None:
    guide = SetupGuide.chess960(number)
    position = Position.chess960_start(number)
    board = PAWN_SQUARES
    steps = 0
    while not (progress := guide.step(board)).done:
        board |= progress.needed
        steps += 1
    assert board == position.occupied
    assert steps == 5  # pawns already stood: rooks, knights, bishops, queen, king


def test_the_gesture_is_the_start_with_both_kings_off() -> None:
    start = Position.standard().occupied
    assert is_chess960_gesture(start & ~bits("e1") & ~bits("e8"))
    assert not is_chess960_gesture(start)
    assert not is_chess960_gesture(start & ~bits("e1"))
    assert not is_chess960_gesture(PAWN_SQUARES)  # the old gesture: a set-up, pawns first
    assert not is_chess960_gesture(0)


def test_the_gesture_fires_once_after_being_held_from_a_complete_start() -> None:
    watch = GestureWatch()
    watch.update(START_OCCUPANCY, 0)
    assert not watch.update(START_OCCUPANCY & ~bits("e1"), 900)
    assert not watch.update(GESTURE_OCCUPANCY, 1000)
    assert watch.deadline() == 1000 + GESTURE_HOLD_MS
    assert not watch.update(GESTURE_OCCUPANCY, 1000 + GESTURE_HOLD_MS - 1)
    assert watch.update(GESTURE_OCCUPANCY, 1000 + GESTURE_HOLD_MS)
    assert not watch.update(GESTURE_OCCUPANCY, 9000)
    assert watch.deadline() is None


def test_the_gesture_needs_the_start_to_have_stood_complete() -> None:
    # A set-up that fetches the kings last passes through the gesture's occupancy.
    watch = GestureWatch(hold_ms=500)
    watch.update(PAWN_SQUARES, 0)
    assert not watch.update(GESTURE_OCCUPANCY, 100)
    assert not watch.update(GESTURE_OCCUPANCY, 5000)
    assert watch.deadline() is None


def test_leaving_the_gesture_resets_the_hold() -> None:
    watch = GestureWatch(hold_ms=500)
    watch.update(START_OCCUPANCY, 0)
    watch.update(GESTURE_OCCUPANCY, 0)
    watch.update(START_OCCUPANCY & ~bits("e8"), 300)
    assert not watch.update(GESTURE_OCCUPANCY, 600)
    assert watch.update(GESTURE_OCCUPANCY, 1100)
    # Anything but a king leaving spoils it until the start stands complete again.
    watch.update(START_OCCUPANCY & ~bits("a2"), 1200)
    assert not watch.update(GESTURE_OCCUPANCY, 1300)
    assert not watch.update(GESTURE_OCCUPANCY, 5000)


def test_draw_is_any_position_and_follows_the_callers_rng() -> None:
    numbers = {draw_chess960(random.Random(seed)) for seed in range(50)}
    assert all(0 <= n <= 959 for n in numbers) and len(numbers) > 40
    assert draw_chess960(random.Random(7)) == draw_chess960(random.Random(7))


def test_a_guide_started_on_a_full_board_first_asks_for_it_cleared() -> None:
    guide = SetupGuide.chess960(0, clear_first=True)
    full = START_OCCUPANCY & ~bits("e1", "e8")
    progress = guide.step(full)
    assert progress.piece_type == ROOK
    assert (progress.needed, progress.wrong) == (0, full & ~PAWN_SQUARES)
    # Rooks' squares still held by other pieces never pass for rooks.
    progress = guide.step(PAWN_SQUARES | RANKS_OF_0[ROOK])
    assert progress.wrong == RANKS_OF_0[ROOK] and progress.piece_type == ROOK
    progress = guide.step(PAWN_SQUARES)
    assert progress.needed == RANKS_OF_0[ROOK] and progress.wrong == 0
