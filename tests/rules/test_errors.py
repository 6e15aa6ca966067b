"""Bad input gives a specific error, also a `ValueError` and a `ReedboardError`, whose
message names the fault. Nothing is silently repaired."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from reedboard.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidChess960Error,
    InvalidFenError,
    InvalidInputError,
    InvalidMoveError,
    InvalidPgnError,
    InvalidSquareError,
    ReedboardError,
)
from reedboard.rules import (
    ROOK,
    Game,
    Move,
    Position,
    back_rank,
    chess960_number,
    parse_fen,
    parse_san,
    parse_square,
    read_pgn,
    square_name,
)
from reedboard.rules.pieces import piece_type_from_symbol

START_BOARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

# (id, FEN, words the message must contain)
BAD_FENS = [
    ("empty", "", "6 fields"),
    ("too-few-fields", f"{START_BOARD} w KQkq", "has 3"),
    ("five-fields", f"{START_BOARD} w KQkq - 0", "has 5"),
    ("seven-fields", f"{START_BOARD} w KQkq - 0 1 x", "has 7"),
    ("seven-ranks", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "8 ranks"),
    ("nine-ranks", "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "8 ranks"),
    ("rank-too-short", "rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 8"),
    (
        "rank-too-long",
        "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "more than 8 squares",
    ),
    ("rank-too-long-by-digit", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'9'"),
    (
        "rank-digits-overflow",
        "rnbqkbnr/pppppppp/71/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "two digits",
    ),
    (
        "piece-after-full-rank",
        "rnbqkbnr/pppppppp/8p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "more than 8 squares",
    ),
    ("bad-piece-letter", "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'x'"),
    ("zero-digit", "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'0'"),
    ("bad-side-to-move", f"{START_BOARD} x KQkq - 0 1", "side to move"),
    ("side-in-capitals", f"{START_BOARD} W KQkq - 0 1", "side to move"),
    ("two-white-kings", "4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "white has 2 kings"),
    ("no-black-king", "8/8/8/8/8/8/8/4K3 w - - 0 1", "black has 0 kings"),
    ("no-king-with-castling", "r6r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "black has 0 kings"),
    ("white-pawn-on-rank-8", "3Pk3/8/8/8/8/8/8/4K3 w - - 0 1", "d8"),
    ("black-pawn-on-rank-1", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "a1"),
    ("nine-pawns", "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "more than 8 pawns"),
    ("seventeen-pieces", "4k3/8/8/8/8/NNNNNNNN/NNNNNNNN/4K3 w - - 0 1", "more than 16 pieces"),
    (
        "side-not-to-move-in-check",
        "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
        "black is in check but it is not black's move",
    ),
    ("white-in-check-black-to-move", "4r1k1/8/8/8/8/8/8/4K3 b - - 0 1", "white is in check"),
    ("triple-check", "k7/8/8/8/4r3/5n2/3p4/4K3 w - - 0 1", "more than two"),
    ("bad-castling-letter", f"{START_BOARD} w KQkx - 0 1", "'x' is not a castling right"),
    ("castling-digit", f"{START_BOARD} w 1 - 0 1", "'1' is not a castling right"),
    ("castling-dash-mixed", f"{START_BOARD} w K- - 0 1", "'-' is not a castling right"),
    (
        "castling-right-no-rook",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
        "no white rook on the king's right",
    ),
    (
        "castling-right-no-rook-queenside",
        "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "no black rook on the king's left",
    ),
    (
        "castling-king-off-back-rank",
        "r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1",
        "white king is not on its back rank",
    ),
    ("shredder-letter-no-rook", "r3k2r/8/8/8/8/8/8/R3K2R w G - 0 1", "no white rook on g1"),
    ("shredder-letter-king-file", "r3k2r/8/8/8/8/8/8/R3K2R w E - 0 1", "no white rook on e1"),
    ("castling-right-twice", "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "twice"),
    ("castling-right-twice-mixed", "r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1", "twice"),
    ("two-rights-one-side", "4k3/8/8/8/8/8/8/4K1RR w GH - 0 1", "that side already has a right"),
    ("ep-not-a-square", f"{START_BOARD} w KQkq e9 0 1", "en passant field"),
    ("ep-wrong-rank-white-to-move", "4k3/8/8/3pP3/8/8/8/4K3 w - d5 0 2", "not on rank 6"),
    ("ep-wrong-rank-black-to-move", "4k3/8/8/8/3Pp3/8/8/4K3 b - d6 0 1", "not on rank 3"),
    ("ep-no-pawn", "4k3/8/8/4P3/8/8/8/4K3 w - d6 0 2", "no pawn stands on d5"),
    ("ep-square-occupied", "4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 2", "cannot have just passed"),
    ("ep-start-square-occupied", "4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 2", "cannot have just passed"),
    ("negative-halfmove-clock", f"{START_BOARD} w KQkq - -1 1", "halfmove clock"),
    ("word-halfmove-clock", f"{START_BOARD} w KQkq - x 1", "halfmove clock"),
    ("superscript-halfmove-clock", f"{START_BOARD} w KQkq - ² 1", "halfmove clock"),
    ("zero-fullmove-number", f"{START_BOARD} w KQkq - 0 0", "fullmove number"),
    ("negative-fullmove-number", f"{START_BOARD} w KQkq - 0 -3", "fullmove number"),
    ("decimal-fullmove-number", f"{START_BOARD} w KQkq - 0 1.5", "fullmove number"),
]


def _assert_error(error: BaseException, cls: type[Exception]) -> None:
    assert type(error) is cls
    assert isinstance(error, ValueError)
    assert isinstance(error, ReedboardError)
    assert isinstance(error, InvalidInputError)


@pytest.mark.parametrize(("fen", "words"), [pytest.param(*row[1:], id=row[0]) for row in BAD_FENS])
def test_bad_fen(fen: str, words: str) -> None:
    with pytest.raises(InvalidFenError) as caught:
        parse_fen(fen)
    _assert_error(caught.value, InvalidFenError)
    assert words in str(caught.value)


def test_fen_must_be_text() -> None:
    with pytest.raises(InvalidFenError, match="a FEN is text"):
        parse_fen(None)  # type: ignore[arg-type]  # the wrong type is the point of the test


POSITION = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
KNIGHTS = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"
PROMOTE = "8/4P3/8/8/8/8/8/k3K3 w - - 0 1"

# (id, FEN, SAN, error class, words in the message)
BAD_SANS = [
    ("empty", POSITION, "", InvalidMoveError, "not a move in SAN"),
    ("off-board", POSITION, "Nf9", InvalidMoveError, "not a move in SAN"),
    ("bad-piece", POSITION, "Xe4", InvalidMoveError, "not a move in SAN"),
    ("lower-case-piece", POSITION, "nf3", InvalidMoveError, "not a move in SAN"),
    ("promote-to-king", PROMOTE, "e8=K", InvalidMoveError, "not a move in SAN"),
    ("not-text", POSITION, 42, InvalidMoveError, "SAN is text"),
    ("piece-cannot-promote", POSITION, "Nd4=Q", InvalidMoveError, "only a pawn promotes"),
    ("illegal", POSITION, "Qh5", IllegalMoveError, "'Qh5' is not legal"),
    ("no-such-piece", POSITION, "Ra3", IllegalMoveError, "not legal"),
    ("ambiguous", KNIGHTS, "Nd2", AmbiguousMoveError, "b1d2, f1d2"),
    ("missing-promotion", PROMOTE, "e8", IllegalMoveError, "must promote"),
    ("false-capture-mark", POSITION, "Nxd4", IllegalMoveError, "marks a capture"),
    ("capture-without-x", POSITION, "Ne5", IllegalMoveError, "SAN writes it with 'x'"),
    (
        "pawn-capture-without-file",
        "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
        "d5",
        IllegalMoveError,
        "not legal",
    ),
    ("castling-not-allowed", POSITION, "O-O", IllegalMoveError, "castling is not legal"),
    ("castling-long-blocked", POSITION, "O-O-O", IllegalMoveError, "castling is not legal"),
]


@pytest.mark.parametrize(
    ("fen", "text", "cls", "words"), [pytest.param(*row[1:], id=row[0]) for row in BAD_SANS]
)
def test_bad_san(fen: str, text: str, cls: type[Exception], words: str) -> None:
    with pytest.raises(cls) as caught:
        parse_san(Position.from_fen(fen), text)
    _assert_error(caught.value, cls)
    assert words in str(caught.value)


# (id, UCI text, words)
BAD_UCI_SYNTAX = [
    ("too-short", "e2", "not a UCI move"),
    ("too-long", "e2e4qq", "not a UCI move"),
    ("off-board", "e2e9", "not a UCI move"),
    ("capitals", "E2E4", "not a UCI move"),
    ("promote-to-king", "e7e8k", "promotes to n, b, r or q, not 'k'"),
    ("promote-upper-case", "e7e8Q", "not 'Q'"),
    ("null-move", "e2e2", "must leave its square"),
    ("not-text", 1234, "not a UCI move"),
]


@pytest.mark.parametrize(("text", "words"), [pytest.param(*r[1:], id=r[0]) for r in BAD_UCI_SYNTAX])
def test_bad_uci(text: str, words: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        Move.from_uci(text)
    _assert_error(caught.value, InvalidMoveError)
    assert words in str(caught.value)
    with pytest.raises(InvalidMoveError):
        Position.standard().parse_uci(text)


@pytest.mark.parametrize(
    ("fen", "chess960", "text"),
    [
        pytest.param(POSITION, False, "e2e5", id="pawn-three-squares"),
        pytest.param(POSITION, False, "e1g1", id="castling-through-bishop"),
        pytest.param(
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            True,
            "e1g1",
            id="chess960-needs-king-takes-rook",
        ),
        pytest.param(PROMOTE, False, "e7e8", id="promotion-missing"),
        pytest.param(POSITION, False, "e2e3q", id="promotion-not-allowed"),
    ],
)
def test_illegal_uci(fen: str, chess960: bool, text: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        Position.from_fen(fen, chess960=chess960).parse_uci(text)
    _assert_error(caught.value, IllegalMoveError)
    assert f"{text} is not legal" in str(caught.value)


def test_play_illegal_move() -> None:
    with pytest.raises(IllegalMoveError, match="e2e5 is not legal"):
        Position.standard().play(Move.from_uci("e2e5"))
    with pytest.raises(IllegalMoveError, match="e2e5 is not legal"):
        Game().push(Move.from_uci("e2e5"))


@pytest.mark.parametrize(
    ("number", "words"),
    [
        pytest.param(960, "0..959, not 960", id="960"),
        pytest.param(-1, "not -1", id="negative"),
        pytest.param(True, "not True", id="bool"),
        pytest.param("5", "not '5'", id="text"),
        pytest.param(3.0, "not 3.0", id="float"),
    ],
)
def test_bad_chess960_number(number: int, words: str) -> None:
    with pytest.raises(InvalidChess960Error) as caught:
        back_rank(number)
    _assert_error(caught.value, InvalidChess960Error)
    assert words in str(caught.value)
    with pytest.raises(InvalidChess960Error):
        Position.chess960_start(number)


def test_bad_back_rank() -> None:
    with pytest.raises(InvalidChess960Error, match="'rrrrrrrr' is not a Chess960 start"):
        chess960_number((ROOK,) * 8)


@pytest.mark.parametrize(
    ("call", "cls", "words"),
    [
        pytest.param(
            lambda: parse_square("i1"), InvalidSquareError, "'i1' is not a square", id="square-name"
        ),
        pytest.param(lambda: parse_square("E4"), InvalidSquareError, "'E4'", id="square-capitals"),
        pytest.param(
            lambda: square_name(64), InvalidSquareError, "64 is outside 0..63", id="square-number"
        ),
        pytest.param(
            lambda: piece_type_from_symbol("x"),
            InvalidInputError,
            "'x' is not a piece",
            id="piece-letter",
        ),
    ],
)
def test_bad_square_and_piece(call: Callable[[], object], cls: type[Exception], words: str) -> None:
    with pytest.raises(cls) as caught:
        call()
    _assert_error(caught.value, cls)
    assert words in str(caught.value)


# (id, PGN text, words)
BAD_PGNS = [
    ("illegal-move", "1. e4 e5 2. Ke3 *", "move 2. Ke3"),
    ("illegal-black-move", "1. e4 e5 2. Nf3 Ke6 *", "move 2... Ke6"),
    ("garbage-move", "1. e4 e5 2. zz9 *", "zz9"),
    ("move-after-mate", "1. f3 e5 2. g4 Qh4# 3. a3 *", "move 3. a3"),
    ("bad-tag", '[Event "x"\n\n1. e4 *', "is not a PGN tag"),
    ("bad-fen-tag", '[SetUp "1"]\n[FEN "8/8/8 w - - 0 1"]\n\n*', "the FEN tag is wrong"),
    ("unclosed-comment", "1. e4 {a comment that never ends e5 *", "never closed"),
    ("unopened-variation", "1. e4 e5 ) 2. Nf3 *", "closes no variation"),
    ("unclosed-variation", "1. e4 e5 (1... c5 2. Nf3 *", "never closed"),
]


@pytest.mark.parametrize(("text", "words"), [pytest.param(*r[1:], id=r[0]) for r in BAD_PGNS])
def test_bad_pgn(text: str, words: str) -> None:
    with pytest.raises(InvalidPgnError) as caught:
        read_pgn(text)
    _assert_error(caught.value, InvalidPgnError)
    assert words in str(caught.value)
