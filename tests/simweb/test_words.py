"""What the board decided, in the words the simulator's page shows a chess player."""

from __future__ import annotations

import pytest
from reedboard.events import Effect, Illegal, MoveMade, NewGame, Restored, TakenBack, Violation
from reedboard.reader.setup import SetupGuide
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.position import Position
from reedboard.rules.squares import bitboard_of, parse_square
from reedboard.simweb.words import notice, result_words, setup_words

START = Position.from_fen(STARTING_FEN)


def illegal(missing: list[str], extra: list[str], pairs: list[tuple[str, str]]) -> Illegal:
    def board(names: list[str]) -> int:
        return bitboard_of([parse_square(name) for name in names])

    paired = tuple((parse_square(a), parse_square(b)) for a, b in pairs)
    return Illegal(0, board(missing), board(extra), paired)


def violation(rule: str, square: str, message: str) -> Violation:
    return Violation(0, rule, parse_square(square), message)


@pytest.mark.parametrize(
    ("result", "reason", "words"),
    [
        ("1-0", "checkmate", "White wins: checkmate"),
        ("0-1", "checkmate", "Black wins: checkmate"),
        ("0-1", "resignation", "Black wins: White resigned"),
        ("1-0", "resignation", "White wins: Black resigned"),
        ("1/2-1/2", "insufficient_material", "Draw: insufficient material"),
        ("1/2-1/2", "stalemate", "Draw: stalemate"),
        ("1/2-1/2", "threefold_repetition", "Draw: threefold repetition"),
        ("1/2-1/2", "fivefold_repetition", "Draw: fivefold repetition"),
        ("1/2-1/2", "fifty_moves", "Draw: 50-move rule"),
        ("1/2-1/2", "seventyfive_moves", "Draw: 75-move rule"),
        ("1/2-1/2", "agreement", "Draw by agreement"),
        ("1-0", "time_forfeit", "White wins: time forfeit"),  # a reason it does not know
        ("1/2-1/2", None, "Draw"),
    ],
)
def test_every_result_is_said_in_words(result: str, reason: str | None, words: str) -> None:
    assert result_words(result, reason) == words


def test_an_illegal_board_says_what_to_put_back_and_what_to_clear() -> None:
    knight = illegal(["g1"], ["g4"], [("g4", "g1")])
    assert notice([knight], START) == "Illegal: put the knight back on g1"
    two = illegal(["e2", "d1"], ["e5"], [("e5", "e2")])
    assert notice([two], START) == "Illegal: put the pawn back on e2, put the queen back on d1"
    stray = illegal([], ["e5"], [])
    assert notice([stray], START) == "Illegal: take the piece off e5"


def test_touch_move_names_the_rule_the_piece_and_its_square() -> None:
    touched = violation("4.3a", "g1", "...")
    assert notice([touched], START) == "Touch-move (FIDE 4.3a): the touched knight on g1 must move"
    theirs = violation("4.3b", "e7", "...")
    assert notice([theirs], START) == (
        "Touch-move (FIDE 4.3b): the touched pawn on e7 must be captured"
    )
    castle = violation("4.4a", "e1", "castle")
    assert notice([castle], START) == "Touch-move (FIDE 4.4a): castle (king on e1)"


def test_a_complaint_ends_when_the_board_is_in_order_again() -> None:
    wrong = illegal(["g1"], ["g4"], [("g4", "g1")])
    settling: list[Effect] = [
        Restored(1),
        MoveMade(1, "e2e4", "e4", "", 1),
        NewGame(1, STARTING_FEN),
        TakenBack(1, "e2e4", STARTING_FEN),
    ]
    for settled in settling:
        assert notice([wrong, settled], START) is None
    assert notice([Restored(0), wrong], START) is not None
    assert notice([], START) is None


def test_a_chess960_set_up_is_told_step_by_step() -> None:
    guide = SetupGuide.chess960(518)
    assert setup_words(518, guide.step(0)) == "Setting up Chess960 position 518: place the rooks"
    rooks = 1 << 0 | 1 << 7 | 1 << 56 | 1 << 63
    assert setup_words(518, guide.step(rooks)) == (
        "Setting up Chess960 position 518: place the knights"
    )
    early_king = rooks | 1 << 4
    assert setup_words(518, guide.step(early_king)) == (
        "Setting up Chess960 position 518: take the pieces off e1"
    )
