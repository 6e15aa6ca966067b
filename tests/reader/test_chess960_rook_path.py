"""Chess960: a rook castling on its own (the king already on its square) over its king,
dragged part of the way: where it rests is not yet its move."""

from __future__ import annotations

import pytest

from tests.reader.support import moves, replay

# Chess960 (position 541 after 5 moves): Black's king on c8, the a8 rook castles to d8
# alone, dragged over the empty b8 (resting there 120 ms) and lifted over the king.
ROOK_ONLY_960 = "@start fen r1k1qnbr/pppp1p1p/n4N2/4p1p1/1P6/5P2/P1PPP1PP/RNKBQ1BR b KQkq - 0 5\n"


def test_a_chess960_rook_castling_over_its_king_is_not_stopped_on_the_way() -> None:
    # Casual mode: castling with the rook alone (strict mode wants the king touched
    # first, FIDE's way, and the rook touched alone binds as a rook move).
    body = "1000 lift a8\n1300 place b8\n1420 lift b8\n1440 place d8\n3000 lift f6\n3300 lift e8\n3500 place e8\n"
    effects = replay(body, header=ROOK_ONLY_960, mode="casual")
    assert moves(effects) == ["c8a8", "f6e8"]


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_a_rook_that_stops_there_is_that_rook_move(mode: str) -> None:
    body = "1000 lift a8\n1300 place b8\n3000 lift f6\n3300 lift e8\n3500 place e8\n"
    assert moves(replay(body, header=ROOK_ONLY_960, mode=mode)) == ["a8b8", "f6e8"]
