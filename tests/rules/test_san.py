"""Standard Algebraic Notation: writing and reading."""

from __future__ import annotations

import random

import chess
import pytest
from reedboard.rules import Game, Move, Position, parse_san, san

# (id, FEN, Chess960?, move in UCI as the position writes it, SAN)
SAN_TABLE = [
    ("pawn-push", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", False, "e2e4", "e4"),
    ("knight", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", False, "g1f3", "Nf3"),
    ("pawn-capture", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", False, "e4d5", "exd5"),
    ("piece-capture", "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", False, "d1d5", "Rxd5"),
    ("en-passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", False, "e5d6", "exd6"),
    ("disambiguate-by-file", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", False, "b1d2", "Nbd2"),
    ("disambiguate-by-rank", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", False, "a1a3", "R1a3"),
    ("disambiguate-by-both", "2k5/8/8/8/4Q2Q/8/8/K6Q w - - 0 1", False, "h4e1", "Qh4e1"),
    (
        "no-disambiguation-for-pinned-rival",
        "4k3/8/8/8/3b4/2N3N1/8/K7 w - - 0 1",
        False,
        "g3e4",
        "Ne4",
    ),
    ("check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", False, "a1a8", "Ra8+"),
    ("checkmate", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", False, "a1a8", "Ra8#"),
    ("castle-kingside", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", False, "e1g1", "O-O"),
    ("castle-queenside", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", False, "e1c1", "O-O-O"),
    ("castle-with-check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", False, "e1g1", "O-O+"),
    ("promotion-queen", "8/4P3/8/8/8/8/8/k3K3 w - - 0 1", False, "e7e8q", "e8=Q"),
    ("promotion-knight", "8/4P3/8/8/8/8/8/k3K3 w - - 0 1", False, "e7e8n", "e8=N"),
    ("capture-promotion-check", "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1", False, "e7d8q", "exd8=Q+"),
    ("chess960-transposition-castling", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", True, "f1g1", "O-O"),
    ("chess960-king-only-castling", "4k3/8/8/8/8/8/8/3R1K2 w D - 0 1", True, "f1d1", "O-O-O"),
    ("chess960-king-step-is-no-castling", "3k4/8/8/8/8/8/8/R2K3R w HA - 0 1", True, "d1c1", "Kc1"),
    ("black-king-capture", "K7/8/8/8/8/8/5kp1/6R1 b - - 0 1", False, "f2g1", "Kxg1"),
]


@pytest.mark.parametrize(
    ("fen", "chess960", "uci", "text"), [pytest.param(*row[1:], id=row[0]) for row in SAN_TABLE]
)
def test_write_san(fen: str, chess960: bool, uci: str, text: str) -> None:
    position = Position.from_fen(fen, chess960=chess960)
    assert san(position, position.parse_uci(uci)) == text


@pytest.mark.parametrize(
    ("fen", "chess960", "uci", "text"), [pytest.param(*row[1:], id=row[0]) for row in SAN_TABLE]
)
def test_read_san(fen: str, chess960: bool, uci: str, text: str) -> None:
    position = Position.from_fen(fen, chess960=chess960)
    assert parse_san(position, text) == position.parse_uci(uci)


# Variants that name one move without doubt and are accepted: (id, FEN, SAN, UCI).
LENIENT = [
    ("zero-castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "e1h1"),
    ("zero-castling-long", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1a1"),
    ("promotion-without-equals", "8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8Q", "e7e8q"),
    (
        "annotation-marks",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "Nf3!?",
        "g1f3",
    ),
    (
        "check-mark-not-checked",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "e4+",
        "e2e4",
    ),
    (
        "over-disambiguated",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "Ng1f3",
        "g1f3",
    ),
]


@pytest.mark.parametrize(("fen", "text", "uci"), [pytest.param(*r[1:], id=r[0]) for r in LENIENT])
def test_lenient_forms(fen: str, text: str, uci: str) -> None:
    assert parse_san(Position.from_fen(fen), text) == Move.from_uci(uci)


def test_san_agrees_with_python_chess_over_random_games() -> None:
    rng = random.Random(2024)
    for game_index in range(24):
        chess960 = game_index % 2 == 1
        number = rng.randrange(960) if chess960 else 518
        board = chess.Board.from_chess960_pos(number)
        board.chess960 = chess960
        game = Game(Position.from_fen(board.fen(), chess960=chess960))
        for _ in range(120):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over(claim_draw=False):
                break
            move = rng.choice(moves)
            expected = board.san(move)
            ours = game.position.parse_uci(board.uci(move, chess960=chess960))
            assert game.san(ours) == expected, board.fen()
            assert parse_san(game.position, expected) == ours
            board.push(move)
            game.push(ours)
            if game.is_game_over():
                break
