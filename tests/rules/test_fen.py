"""FEN: reading and writing, with standard, X-FEN and Shredder-FEN castling fields."""

from __future__ import annotations

import random

import chess
import pytest
from reedboard.rules import STARTING_FEN, Position, parse_fen, parse_square, write_fen
from reedboard.rules.squares import bitboard_of

ROUND_TRIP = [
    ("start", STARTING_FEN),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    (
        "legal-en-passant-is-written",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ),
    ("black-to-move-clocks", "8/8/8/4k3/8/8/8/R3K3 b - - 37 81"),
    ("some-rights", "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1"),
    ("promoted-pieces", "QQQQkQQQ/8/8/8/8/8/8/4K3 b - - 0 1"),
]


@pytest.mark.parametrize("fen", [pytest.param(f, id=i) for i, f in ROUND_TRIP])
def test_round_trip(fen: str) -> None:
    assert parse_fen(fen).fen() == fen
    assert write_fen(parse_fen(fen)) == fen


def test_fields_are_read() -> None:
    position = parse_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 12 34")
    assert position.turn is True
    assert position.ep_square == parse_square("d6")
    assert (position.halfmove_clock, position.fullmove_number) == (12, 34)
    assert position.castling == bitboard_of([parse_square("h1"), parse_square("a8")])
    assert not position.chess960


def test_en_passant_square_written_only_when_capture_is_legal() -> None:
    # After 1.e4 no black pawn can take on e3: the square is kept but not written.
    position = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert position.ep_square == parse_square("e3")
    assert position.fen().split()[3] == "-"


def test_epd_four_fields_default_clocks() -> None:
    position = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
    assert position.fen() == STARTING_FEN


def test_standard_and_start_agree() -> None:
    assert Position.standard().fen() == STARTING_FEN
    assert str(Position.standard()).splitlines()[0] == "r n b q k b n r"


# (id, FEN in, rook squares holding castling rights, Chess960?, X-FEN out, Shredder out)
CASTLING_FIELDS = [
    ("standard-kqkq", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1 h1 a8 h8", False, "KQkq", "HAha"),
    (
        "shredder-standard",
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
        "a1 h1 a8 h8",
        False,
        "KQkq",
        "HAha",
    ),
    (
        "chess960-outer-rooks",
        "rk4r1/8/8/8/8/8/8/RK4R1 w KQkq - 0 1",
        "a1 g1 a8 g8",
        True,
        "KQkq",
        "GAga",
    ),
    (
        "chess960-shredder",
        "rk4r1/8/8/8/8/8/8/RK4R1 w GAga - 0 1",
        "a1 g1 a8 g8",
        True,
        "KQkq",
        "GAga",
    ),
    ("x-fen-inner-rook-by-file", "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", "b1", True, "B", "B"),
    ("x-fen-outer-rook-by-letter", "4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1", "a1", False, "Q", "A"),
    ("mixed-letters", "r3k2r/8/8/8/8/8/8/R3K2R w Hq - 0 1", "h1 a8", False, "Kq", "Ha"),
    ("no-rights", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "", False, "-", "-"),
]


@pytest.mark.parametrize(
    ("fen", "rooks", "chess960", "xfen", "shredder"),
    [pytest.param(*row[1:], id=row[0]) for row in CASTLING_FIELDS],
)
def test_castling_field(fen: str, rooks: str, chess960: bool, xfen: str, shredder: str) -> None:
    position = parse_fen(fen)
    # Castling rights are the squares of the rooks that may still castle.
    assert position.castling == bitboard_of([parse_square(n) for n in rooks.split()])
    assert position.chess960 is chess960
    assert position.fen().split()[2] == xfen
    assert position.fen(shredder=True).split()[2] == shredder
    assert parse_fen(position.fen(shredder=True)).castling == position.castling
    assert parse_fen(position.fen()).castling == position.castling


def test_chess960_flag_can_be_asked_for() -> None:
    assert parse_fen(STARTING_FEN, chess960=True).chess960
    assert not parse_fen(STARTING_FEN).chess960


def _random_positions(count: int, seed: int, chess960: bool) -> list[chess.Board]:
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for _ in range(rng.randrange(1, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board)
    return boards


@pytest.mark.parametrize("chess960", [False, True], ids=["standard", "chess960"])
def test_fen_agrees_with_python_chess(chess960: bool) -> None:
    for board in _random_positions(60, seed=7 + chess960, chess960=chess960):
        position = parse_fen(board.fen(), chess960=chess960)
        assert position.fen() == board.fen()
        assert position.fen(shredder=True) == board.shredder_fen()
        assert parse_fen(board.shredder_fen(), chess960=chess960).fen() == board.fen()


def test_a_check_that_asks_for_legal_moves_while_reading_sees_the_whole_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A position caches its legal moves the first time they are asked for. The FEN reader
    must not hand out a position whose castling, en passant or clocks were set after
    something (a check of the kings, today or tomorrow) had already asked: castling and
    en passant would then be missing from its moves for good."""
    import reedboard.rules.fen as fen_module

    read_kings = fen_module._validate_kings

    def asks_for_moves(position: Position) -> None:
        read_kings(position)
        position.legal_moves()

    monkeypatch.setattr(fen_module, "_validate_kings", asks_for_moves)
    fen = "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"
    position = parse_fen(fen)
    ucis = {position.uci(move) for move in position.legal_moves()}
    assert {"e1g1", "e1c1", "e5d6"} <= ucis
    assert ucis == {move.uci() for move in chess.Board(fen).legal_moves}
