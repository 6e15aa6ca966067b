"""The Laws of Chess as tables: every case is named after the FIDE article it checks.

Articles are those of the FIDE Laws of Chess (Article 3: the moves, 3.7 the pawn, 3.8 the
king and castling, 3.9 check; Article 5: the completion of the game; Article 9: the drawn
game) and of the Chess960 rules in the Laws' Guidelines (II.2 the start position, II.3
castling, II.4 notes on castling). The expected values are written by hand; python-chess
cross-checks the legality tables at the end.
"""

from __future__ import annotations

import chess
import pytest
from reedboard.rules import BLACK, WHITE, Game, Move, Position
from reedboard.rules.outcome import (
    CHECKMATE,
    FIFTY_MOVES,
    FIVEFOLD_REPETITION,
    INSUFFICIENT_MATERIAL,
    SEVENTYFIVE_MOVES,
    STALEMATE,
    THREEFOLD_REPETITION,
)

from .support import board_after, is_legal_uci

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CASTLE = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"

# (id, FEN, Chess960, move in UCI, legal?)
LEGALITY = [
    # Article 3.1-3.6: how the pieces move.
    ("3.1-no-move-onto-own-piece", START, False, "d1d2", False),
    ("3.2-bishop-moves-diagonally", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", False, "c1h6", True),
    ("3.2-bishop-not-along-file", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", False, "c1c2", False),
    ("3.3-rook-moves-along-file", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", False, "a1a8", True),
    ("3.3-rook-not-diagonally", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", False, "a1b2", False),
    ("3.4-queen-moves-diagonally", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", False, "d1h5", True),
    ("3.4-queen-not-like-knight", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", False, "d1e3", False),
    ("3.5-bishop-cannot-jump", START, False, "c1e3", False),
    ("3.5-rook-cannot-jump", START, False, "a1a3", False),
    ("3.6-knight-jumps-over-pieces", START, False, "g1f3", True),
    ("3.6-knight-not-onto-own-piece", START, False, "b1d2", False),
    # Article 3.7: the pawn.
    ("3.7.1-pawn-steps-forward", START, False, "e2e3", True),
    ("3.7.1-pawn-blocked", "4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1", False, "e3e4", False),
    ("3.7.2-pawn-double-step-from-start", START, False, "e2e4", True),
    ("3.7.2-no-double-step-after-moving", "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", False, "e3e5", False),
    (
        "3.7.2-double-step-needs-both-squares-empty",
        "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1",
        False,
        "e2e4",
        False,
    ),
    ("3.7.3-pawn-captures-diagonally", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", False, "e4d5", True),
    (
        "3.7.3-pawn-no-diagonal-step-to-empty-square",
        "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1",
        False,
        "e4d5",
        False,
    ),
    (
        "3.7.3-pawn-does-not-capture-forward",
        "4k3/8/8/4p3/4P3/8/8/4K3 w - - 0 1",
        False,
        "e4e5",
        False,
    ),
    ("3.7.3.1-en-passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", False, "e5d6", True),
    ("3.7.3.1-en-passant-by-black", "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", False, "e4d3", True),
    (
        "3.7.3.2-en-passant-only-right-after-double-step",
        "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2",
        False,
        "e5d6",
        False,
    ),
    (
        "3.9.2-en-passant-exposes-king-on-rank",
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
        False,
        "e5d6",
        False,
    ),
    (
        "3.9.2-en-passant-exposes-king-on-diagonal",
        "6bk/8/8/3pP3/8/8/K7/8 w - d6 0 2",
        False,
        "e5d6",
        False,
    ),
    ("3.9.2-en-passant-by-pinned-pawn", "7b/8/8/3pP3/8/8/1K6/7k w - d6 0 2", False, "e5d6", False),
    (
        "3.9.2-en-passant-takes-checking-pawn",
        "8/8/8/3pP3/4K3/8/8/7k w - d6 0 2",
        False,
        "e5d6",
        True,
    ),
    ("3.7.3.3-promotion-required", "8/4P3/8/8/8/8/8/k3K3 w - - 0 1", False, "e7e8", False),
    ("3.7.3.3-promotion-to-queen", "8/4P3/8/8/8/8/8/k3K3 w - - 0 1", False, "e7e8q", True),
    ("3.7.3.3-promotion-to-rook", "8/4P3/8/8/8/8/8/k3K3 w - - 0 1", False, "e7e8r", True),
    ("3.7.3.3-promotion-to-bishop", "8/4P3/8/8/8/8/8/k3K3 w - - 0 1", False, "e7e8b", True),
    ("3.7.3.3-promotion-to-knight", "8/4P3/8/8/8/8/8/k3K3 w - - 0 1", False, "e7e8n", True),
    ("3.7.3.3-no-promotion-before-last-rank", START, False, "e2e4q", False),
    # Article 3.8.1 and 3.9: the king, check, pins, double check.
    ("3.8.1-king-steps-to-adjoining-square", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", False, "e1d2", True),
    ("3.8.1-king-not-two-squares", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", False, "e1e3", False),
    ("3.9.2-kings-never-adjacent", "8/8/8/4k3/8/4K3/8/8 w - - 0 1", False, "e3e4", False),
    ("3.9.2-king-not-onto-attacked-square", "4k3/8/8/8/8/8/3r4/7K w - - 0 1", False, "h1h2", False),
    (
        "3.9.1-pinned-piece-still-gives-check",
        "4k3/4r3/5K2/8/8/8/8/4R3 w - - 0 1",
        False,
        "f6g7",
        False,
    ),
    (
        "3.9.2-pinned-bishop-may-not-leave-line",
        "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1",
        False,
        "e2d3",
        False,
    ),
    ("3.9.2-pinned-rook-moves-along-pin", "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", False, "e2e5", True),
    ("3.9.2-pinned-rook-captures-pinner", "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", False, "e2e8", True),
    (
        "3.9.2-pinned-rook-may-not-leave-line",
        "4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1",
        False,
        "e2d2",
        False,
    ),
    ("3.9.2-check-must-be-answered", "4k3/4r3/8/8/R7/8/8/4K3 w - - 0 1", False, "a4a5", False),
    ("3.9.2-check-blocked", "4k3/4r3/8/8/R7/8/8/4K3 w - - 0 1", False, "a4e4", True),
    ("3.9.2-king-steps-out-of-check", "4k3/4r3/8/8/R7/8/8/4K3 w - - 0 1", False, "e1d1", True),
    ("3.9.2-king-stays-on-checking-line", "4k3/4r3/8/8/R7/8/8/4K3 w - - 0 1", False, "e1e2", False),
    (
        "3.9.2-king-retreats-along-checking-line",
        "4r1k1/8/8/8/4K3/8/8/8 w - - 0 1",
        False,
        "e4e3",
        False,
    ),
    (
        "3.9.2-double-check-capture-not-enough",
        "4r1k1/8/8/8/8/R2n4/8/4K3 w - - 0 1",
        False,
        "a3d3",
        False,
    ),
    ("3.9.2-double-check-king-moves", "4r1k1/8/8/8/8/R2n4/8/4K3 w - - 0 1", False, "e1f1", True),
    # Article 3.8.2: castling in standard chess.
    ("3.8.2-castling-kingside", CASTLE, False, "e1g1", True),
    ("3.8.2-castling-queenside", CASTLE, False, "e1c1", True),
    ("3.8.2-castling-black-kingside", CASTLE.replace(" w ", " b "), False, "e8g8", True),
    ("3.8.2.1.1-king-has-moved", "r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", False, "e1g1", False),
    ("3.8.2.1.2-rook-has-moved", "r3k2r/8/8/8/8/8/8/R3K2R w Q - 0 1", False, "e1g1", False),
    ("3.8.2.1.2-other-rook-keeps-right", "r3k2r/8/8/8/8/8/8/R3K2R w Q - 0 1", False, "e1c1", True),
    ("3.8.2.2.1-king-in-check", "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", False, "e1g1", False),
    (
        "3.8.2.2.1-king-in-check-queenside",
        "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1",
        False,
        "e1c1",
        False,
    ),
    (
        "3.8.2.2.1-king-passes-attacked-square",
        "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        False,
        "e1g1",
        False,
    ),
    (
        "3.8.2.2.1-king-lands-on-attacked-square",
        "4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        False,
        "e1g1",
        False,
    ),
    ("3.8.2.2.1-queenside-d1-attacked", "3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1", False, "e1c1", False),
    (
        "3.8.2.2.1-rook-may-pass-attacked-square",
        "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
        False,
        "e1c1",
        True,
    ),
    (
        "3.8.2.2.1-attacked-rook-may-castle",
        "7r/4k3/8/8/8/8/8/R3K2R w KQ - 0 1",
        False,
        "e1g1",
        True,
    ),
    (
        "3.8.2.2.2-piece-between-king-and-rook",
        "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1",
        False,
        "e1c1",
        False,
    ),
    ("3.8.2.2.2-other-side-free", "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", False, "e1g1", True),
    ("3.8.2.2.2-enemy-piece-between", "4k3/8/8/8/8/8/8/R3Kb1R w KQ - 0 1", False, "e1g1", False),
    # Chess960 castling (Guidelines II.3, II.4), king takes rook in UCI.
    ("II.3.2.1-double-move-castling", "3k4/8/8/8/8/8/8/R2K3R w HA - 0 1", True, "d1a1", True),
    (
        "II.3.2.1-double-move-castling-kingside",
        "3k4/8/8/8/8/8/8/R2K3R w HA - 0 1",
        True,
        "d1h1",
        True,
    ),
    (
        "II.3.2.2-transposition-castling-kingside",
        "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
        True,
        "f1g1",
        True,
    ),
    (
        "II.3.2.2-transposition-castling-queenside",
        "4k3/8/8/8/8/8/8/2RK4 w C - 0 1",
        True,
        "d1c1",
        True,
    ),
    ("II.3.2.3-king-move-only-kingside", "4k3/8/8/8/8/8/8/1K3R2 w F - 0 1", True, "b1f1", True),
    ("II.3.2.3-king-move-only-queenside", "4k3/8/8/8/8/8/8/3R1K2 w D - 0 1", True, "f1d1", True),
    ("II.3.2.4-rook-move-only-kingside", "4k3/8/8/8/8/8/8/6KR w H - 0 1", True, "g1h1", True),
    ("II.3.2.4-rook-move-only-queenside", "4k3/8/8/8/8/8/8/R1K5 w A - 0 1", True, "c1a1", True),
    ("II.4.4-king-path-must-be-vacant", "4k3/8/8/8/8/8/8/1K2N1R1 w G - 0 1", True, "b1g1", False),
    (
        "II.4.4-rook-destination-must-be-vacant",
        "4k3/8/8/8/8/8/8/5NKR w H - 0 1",
        True,
        "g1h1",
        False,
    ),
    (
        "II.4.5-square-outside-paths-may-stay-filled",
        "4k3/8/8/8/8/8/8/NRK5 w B - 0 1",
        True,
        "c1b1",
        True,
    ),
    ("II.4.5-h-file-may-stay-filled", "4k3/8/8/8/8/8/8/4KR1N w F - 0 1", True, "e1f1", True),
    (
        "3.8.2.2.1-chess960-king-crosses-attacked-square",
        "k2r4/8/8/8/8/8/8/1K5R w H - 0 1",
        True,
        "b1h1",
        False,
    ),
    (
        "3.8.2.2.1-chess960-rook-crosses-attacked-square",
        "1r5k/8/8/8/8/8/8/R1K5 w A - 0 1",
        True,
        "c1a1",
        True,
    ),
    ("3.8.2.2.1-chess960-king-in-check", "2r4k/8/8/8/8/8/8/R1K5 w A - 0 1", True, "c1a1", False),
    (
        "3.8.2.1.2-chess960-right-only-for-named-rook",
        "4k3/8/8/8/8/8/8/R2K3R w H - 0 1",
        True,
        "d1a1",
        False,
    ),
    (
        "II.3.3-chess960-king-two-squares-is-no-castling",
        "3k4/8/8/8/8/8/8/R2K3R w HA - 0 1",
        True,
        "d1f1",
        False,
    ),
]


@pytest.mark.parametrize(
    ("fen", "chess960", "uci", "legal"),
    [pytest.param(*row[1:], id=row[0]) for row in LEGALITY],
)
def test_legality(fen: str, chess960: bool, uci: str, legal: bool) -> None:
    position = Position.from_fen(fen, chess960=chess960)
    assert is_legal_uci(position, uci) is legal


@pytest.mark.parametrize(
    ("fen", "chess960", "uci", "legal"),
    [pytest.param(*row[1:], id=row[0]) for row in LEGALITY],
)
def test_legality_agrees_with_python_chess(fen: str, chess960: bool, uci: str, legal: bool) -> None:
    board = chess.Board(fen, chess960=chess960)
    assert board.is_legal(chess.Move.from_uci(uci)) is legal


# (id, FEN, Chess960, move, board after the move)
RESULTING_PLACEMENT = [
    (
        "3.7.3.1-en-passant-removes-passed-pawn",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        False,
        "e5d6",
        "4k3/8/3P4/8/8/8/8/4K3",
    ),
    (
        "3.7.3.3-promotion-to-queen",
        "8/4P3/8/8/8/8/8/k3K3 w - - 0 1",
        False,
        "e7e8q",
        "4Q3/8/8/8/8/8/8/k3K3",
    ),
    (
        "3.7.3.3-promotion-to-rook",
        "8/4P3/8/8/8/8/8/k3K3 w - - 0 1",
        False,
        "e7e8r",
        "4R3/8/8/8/8/8/8/k3K3",
    ),
    (
        "3.7.3.3-promotion-to-bishop",
        "8/4P3/8/8/8/8/8/k3K3 w - - 0 1",
        False,
        "e7e8b",
        "4B3/8/8/8/8/8/8/k3K3",
    ),
    (
        "3.7.3.3-promotion-to-knight",
        "8/4P3/8/8/8/8/8/k3K3 w - - 0 1",
        False,
        "e7e8n",
        "4N3/8/8/8/8/8/8/k3K3",
    ),
    (
        "3.7.3.3-black-promotes-on-first-rank",
        "4k3/8/8/8/8/8/3p4/K7 b - - 0 1",
        False,
        "d2d1n",
        "4k3/8/8/8/8/8/8/K2n4",
    ),
    ("3.8.2-kingside-king-g1-rook-f1", CASTLE, False, "e1g1", "r3k2r/8/8/8/8/8/8/R4RK1"),
    ("3.8.2-queenside-king-c1-rook-d1", CASTLE, False, "e1c1", "r3k2r/8/8/8/8/8/8/2KR3R"),
    ("3.8.2-king-takes-rook-form-accepted", CASTLE, False, "e1h1", "r3k2r/8/8/8/8/8/8/R4RK1"),
    (
        "II.3.2.1-double-move-king-c1-rook-d1",
        "3k4/8/8/8/8/8/8/R2K3R w HA - 0 1",
        True,
        "d1a1",
        "3k4/8/8/8/8/8/8/2KR3R",
    ),
    (
        "II.3.2.2-transposition-king-g1-rook-f1",
        "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
        True,
        "f1g1",
        "4k3/8/8/8/8/8/8/5RK1",
    ),
    (
        "II.3.2.2-transposition-king-c1-rook-d1",
        "4k3/8/8/8/8/8/8/2RK4 w C - 0 1",
        True,
        "d1c1",
        "4k3/8/8/8/8/8/8/2KR4",
    ),
    (
        "II.3.2.3-king-only-rook-stays-f1",
        "4k3/8/8/8/8/8/8/1K3R2 w F - 0 1",
        True,
        "b1f1",
        "4k3/8/8/8/8/8/8/5RK1",
    ),
    (
        "II.3.2.3-king-only-rook-stays-d1",
        "4k3/8/8/8/8/8/8/3R1K2 w D - 0 1",
        True,
        "f1d1",
        "4k3/8/8/8/8/8/8/2KR4",
    ),
    (
        "II.3.2.4-rook-only-king-stays-g1",
        "4k3/8/8/8/8/8/8/6KR w H - 0 1",
        True,
        "g1h1",
        "4k3/8/8/8/8/8/8/5RK1",
    ),
    (
        "II.3.2.4-rook-only-king-stays-c1",
        "4k3/8/8/8/8/8/8/R1K5 w A - 0 1",
        True,
        "c1a1",
        "4k3/8/8/8/8/8/8/2KR4",
    ),
    (
        "II.4.5-a-file-knight-stays",
        "4k3/8/8/8/8/8/8/NRK5 w B - 0 1",
        True,
        "c1b1",
        "4k3/8/8/8/8/8/8/N1KR4",
    ),
]


@pytest.mark.parametrize(
    ("fen", "chess960", "uci", "board"),
    [pytest.param(*row[1:], id=row[0]) for row in RESULTING_PLACEMENT],
)
def test_resulting_placement(fen: str, chess960: bool, uci: str, board: str) -> None:
    assert board_after(Position.from_fen(fen, chess960=chess960), uci) == board


# (id, FEN, castling rights after the move as FEN field)
RIGHTS_AFTER = [
    ("3.8.2.1.1-king-move-loses-both-rights", CASTLE, "e1e2", "kq"),
    ("3.8.2.1.2-rook-move-loses-its-right", CASTLE, "h1h2", "Qkq"),
    ("3.8.2.1.2-captured-rook-loses-its-right", CASTLE, "a1a8", "Kk"),
    ("3.8.2.1-castling-spends-both-rights", CASTLE, "e1g1", "kq"),
    (
        "II.3.1-chess960-castling-spends-both-rights",
        "3k4/8/8/8/8/8/8/R2K3R w HA - 0 1",
        "d1h1",
        "-",
    ),
]


@pytest.mark.parametrize(
    ("fen", "uci", "rights"), [pytest.param(*row[1:], id=row[0]) for row in RIGHTS_AFTER]
)
def test_castling_rights_after(fen: str, uci: str, rights: str) -> None:
    position = Position.from_fen(fen)
    after = position.play(position.parse_uci(uci))
    assert after.fen().split()[2] == rights


def test_3_9_2_double_check_leaves_only_king_moves() -> None:
    position = Position.from_fen("4r1k1/8/8/8/8/R2n4/8/4K3 w - - 0 1")
    king = position.king(WHITE)
    assert position.checkers().bit_count() == 2
    assert position.legal_moves()
    assert all(move.from_square == king for move in position.legal_moves())


def test_3_8_2_1_king_returning_home_does_not_regain_rights() -> None:
    game = Game.from_fen(CASTLE)
    for text in ("Ke2", "Ke7", "Ke1", "Ke8"):
        game.push_san(text)
    assert game.position.fen().split()[2] == "-"
    assert not is_legal_uci(game.position, "e1g1")


# ----- Article 5: the completion of the game, and Article 9.6: automatic draws -----

# (id, FEN, reason or None, winner)
OUTCOMES = [
    ("5.1.1-checkmate", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", CHECKMATE, WHITE),
    ("5.1.1-checkmate-by-black", "8/8/8/8/8/6k1/6q1/6K1 w - - 0 1", CHECKMATE, BLACK),
    ("5.2.1-stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", STALEMATE, None),
    ("5.2.1-check-with-escape-is-no-mate", "7k/8/6K1/8/8/8/8/Q7 b - - 0 1", None, None),
    (
        "5.2.2-dead-position-king-against-king",
        "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
        INSUFFICIENT_MATERIAL,
        None,
    ),
    (
        "5.2.2-dead-position-king-and-bishop",
        "8/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
        INSUFFICIENT_MATERIAL,
        None,
    ),
    (
        "5.2.2-dead-position-king-and-knight",
        "8/8/8/4k3/8/8/8/1N2K3 b - - 0 1",
        INSUFFICIENT_MATERIAL,
        None,
    ),
    (
        "5.2.2-dead-position-bishops-on-one-colour",
        "5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1",
        INSUFFICIENT_MATERIAL,
        None,
    ),
    ("5.2.2-not-dead-bishops-on-both-colours", "2b5/8/8/4k3/8/8/8/2B1K3 w - - 0 1", None, None),
    ("5.2.2-not-dead-two-knights", "8/8/8/4k3/8/8/8/1N2KN2 w - - 0 1", None, None),
    ("5.2.2-not-dead-knight-against-knight", "6n1/8/8/4k3/8/8/8/1N2K3 w - - 0 1", None, None),
    ("5.2.2-not-dead-bishop-against-knight", "6n1/8/8/4k3/8/8/8/2B1K3 w - - 0 1", None, None),
    ("5.2.2-not-dead-pawn", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", None, None),
    ("5.2.2-not-dead-rook", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", None, None),
    ("9.6.2-seventy-five-moves", "8/8/8/4k3/8/8/8/R3K3 w - - 150 100", SEVENTYFIVE_MOVES, None),
    ("9.6.2-seventy-four-and-a-half-moves-go-on", "8/8/8/4k3/8/8/8/R3K3 w - - 149 100", None, None),
    (
        "9.6.2-75-move-checkmate-takes-precedence",
        "R6k/8/6K1/8/8/8/8/8 b - - 150 100",
        CHECKMATE,
        WHITE,
    ),
]


@pytest.mark.parametrize(
    ("fen", "reason", "winner"), [pytest.param(*row[1:], id=row[0]) for row in OUTCOMES]
)
def test_outcome(fen: str, reason: str | None, winner: bool | None) -> None:
    game = Game.from_fen(fen)
    outcome = game.outcome()
    if reason is None:
        assert outcome is None
        assert not game.is_game_over()
    else:
        assert outcome is not None
        assert (outcome.reason, outcome.winner) == (reason, winner)
        assert game.is_game_over()


@pytest.mark.xfail(strict=True, reason="dead positions that still hold material are not detected")
def test_5_2_2_dead_position_with_locked_pawns() -> None:
    # Neither king can ever reach the other side: FIDE 5.2.2 ends this game at once.
    outcome = Game.from_fen("8/8/4k3/1p1p1p1p/1P1P1P1P/4K3/8/8 w - - 0 1").outcome()
    assert outcome is not None and outcome.reason == INSUFFICIENT_MATERIAL


@pytest.mark.parametrize(
    ("moves", "reason", "winner", "result"),
    [
        pytest.param(["f3", "e5", "g4", "Qh4#"], CHECKMATE, BLACK, "0-1", id="5.1.1-fools-mate"),
        pytest.param(
            ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"],
            CHECKMATE,
            WHITE,
            "1-0",
            id="5.1.1-scholars-mate",
        ),
    ],
)
def test_game_ends_with_checkmate(moves: list[str], reason: str, winner: bool, result: str) -> None:
    game = Game()
    for text in moves:
        game.push_san(text)
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.winner, outcome.result) == (reason, winner, result)


def test_5_1_1_no_move_after_the_end() -> None:
    game = Game()
    for text in ("f3", "e5", "g4", "Qh4#"):
        game.push_san(text)
    with pytest.raises(ValueError, match="game is over"):
        game.push(Move.from_uci("a2a3"))


def test_5_2_2_capture_leaving_dead_position_ends_game() -> None:
    game = Game.from_fen("4k3/8/8/8/8/8/3r4/3NK3 w - - 0 1")
    assert game.outcome() is None
    game.push_san("Kxd2")  # king and knight against king: no mate can follow
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.winner, outcome.result) == (
        INSUFFICIENT_MATERIAL,
        None,
        "1/2-1/2",
    )


KNIGHT_SHUFFLE = ["Nf3", "Nf6", "Ng1", "Ng8"]


def _shuffle(plies: int) -> Game:
    game = Game()
    for ply in range(plies):
        game.push_san(KNIGHT_SHUFFLE[ply % 4])
    return game


def test_9_6_1_fivefold_ends_game() -> None:
    assert _shuffle(15).outcome() is None
    game = _shuffle(16)  # the start position for the fifth time
    assert game.repetitions() == 5
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == FIVEFOLD_REPETITION
    assert outcome.result == "1/2-1/2"


def test_9_2_1_threefold_is_claimed_not_automatic() -> None:
    game = _shuffle(8)
    assert game.repetitions() == 3
    assert game.outcome() is None
    assert game.can_claim_threefold_repetition()
    assert game.can_claim_draw()
    claim = game.claimable_draw()
    assert claim is not None
    assert claim.reason == THREEFOLD_REPETITION


@pytest.mark.parametrize(
    ("plies", "claimable"),
    [
        pytest.param(6, False, id="9.2.1.1-no-move-makes-a-third-repetition"),
        pytest.param(7, True, id="9.2.1.1-claim-on-move-about-to-be-played"),
        pytest.param(8, True, id="9.2.1.2-claim-after-third-repetition"),
        pytest.param(9, True, id="9.2.1.1-claim-again-before-fourth"),
    ],
)
def test_threefold_claim(plies: int, claimable: bool) -> None:
    game = _shuffle(plies)
    assert game.can_claim_threefold_repetition() is claimable
    assert game.can_claim_draw() is claimable


def test_9_2_pop_takes_back_repetition_counts() -> None:
    game = _shuffle(8)
    assert game.repetitions() == 3
    game.pop()
    game.pop()
    assert game.repetitions() == 2
    assert len(game) == 6
    game.push_san("Ng1")
    game.push_san("Ng8")
    assert game.repetitions() == 3


# (id, FEN a, FEN b, same position for repetition?)
REPETITION_IDENTITY = [
    ("9.2.2-same-placement-same-side", START, START, True),
    ("9.2.2-different-side-to-move", START, START.replace(" w ", " b "), False),
    ("9.2.2-clocks-do-not-count", START, START.replace("0 1", "7 30"), True),
    ("9.2.2.2-different-castling-rights", START, START.replace("KQkq", "Kkq"), False),
    (
        "9.2.2.1-ep-square-without-capturer-does-not-count",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        True,
    ),
    (
        "9.2.2.1-legal-en-passant-counts",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
        "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2",
        False,
    ),
    (
        "9.2.2.1-illegal-en-passant-does-not-count",
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 2",
        "8/8/8/K2pP2r/8/8/8/7k w - - 0 2",
        True,
    ),
]


@pytest.mark.parametrize(
    ("fen_a", "fen_b", "same"), [pytest.param(*row[1:], id=row[0]) for row in REPETITION_IDENTITY]
)
def test_repetition_identity(fen_a: str, fen_b: str, same: bool) -> None:
    key_a = Position.from_fen(fen_a).repetition_key()
    key_b = Position.from_fen(fen_b).repetition_key()
    assert (key_a == key_b) is same


def test_9_2_2_1_en_passant_at_start_of_sequence() -> None:
    # After 1.e4 black could take en passant; the same placement later cannot: no repetition.
    game = Game.from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1")
    game.push_san("e4")
    first = game.repetitions()
    for text in ("Ke7", "Ke2", "Ke8", "Ke1"):
        game.push_san(text)
    assert first == 1
    assert game.position.board_fen() == "4k3/8/8/8/3pP3/8/8/4K3"
    assert game.repetitions() == 1
    for text in ("Ke7", "Ke2", "Ke8", "Ke1"):
        game.push_san(text)
    assert game.repetitions() == 2


def test_9_2_2_2_lost_castling_rights_break_repetition() -> None:
    game = Game.from_fen(CASTLE)
    for text in ("Rh2", "Rh7", "Rh1", "Rh8"):
        game.push_san(text)
    assert game.position.board_fen() == Position.from_fen(CASTLE).board_fen()
    assert game.repetitions() == 1
    for text in ("Rh2", "Rh7", "Rh1", "Rh8"):
        game.push_san(text)
    assert game.repetitions() == 2


ROOK_ENDING = "8/8/8/4k3/8/8/8/R3K3 w - - {clock} 100"


@pytest.mark.parametrize(
    ("clock", "claimable"),
    [
        pytest.param(98, False, id="9.3-too-early"),
        pytest.param(99, True, id="9.3.1-claim-on-move-about-to-be-played"),
        pytest.param(100, True, id="9.3.2-fifty-moves-made"),
        pytest.param(120, True, id="9.3.2-more-than-fifty-moves"),
    ],
)
def test_fifty_move_claim(clock: int, claimable: bool) -> None:
    game = Game.from_fen(ROOK_ENDING.format(clock=clock))
    assert game.can_claim_fifty_moves() is claimable
    assert game.can_claim_draw() is claimable
    assert game.outcome() is None  # 9.3 is a claim: the game goes on


def test_9_3_1_claim_needs_a_move_that_keeps_the_count() -> None:
    # Clock at 99, and every legal move is a pawn move or a capture: no claim.
    game = Game.from_fen("7k/8/8/8/8/8/PP1n4/K7 w - - 99 80")
    assert not game.can_claim_fifty_moves()
    game = Game.from_fen("7k/8/8/8/8/8/PP6/K7 w - - 99 80")
    assert game.can_claim_fifty_moves()


def test_9_3_claimable_draw_names_the_rule() -> None:
    game = Game.from_fen(ROOK_ENDING.format(clock=100))
    draw = game.claimable_draw()
    assert draw is not None and draw.reason == FIFTY_MOVES and draw.result == "1/2-1/2"


@pytest.mark.parametrize(
    "san",
    [
        pytest.param("Ra2", id="9.6.2-quiet-150th-half-move-ends-game"),
        pytest.param("Ra8+", id="9.6.2-check-without-mate-still-ends-game"),
    ],
)
def test_seventy_five_move_rule(san: str) -> None:
    game = Game.from_fen("7k/8/4K3/8/8/8/8/R7 w - - 149 100")
    assert game.outcome() is None
    game.push_san(san)
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.winner) == (SEVENTYFIVE_MOVES, None)


def test_9_6_2_checkmate_on_150th_half_move_wins() -> None:
    game = Game.from_fen("7k/8/6K1/8/8/8/8/R7 w - - 149 100")
    game.push_san("Ra8#")
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.winner) == (CHECKMATE, WHITE)


def test_9_6_2_pawn_move_resets_the_count() -> None:
    game = Game.from_fen("7k/8/4K3/8/8/8/P7/R7 w - - 149 100")
    game.push_san("a3")
    assert game.position.halfmove_clock == 0
    assert game.outcome() is None


def test_5_1_2_a_declared_end_is_told_apart_from_one_the_position_reached() -> None:
    game = Game()
    for uci in ("f2f3", "e7e5", "g2g4", "d8h4"):
        game.push_uci(uci)
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == CHECKMATE and game.declared is None
    game = Game()
    game.push_uci("e2e4")
    declared = game.resign(BLACK)
    assert game.declared == declared == game.outcome()
    game.pop()  # undoing the move undoes what was declared after it
    assert game.declared is None and game.outcome() is None
