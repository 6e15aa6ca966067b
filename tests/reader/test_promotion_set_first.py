"""A capture that promotes, the new piece set on the victim's square before the pawn is
cleared: the victim taken off d8, the queen set on d8, the pawn lifted from e7 up to two
seconds later and taken off the board. The sensors then read the position without e7,
as a pawn held in the hand does: the opponent's first lift says the move was exd8=Q."""

from __future__ import annotations

import pytest

from tests.reader.support import kinds, moves, replay

START = "@start fen 3r3k/4P3/8/8/8/8/8/K7 w - - 0 1"
MODES = ("casual", "strict")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pawn_ms", [1500, 2800])
@pytest.mark.parametrize("swap_ms", [300, 20])
@pytest.mark.parametrize("reply_ms", [None, 400])
def test_the_queen_set_on_the_victims_square_first_is_exd8q(
    mode: str, pawn_ms: int, swap_ms: int, reply_ms: int | None
) -> None:
    """The victim taken off and the queen set down 300 ms apart, or swapped in 20 ms
    (the square empty for little more than one debounce); Black's reply at leisure, or
    400 ms after the pawn's lift (too soon for a push-capture's reading: the
    set-first reading alone makes it)."""
    reply = 4000 if reply_ms is None else pawn_ms + reply_ms
    effects = replay(
        f"1000 lift d8\n{1000 + swap_ms} place d8\n{pawn_ms} lift e7\n"
        f"{reply} lift h8\n{reply + 300} place g7",
        header=START,
        mode=mode,
    )
    assert moves(effects) == ["e7d8q", "h8g7"]
    assert "illegal" not in kinds(effects)
    assert "violation" not in kinds(effects)


def test_the_pawn_lifted_three_seconds_later_is_no_capture() -> None:
    """Past two seconds the piece on d8 is the rook put back: the pawn goes to e8 (in
    casual mode: in strict mode the rook touched must be taken, 4.3b)."""
    effects = replay(
        "1000 lift d8\n1300 place d8\n4400 lift e7\n4700 place e8\n6000 lift h8\n6300 place g7",
        header=START,
    )
    assert moves(effects) == ["e7e8q", "h8g7"]


def test_the_rook_put_back_and_the_pawn_pushed_is_the_push() -> None:
    effects = replay(
        "1000 lift d8\n1300 place d8\n1800 lift e7\n2100 place e8\n4000 lift h8\n4300 place g7",
        header=START,
    )
    assert moves(effects) == ["e7e8q", "h8g7"]
