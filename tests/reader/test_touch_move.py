"""Strict mode: the FIDE touch-move articles, each case named by its article."""

from __future__ import annotations

from tests.reader.support import kinds, moves, replay, steps

CASTLING_FEN = "@start fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
AFTER_E4_D5 = "lift e2, place e4; lift d7, place d5; "


def violations(effects: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(e["rule"], e["square"]) for e in effects if e["event"] == "violation"]


def test_4_3a_the_first_touched_own_piece_that_can_move_must_move() -> None:
    effects = replay(
        steps("lift g1, place g1; lift b1, place c3, +500 lift c3, place b1; lift g1, place f3"),
        mode="strict",
    )
    assert violations(effects) == [("4.3a", "g1")]
    assert moves(effects) == ["g1f3"]
    assert kinds(effects) == ["violation", "restored", "move"]


def test_4_5_a_touched_piece_that_cannot_move_frees_the_player() -> None:
    effects = replay(steps("lift a1, place a1; lift e2, place e4"), mode="strict")
    assert violations(effects) == []
    assert moves(effects) == ["e2e4"]


def test_4_3b_an_opponent_piece_set_back_may_have_been_its_owners_touch() -> None:
    """The sensors cannot say whose hand lifted d5 and set it back: Black adjusting it
    as well as White touching it. A violation is called only when the touch cannot
    have been the owner's, so it binds nobody (the touch is still reported)."""
    effects = replay(steps(AFTER_E4_D5 + "lift d5, place d5; lift g1, place f3"), mode="strict")
    assert violations(effects) == []
    assert moves(effects) == ["e2e4", "d7d5", "g1f3"]
    assert [e["square"] for e in effects if e["event"] == "touch"][-2] == "d5"
    effects = replay(
        steps(AFTER_E4_D5 + "lift d5, place d5; lift e4, lift d5, place d5"), mode="strict"
    )
    assert moves(effects) == ["e2e4", "d7d5", "e4d5"]


def test_4_3c_own_and_opponent_piece_capture_with_that_piece() -> None:
    touched = "lift e4, place e4, lift d5, place d5; "
    # d5 set back binds nobody (see above): e4, touched, must move (4.3a).
    effects = replay(steps(AFTER_E4_D5 + touched + "lift b1, place c3"), mode="strict")
    assert violations(effects) == [("4.3a", "e4")]
    effects = replay(steps(AFTER_E4_D5 + touched + "lift d1, place e2"), mode="strict")
    assert violations(effects) == [("4.3a", "e4")]
    effects = replay(steps(AFTER_E4_D5 + touched + "lift e4, lift d5, place d5"), mode="strict")
    assert violations(effects) == [] and moves(effects)[-1] == "e4d5"


def test_4_3c_own_piece_counts_first_when_the_order_cannot_be_told() -> None:
    # The knight (own) and the d5 pawn (the knight cannot take it) lifted at the same
    # moment: the knight counts as touched first, so it must move.
    body = (
        steps(AFTER_E4_D5)
        + "\n5000 lift d5\n5000 lift g1\n5300 place d5\n5300 place g1\n6500 lift g1\n6900 place f3\n"
    )
    effects = replay(body, mode="strict")
    assert violations(effects) == [] and moves(effects)[-1] == "g1f3"


def test_4_4a_king_then_rook_must_castle_on_that_side() -> None:
    effects = replay(
        steps("lift e1, place e1, lift h1, place h1; lift e1, place f1"),
        header=CASTLING_FEN,
        mode="strict",
    )
    assert violations(effects) == [("4.4a", "e1")]
    effects = replay(
        steps("lift e1, place g1, lift h1, place f1"), header=CASTLING_FEN, mode="strict"
    )
    assert violations(effects) == [] and moves(effects) == ["e1g1"]


def test_4_4b_rook_then_king_no_castling_on_that_side() -> None:
    effects = replay(
        steps("lift h1, lift e1, place g1, place f1"), header=CASTLING_FEN, mode="strict"
    )
    assert violations(effects) == [("4.4b", "h1")]
    assert moves(effects) == []
    casual = replay(steps("lift h1, lift e1, place g1, place f1"), header=CASTLING_FEN)
    assert moves(casual) == ["e1g1"]


def test_4_4c_king_then_rook_when_castling_is_illegal_move_the_king() -> None:
    # A black rook on f8 attacks f1: O-O is illegal, so the king must move.
    fen = "@start fen r3kr2/ppppp1pp/8/8/8/8/PPPPP1PP/R3K2R w KQq - 0 1"
    effects = replay(
        steps("lift e1, place e1, lift h1, place h1; lift a2, place a3"), header=fen, mode="strict"
    )
    assert violations(effects) == [("4.4c", "e1")]
    effects = replay(
        steps("lift e1, place e1, lift h1, place h1; lift e1, place d1"), header=fen, mode="strict"
    )
    assert violations(effects) == [] and moves(effects) == ["e1d1"]


def test_art_7_castling_is_complete_only_when_the_rook_is_released() -> None:
    # The king on g1 alone is not a move: nothing is committed, nothing is illegal.
    effects = replay(steps("lift e1, place g1"), header=CASTLING_FEN, mode="strict")
    assert moves(effects) == [] and "illegal" not in kinds(effects)
