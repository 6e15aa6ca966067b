"""Chess960: where castling puts the rook on the king's square and the king next to it,
the rook's own move to that square with the king knocked (lifted and put back) changes
the same squares in the same order. The grammar reads castling in an order that can be
another move only in FIDE's order, the king first; begun with the rook, it is the rook's
move (found by the random-hands test: a rook move read as castling)."""

from __future__ import annotations

import pytest

from tests.reader.support import moves, replay

# Chess960 position 170 after 15 plies: Black's rook b8 and king d8 may castle queenside
# (king to c8, rook to d8), and the rook may also go to c8.
ROOK_ONTO_KING = "@start fen nr1k1q1r/ppp1nppp/8/Bb1Pp3/2P4P/bN1P4/P4PP1/1RNK1BQR b KQkq - 0 8\n"


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_the_rook_moved_with_the_king_knocked_is_the_rook_move(mode: str) -> None:
    # The hand with the rook knocks the king, which falls back at once; the rook to c8.
    body = "1000 lift b8\n1426 lift d8\n1585 place d8\n2054 place c8\n"
    assert moves(replay(body, header=ROOK_ONTO_KING, mode=mode)) == ["b8c8"]


def test_both_in_the_hands_king_first_is_castling() -> None:
    # King and rook lifted together, the king first, the king put down first.
    body = "1000 lift d8\n1200 lift b8\n1600 place c8\n1900 place d8\n"
    assert moves(replay(body, header=ROOK_ONTO_KING, mode="casual")) == ["d8b8"]


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_fides_way_is_castling(mode: str) -> None:
    # The king off the board, the rook over to d8, the king down on c8.
    body = "1000 lift d8\n1500 lift b8\n1800 place d8\n2400 place c8\n"
    assert moves(replay(body, header=ROOK_ONTO_KING, mode=mode)) == ["d8b8"]


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_both_lifted_in_one_scan_is_castling(mode: str) -> None:
    # FIDE 4.4a: king and rook touched together castle, whichever switch the scan names first.
    body = "1000 lift b8\n1000 lift d8\n1500 place d8\n1800 place c8\n"
    assert moves(replay(body, header=ROOK_ONTO_KING, mode=mode)) == ["d8b8"]
