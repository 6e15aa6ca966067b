"""Strict mode: whose hand a lift is, and which of several touched pieces binds
(FIDE 4.3.1-4.3.3, named 4.3a-4.3c on the board), table-driven in both modes."""

from __future__ import annotations

import pytest

from tests.reader.support import moves, replay, steps

AFTER_E4_D5 = "lift e2, place e4; lift d7, place d5; "


def violations(effects: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(e["rule"], e["square"]) for e in effects if e["event"] == "violation"]


# (name, steps after 1.e4 d5, expected violations, expected last move or None)
FIRST_OWN_PIECE_CASES = [
    # d5 touched, then the knight (which can take it), then the pawn takes: the knight,
    # the first own piece touched, must move (4.3a). d5, set back on its square, may
    # have been Black's hand adjusting it: it binds nobody, so the knight need not take.
    (
        "knight-then-pawn",
        "lift d5, place d5, lift c3, place c3; lift e4, lift d5, place d5",
        [("4.3a", "c3")],
        None,
    ),
    (
        "knight-takes",
        "lift d5, place d5, lift c3, place c3; lift c3, lift d5, place d5",
        [],
        "c3d5",
    ),
    # The pawn touched first: the pawn must take, not the knight touched later.
    (
        "pawn-then-knight",
        "lift e4, place e4, lift c3, place c3, lift d5, place d5; lift c3, lift d5, place d5",
        [("4.3a", "e4")],
        None,
    ),
    # An own piece that cannot take the touched one, touched first: it must move (4.3.3:
    # the capture is illegal, so the first piece touched that can move).
    (
        "bishop-first",
        "lift f1, place f1, lift d5, place d5; lift e4, lift d5, place d5",
        [("4.3a", "f1")],
        None,
    ),
    ("bishop-moves", "lift f1, place f1, lift d5, place d5; lift f1, place c4", [], "f1c4"),
]

QC3 = "@start fen rnbqkbnr/ppp1pppp/8/3p4/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 1\n"


@pytest.mark.parametrize(
    ("name", "body", "expected", "last"),
    FIRST_OWN_PIECE_CASES,
    ids=[c[0] for c in FIRST_OWN_PIECE_CASES],
)
def test_4_3c_the_first_own_piece_touched_that_can_take_must_take(
    name: str, body: str, expected: list[tuple[str, str]], last: str | None
) -> None:
    effects = replay(steps(body), header=QC3, mode="strict")
    assert violations(effects) == expected
    if last is not None:
        assert moves(effects) == [last]
    else:
        assert moves(effects) == []
    # Casual mode binds nothing: the same hands make the move.
    casual = replay(steps(body), header=QC3, mode="casual")
    assert violations(casual) == []
    assert len(moves(casual)) == 1


# After 1.e4 d5 2.Nc3 (the knight is set down at 5000 ms): what follows, and whether Black,
# who then plays Nf6, is bound (FIDE 4.3 binds only the player having the move).
AFTER_NC3 = (
    "1000 lift e2\n1400 place e4\n2500 lift d7\n2900 place d5\n4600 lift b1\n5000 place c3\n"
)
NF6 = "7000 lift g8\n7400 place f6\n"
MOVERS_HAND_CASES = [
    # White's withdrawing hand knocks its own e4 pawn right after the knight lands.
    ("own-pawn-knocked-at-once", "5120 lift e4\n5210 place e4\n", []),
    ("own-pawn-knocked-quickly", "5300 lift e4\n5380 place e4\n", []),
    # White's pawn lifted and set back a while later, on Black's turn: Black's hand, or
    # White's adjusting it (the sensors cannot say whose): it binds nobody.
    ("lifted-later", "6000 lift e4\n6200 place e4\n", []),
    # White recentres the knight just moved, 0.7 s or 1.5 s after letting it go.
    ("knight-recentred-0.7-s", "5700 lift c3\n5800 place c3\n", []),
    ("knight-recentred-1.5-s", "6500 lift c3\n6600 place c3\n", []),
    # A piece of the player to move is never the mover's: Black's own d5, lifted at once.
    ("black-own-piece", "5150 lift d5\n5250 place d5\n", [("4.3a", "d5")]),
]


@pytest.mark.parametrize(
    ("name", "knock", "expected"), MOVERS_HAND_CASES, ids=[c[0] for c in MOVERS_HAND_CASES]
)
def test_the_movers_withdrawing_hand_binds_no_one(
    name: str, knock: str, expected: list[tuple[str, str]]
) -> None:
    effects = replay(AFTER_NC3 + knock + NF6, mode="strict")
    assert violations(effects) == expected
    assert moves(effects) == ["e2e4", "d7d5", "b1c3"] + (["g8f6"] if not expected else [])
    casual = replay(AFTER_NC3 + knock + NF6, mode="casual")
    assert moves(casual) == ["e2e4", "d7d5", "b1c3", "g8f6"]


def test_a_capture_after_the_movers_knock_is_still_the_players_choice() -> None:
    # The knock does not bind Black, and does not stop Black from taking the pawn either.
    body = AFTER_NC3 + "5120 lift e4\n5210 place e4\n7000 lift d5\n7300 lift e4\n7600 place e4\n"
    effects = replay(body, mode="strict")
    assert violations(effects) == []
    assert moves(effects)[-1] == "d5e4"
