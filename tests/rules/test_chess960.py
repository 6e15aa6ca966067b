"""Chess960 start positions by Scharnagl number (Guidelines II.2 of the FIDE Laws)."""

from __future__ import annotations

import random
from itertools import permutations

import chess
import pytest
from reedboard.errors import InvalidChess960Error
from reedboard.rules import BISHOP, KING, KNIGHT, QUEEN, ROOK, Position, back_rank, chess960_number
from reedboard.rules.chess960 import chess960_fen, random_chess960_number, start_number_of
from reedboard.rules.pieces import PIECE_SYMBOLS


def _letters(number: int) -> str:
    return "".join(PIECE_SYMBOLS[t] for t in back_rank(number))


def test_every_number_round_trips() -> None:
    for number in range(960):
        assert chess960_number(back_rank(number)) == number
        assert chess960_number(list(back_rank(number))) == number


def test_only_the_960_arrangements_get_a_number() -> None:
    """Of every arrangement of the eight pieces, the 960 start positions get their own
    number back and every other one is refused (bishops on one colour, the king outside
    its rooks), as are ranks of the wrong length or with other pieces."""
    pieces = (ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK)
    starts = {back_rank(number): number for number in range(960)}
    arrangements = set(permutations(pieces))
    assert len(arrangements) == 5040
    for rank in arrangements:
        if rank in starts:
            assert chess960_number(rank) == starts[rank]
        else:
            with pytest.raises(InvalidChess960Error, match="is not a Chess960 start position"):
                chess960_number(rank)
    for rank in (pieces[:7], (*pieces, ROOK), (QUEEN, *pieces[1:]), (ROOK,) * 8, (0,) * 8):
        with pytest.raises(InvalidChess960Error, match="is not a Chess960 start position"):
            chess960_number(rank)


def test_all_960_are_distinct() -> None:
    assert len({back_rank(number) for number in range(960)}) == 960


@pytest.mark.parametrize(
    ("number", "letters"),
    [
        pytest.param(518, "rnbqkbnr", id="518-standard"),
        pytest.param(0, "bbqnnrkr", id="0"),
        pytest.param(1, "bqnbnrkr", id="1"),
        pytest.param(959, "rkrnnqbb", id="959"),
    ],
)
def test_known_positions(number: int, letters: str) -> None:
    assert _letters(number) == letters


def test_agrees_with_python_chess() -> None:
    for number in range(960):
        board = chess.Board.from_chess960_pos(number)
        assert chess960_fen(number) == board.shredder_fen(), number


def test_every_start_obeys_ii_2_1() -> None:
    for number in range(960):
        rank = back_rank(number)
        assert sorted(rank) == sorted((ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK))
        bishops = [f for f in range(8) if rank[f] == BISHOP]
        assert bishops[0] % 2 != bishops[1] % 2, number  # II.2.1.2 opposite colours
        rooks = [f for f in range(8) if rank[f] == ROOK]
        assert rooks[0] < rank.index(KING) < rooks[1], number  # II.2.1.1 king between rooks


def test_start_position_mirrors_and_has_rights() -> None:
    position = Position.chess960_start(0)
    assert position.chess960
    assert position.fen() == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    assert position.fen(shredder=True).split()[2] == "HFhf"
    assert Position.chess960_start(518).board_fen() == Position.standard().board_fen()


def test_random_number_is_in_range_and_reproducible() -> None:
    numbers = [random_chess960_number(random.Random(seed)) for seed in range(200)]
    assert all(0 <= n <= 959 for n in numbers)
    assert len(set(numbers)) > 100
    assert numbers == [random_chess960_number(random.Random(seed)) for seed in range(200)]


def test_the_start_number_of_a_position() -> None:
    for number in (0, 518, 959):
        assert start_number_of(Position.chess960_start(number)) == number
    start = Position.chess960_start(7)
    assert start_number_of(start.play(start.parse_uci("e2e4"))) is None
    # The standard start read as a standard game, its counters other than the start's.
    assert (
        start_number_of(
            Position.from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 9")
        )
        == 518
    )
    assert (
        start_number_of(
            Position.from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
        )
        is None
    )
    assert (
        start_number_of(
            Position.from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1")
        )
        is None
    )
    assert start_number_of(Position.from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")) is None
