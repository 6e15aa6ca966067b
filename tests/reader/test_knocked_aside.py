"""A piece knocked onto a neighbouring square where it could legally move, by the hand
carrying another piece: when the piece in the hand goes back, the board reads exactly
that move. What tells the knock: the knocked piece travels in tens of ms, while the
hand still holds another piece. The board asks for it back instead of committing it; a
deliberate quick step with nothing else in the hand still counts."""

from __future__ import annotations

import pytest

from tests.reader.support import kinds, moves, replay, steps

BOTH = pytest.mark.parametrize("mode", ["casual", "strict"])
OPENING = "lift e2, +300 place e4; lift e7, +300 place e5"

# name -> (the hands, the knocked piece's square and where it landed, then the move
# played: by the piece that was in the hand, which strict mode holds touched)
KNOCKS = {
    "knight in hand, knocked pawn left a while": (
        "lift g1, +300 lift f2, +40 place f3, +400 place g1",
        ("f2", "f3"),
        "lift g1, +400 place f3",
    ),
    "knight back at once, knocked pawn put back": (
        "lift g1, +300 lift f2, +40 place f3, +100 place g1",
        ("f2", "f3"),
        "lift g1, +400 place f3",
    ),
    "bishop in hand, knocked pawn pushed on": (
        "lift f1, +200 lift d2, +30 place d3, +300 place f1",
        ("d2", "d3"),
        "lift f1, +400 place c4",
    ),
}


@BOTH
@pytest.mark.parametrize("name", KNOCKS)
def test_a_piece_knocked_onto_a_legal_square_is_asked_back(mode: str, name: str) -> None:
    hands, (home, landed), move = KNOCKS[name]
    back = f"+1000 lift {landed}, +300 place {home}"
    effects = replay(steps(f"{OPENING}; {hands}; {back}; {move}", gap_ms=0), mode=mode)
    played = move.split()[1].rstrip(",") + move.split()[-1]
    assert moves(effects) == ["e2e4", "e7e5", played]
    assert "takeback" not in kinds(effects) and "violation" not in kinds(effects)
    # The board asked for the knocked piece back, and was satisfied.
    asked = [e for e in effects if e["event"] == "illegal"]
    assert asked and (asked[-1]["missing"], asked[-1]["extra"]) == ([home], [landed])
    assert kinds(effects)[-2:] == ["restored", "move"]


@BOTH
@pytest.mark.parametrize("lift_to_place_ms", [30, 60, 120])
def test_a_quick_step_with_nothing_else_in_the_hand_is_a_move(
    mode: str, lift_to_place_ms: int
) -> None:
    effects = replay(
        steps(
            f"{OPENING}; lift f2, +{lift_to_place_ms} place f3; lift d7, +400 place d6", gap_ms=0
        ),
        mode=mode,
    )
    assert moves(effects) == ["e2e4", "e7e5", "f2f3", "d7d6"]
    assert "illegal" not in kinds(effects)


@BOTH
def test_a_slow_step_while_holding_another_piece_is_a_move_in_casual_mode(mode: str) -> None:
    # The knight lifted and held, the f-pawn moved deliberately (400 ms), the knight put
    # back: casual mode takes the pawn move; strict mode holds the knight touched first.
    effects = replay(
        steps(f"{OPENING}; lift g1, +300 lift f2, +400 place f3, +300 place g1", gap_ms=0),
        mode=mode,
    )
    if mode == "casual":
        assert moves(effects) == ["e2e4", "e7e5", "f2f3"]
    else:
        assert moves(effects) == ["e2e4", "e7e5"]
        assert "violation" in kinds(effects)
