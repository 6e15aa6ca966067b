"""A capture doubted as a knock, then a piece set down on the capturer's own square: the
board shows the position again. Alone, that is the capturer put back; with the lift of an
opponent's neighbour that could step there after the capture just behind it (within
ARRIVE_MS, or for a pawn promoting there within STRAY_WAIT_MS), it is the capture
followed by the reply arriving first."""

from __future__ import annotations

import pytest

from tests.reader.support import kinds, moves, replay

BOTH = pytest.mark.parametrize("mode", ["casual", "strict"])
# White's king on c6, in check from the bishop on b7, can take the rook on d7; once it
# has, the bishop can step to c6.
KING_TAKES = "@start fen 8/1b1r2k1/2K5/8/1p3P2/8/P2P4/8 w - - 1 30"
# The same with a black pawn on b5: next to c6, but a black pawn never steps there.
PAWN_NEXT = "@start fen 8/1b1r2k1/2K5/1p6/1p3P2/8/P2P4/8 w - - 1 30"
# Kxd7 swapped in one motion: the rook's square empty only 151 ms, the king in the hand.
# What follows comes 121 ms later, within any knock wait: the capture still waits (past
# it, the capture has been made, and the king set back is a takeback: see below).
SWAP = "2000 lift c6\n2441 lift d7\n2592 place d7\n"
# Later, the capture made so that no knock explains it (the rook's square empty 700 ms).
SLOW_CAPTURE = "5000 lift c6\n5300 lift d7\n6000 place d7\n"


@BOTH
def test_the_reply_arriving_on_the_square_the_capturer_left_keeps_the_capture(
    mode: str,
) -> None:
    # Just after the swap Bb7-c6 slides in, c6's switch closing 7 ms before b7 opens.
    effects = replay(SWAP + "2713 place c6\n2720 lift b7\n", header=KING_TAKES, mode=mode)
    assert moves(effects) == ["c6d7", "b7c6"]
    assert kinds(effects) == ["move", "move"]


@BOTH
def test_the_capturer_put_back_with_nothing_after_is_no_move(mode: str) -> None:
    # The king set back on c6: the position again, held back as no move; the capture
    # made later, slowly, is the move.
    body = SWAP + "2713 place c6\n" + SLOW_CAPTURE + "8000 lift b7\n8400 place c6\n"
    effects = replay(body, header=KING_TAKES, mode=mode)
    assert moves(effects) == ["c6d7", "b7c6"]
    made = next(e["t_ms"] for e in effects if e["event"] == "move")
    assert made > 6000  # the slow capture, not the doubted one
    assert kinds(effects) == ["move", "move"]


@BOTH
def test_a_lift_too_late_to_be_arriving_first_leaves_the_capturer_put_back(mode: str) -> None:
    # The bishop lifted 80 ms after the king is back, and set back on b7: a touch out of
    # turn after the capturer was put back, no capture.
    body = SWAP + "2713 place c6\n2793 lift b7\n3000 place b7\n" + SLOW_CAPTURE
    effects = replay(body, header=KING_TAKES, mode=mode)
    assert moves(effects) == ["c6d7"]
    assert next(e["t_ms"] for e in effects if e["event"] == "move") > 6000
    assert "takeback" not in kinds(effects)


@BOTH
def test_a_neighbour_that_cannot_step_there_after_the_capture_leaves_the_capturer_put_back(
    mode: str,
) -> None:
    # The pawn on b5 lifted 7 ms after the king is back: a black pawn never steps to c6,
    # so it is no reply arriving first. Set back on b5: the position, and no move.
    body = SWAP + "2713 place c6\n2720 lift b5\n3000 place b5\n"
    effects = replay(body, header=PAWN_NEXT, mode=mode)
    assert kinds(effects) == []


@BOTH
def test_the_neighbour_set_back_shows_the_capturer_was_put_back(mode: str) -> None:
    # The bishop lifted 7 ms after the king is back, as if arriving first, but then set
    # back on b7: only the king put back explains the board. The host never hears of
    # the capture the other reading would have made.
    body = SWAP + "2713 place c6\n2720 lift b7\n2900 place b7\n" + SLOW_CAPTURE
    effects = replay(body, header=KING_TAKES, mode=mode)
    assert moves(effects) == ["c6d7"]
    assert next(e["t_ms"] for e in effects if e["event"] == "move") > 6000
    assert "takeback" not in kinds(effects)


# Black's king on e8, in check from the queen on d7, can take it; once it has, White's
# pawn on e7 promotes on e8, the square the king left.
KING_TAKES_QUEEN = "@start fen 4k3/p2QP3/8/8/8/8/8/6K1 b - - 0 40"
# Kxd7 swapped in one motion: the queen's square empty only 151 ms, the king in the hand
# (what follows comes within any knock wait, as above).
QUEEN_SWAP = "2000 lift e8\n2441 lift d7\n2592 place d7\n"


@BOTH
def test_a_new_queen_set_on_the_square_the_capturer_left_waits_for_its_pawn(mode: str) -> None:
    # White's new queen set down on e8 just after the swap, the pawn lifted from e7
    # 0.84 s later: far past ARRIVE_MS, but a promotion piece comes before its pawn.
    effects = replay(
        QUEEN_SWAP + "2713 place e8\n3550 lift e7\n", header=KING_TAKES_QUEEN, mode=mode
    )
    assert moves(effects) == ["e8d7", "e7e8q"]
    assert kinds(effects) == ["move", "move"]


@BOTH
def test_the_king_put_back_on_a_promotion_square_is_still_no_move(mode: str) -> None:
    # The king set back on e8 and nothing after: once the pawn's lift can no longer
    # come, no move; the capture made later, slowly, is the move.
    body = QUEEN_SWAP + "2713 place e8\n" + "5000 lift e8\n5300 lift d7\n6000 place d7\n"
    effects = replay(body, header=KING_TAKES_QUEEN, mode=mode)
    assert moves(effects) == ["e8d7"]
    assert next(e["t_ms"] for e in effects if e["event"] == "move") > 6000
    assert kinds(effects) == ["move"]


@BOTH
def test_the_king_put_back_then_moved_at_once_is_that_move(mode: str) -> None:
    # The king set back on e8, then at once lifted again and stepped to f7: the
    # capture was never made, the step is the move.
    body = QUEEN_SWAP + "2713 place e8\n3000 lift e8\n3400 place f7\n"
    effects = replay(body, header=KING_TAKES_QUEEN, mode=mode)
    assert moves(effects) == ["e8f7"]
    assert "takeback" not in kinds(effects)


@BOTH
@pytest.mark.parametrize(("knock_wait_ms", "set_back_ms"), [(None, 3713), (300, 2713)])
def test_the_capturer_set_back_after_the_capture_was_made_takes_it_back(
    mode: str, knock_wait_ms: int | None, set_back_ms: int
) -> None:
    # Past knock_wait_ms (1.5 s by default, or as short as settle_ms) the capture has
    # reached the host: the king set back on c6 (the rook only knocked) takes it back, in
    # both modes, and the capture made later, slowly, is the move. (It showed 'extra c6'
    # and kept Kxd7.)
    body = (
        f"1000 lift c6\n1441 lift d7\n1592 place d7\n{set_back_ms} place c6\n"
        + SLOW_CAPTURE
        + "8000 lift b7\n8400 place c6\n"
    )
    effects = replay(body, header=KING_TAKES, mode=mode, knock_wait_ms=knock_wait_ms)
    assert kinds(effects) == ["move", "takeback", "move", "move"]
    assert moves(effects) == ["c6d7", "c6d7", "b7c6"]
    assert "illegal" not in kinds(effects)
