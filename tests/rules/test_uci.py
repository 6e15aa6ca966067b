"""UCI notation and move values; legal moves cross-checked with python-chess."""

from __future__ import annotations

import dataclasses
import random

import chess
import pytest
from reedboard.rules import BLACK, KNIGHT, QUEEN, WHITE, Move, Piece, Position

from .support import legal_ucis

CASTLE = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


@pytest.mark.parametrize(
    ("text", "move"),
    [
        pytest.param("e2e4", Move(12, 28), id="plain"),
        pytest.param("e7e8q", Move(52, 60, QUEEN), id="promotion-queen"),
        pytest.param("a2a1n", Move(8, 0, KNIGHT), id="promotion-knight"),
        pytest.param("e1h1", Move(4, 7), id="king-takes-rook"),
    ],
)
def test_move_from_and_to_uci(text: str, move: Move) -> None:
    assert Move.from_uci(text) == move
    assert move.uci() == text
    assert str(move) == text
    assert eval(repr(move), {"Move": Move}) == move


def test_move_and_piece_are_frozen_values() -> None:
    move = Move.from_uci("e2e4")
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.to_square = 36  # type: ignore[misc]  # mypy sees the frozen field too: the test is that run time refuses it
    assert {move, Move.from_uci("e2e4")} == {move}
    piece = Piece(KNIGHT, BLACK)
    with pytest.raises(dataclasses.FrozenInstanceError):
        piece.color = WHITE  # type: ignore[misc]  # mypy sees the frozen field too: the test is that run time refuses it
    assert piece == Piece.from_symbol("n")
    assert hash(piece) == hash(Piece.from_symbol("n"))
    assert Piece.from_symbol("N") != piece


# (id, FEN, Chess960?, input UCI, stored move, UCI the position writes)
CASTLING_UCI = [
    ("standard-e1g1", CASTLE, False, "e1g1", "e1h1", "e1g1"),
    ("standard-king-takes-rook-accepted", CASTLE, False, "e1h1", "e1h1", "e1g1"),
    ("standard-e1c1", CASTLE, False, "e1c1", "e1a1", "e1c1"),
    ("standard-black-e8g8", CASTLE.replace(" w ", " b "), False, "e8g8", "e8h8", "e8g8"),
    ("chess960-king-takes-rook", CASTLE, True, "e1h1", "e1h1", "e1h1"),
    (
        "chess960-start-518",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w HAha - 0 1",
        True,
        "e1h1",
        "e1h1",
        "e1h1",
    ),
    ("chess960-transposition", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", True, "f1g1", "f1g1", "f1g1"),
]


@pytest.mark.parametrize(
    ("fen", "chess960", "text", "stored", "written"),
    [pytest.param(*row[1:], id=row[0]) for row in CASTLING_UCI],
)
def test_castling_uci(fen: str, chess960: bool, text: str, stored: str, written: str) -> None:
    position = Position.from_fen(fen, chess960=chess960)
    move = position.parse_uci(text)
    assert move == Move.from_uci(stored)
    assert position.is_castling(move)
    assert position.uci(move) == written


def test_chess960_rejects_standard_castling_form() -> None:
    position = Position.from_fen(CASTLE, chess960=True)
    with pytest.raises(ValueError, match="not legal"):
        position.parse_uci("e1g1")


def test_move_queries() -> None:
    position = Position.from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    ep = position.parse_uci("e5d6")
    assert position.is_en_passant(ep) and position.is_capture(ep)
    push = position.parse_uci("e5e6")
    assert not position.is_en_passant(push) and not position.is_capture(push)
    castle = Position.from_fen(CASTLE)
    assert not castle.is_capture(castle.parse_uci("e1g1"))
    assert castle.castling_squares(Move.from_uci("e1a1")) == (4, 2, 0, 3)


def _walk(seed: int, chess960: bool, games: int, plies: int) -> None:
    rng = random.Random(seed)
    for _ in range(games):
        board = chess.Board.from_chess960_pos(rng.randrange(960) if chess960 else 518)
        board.chess960 = chess960
        position = Position.from_fen(board.fen(), chess960=chess960)
        for _ in range(plies):
            expected = {board.uci(m, chess960=chess960) for m in board.legal_moves}
            assert legal_ucis(position) == expected, board.fen()
            assert position.is_check() == board.is_check()
            if not expected:
                break
            text = rng.choice(sorted(expected))
            board.push(board.parse_uci(text))
            position = position.play(position.parse_uci(text))
            assert position.fen() == board.fen()


def test_legal_moves_agree_with_python_chess_standard() -> None:
    _walk(seed=11, chess960=False, games=30, plies=100)


def test_legal_moves_agree_with_python_chess_chess960() -> None:
    _walk(seed=12, chess960=True, games=30, plies=100)


TRICKY = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/8/2k5/2pP4/8/B7/4K3 b - d3 0 3",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
]


@pytest.mark.parametrize("fen", TRICKY)
def test_tricky_positions_two_plies_deep(fen: str) -> None:
    board = chess.Board(fen)
    position = Position.from_fen(fen)
    for move in board.legal_moves:
        board.push(move)
        after = position.play(position.parse_uci(move.uci()))
        assert legal_ucis(after) == {m.uci() for m in board.legal_moves}, board.fen()
        board.pop()
