"""The attack tables against python-chess's (the test oracle), entry by entry: they are
built at import, by code written for speed."""

from __future__ import annotations

import chess
import pytest
from reedboard.rules import attacks

SQUARES = range(64)


@pytest.mark.parametrize(
    ("masks", "tables", "their_masks", "their_tables"),
    [
        (attacks.RANK_MASKS, attacks.RANK_ATTACKS, chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS),
        (attacks.FILE_MASKS, attacks.FILE_ATTACKS, chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS),
        (attacks.DIAG_MASKS, attacks.DIAG_ATTACKS, chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS),
    ],
    ids=["rank", "file", "diagonal"],
)
def test_sliding_tables_hold_every_occupancy(
    masks: tuple[int, ...],
    tables: tuple[dict[int, int], ...],
    their_masks: list[int],
    their_tables: list[dict[int, int]],
) -> None:
    assert list(masks) == their_masks
    for sq in SQUARES:
        assert tables[sq] == their_tables[sq], chess.square_name(sq)


def test_stepping_tables() -> None:
    assert list(attacks.KNIGHT_ATTACKS) == chess.BB_KNIGHT_ATTACKS
    assert list(attacks.KING_ATTACKS) == chess.BB_KING_ATTACKS
    assert list(attacks.PAWN_ATTACKS[1]) == chess.BB_PAWN_ATTACKS[chess.WHITE]
    assert list(attacks.PAWN_ATTACKS[0]) == chess.BB_PAWN_ATTACKS[chess.BLACK]


def test_empty_board_rays_between_and_lines() -> None:
    for a in SQUARES:
        rook = chess.BB_RANK_ATTACKS[a][0] | chess.BB_FILE_ATTACKS[a][0]
        assert attacks.ROOK_EMPTY[a] == rook
        assert attacks.BISHOP_EMPTY[a] == chess.BB_DIAG_ATTACKS[a][0]
        for b in SQUARES:
            assert attacks.BETWEEN[a][b] == chess.between(a, b)
            assert attacks.LINE[a][b] == chess.ray(a, b)
