"""What the board decided, in the words the simulator's page shows a chess player."""

from __future__ import annotations

import pytest
from reedboard.reader.setup import SetupGuide
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.position import Position
from reedboard.simweb.words import notice, result_words, setup_words

START = Position.from_fen(STARTING_FEN)


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
    knight = {"event": "illegal", "missing": ["g1"], "extra": ["g4"], "pairs": [["g4", "g1"]]}
    assert notice([knight], START) == "Illegal: put the knight back on g1"
    two = {"event": "illegal", "missing": ["e2", "d1"], "extra": ["e5"], "pairs": [["e5", "e2"]]}
    assert notice([two], START) == "Illegal: put the pawn back on e2, put the queen back on d1"
    stray = {"event": "illegal", "missing": [], "extra": ["e5"], "pairs": []}
    assert notice([stray], START) == "Illegal: take the piece off e5"


def test_touch_move_names_the_rule_the_piece_and_its_square() -> None:
    touched = {"event": "violation", "rule": "4.3a", "square": "g1", "message": "..."}
    assert notice([touched], START) == "Touch-move (FIDE 4.3a): the touched knight on g1 must move"
    theirs = {"event": "violation", "rule": "4.3b", "square": "e7", "message": "..."}
    assert notice([theirs], START) == (
        "Touch-move (FIDE 4.3b): the touched pawn on e7 must be captured"
    )
    castle = {"event": "violation", "rule": "4.4a", "square": "e1", "message": "castle"}
    assert notice([castle], START) == "Touch-move (FIDE 4.4a): castle (king on e1)"


def test_a_complaint_ends_when_the_board_is_in_order_again() -> None:
    illegal = {"event": "illegal", "missing": ["g1"], "extra": ["g4"], "pairs": [["g4", "g1"]]}
    for settled in ("restored", "move", "new_game", "takeback"):
        assert notice([illegal, {"event": settled}], START) is None
    assert notice([{"event": "restored"}, illegal], START) is not None
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
