"""A typed move as the steps of two hands: every kind of move, and what is refused."""

from __future__ import annotations

import pytest
from reedboard.errors import InvalidInputError
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES
from reedboard.simweb.typed import Step, hand_steps, typed_move


def steps(fen: str, text: str) -> list[str]:
    position = Position.from_fen(fen)
    return [_said(step) for step in hand_steps(position, typed_move(position, text))]


def _said(step: Step) -> str:
    where = SQUARE_NAMES[step.square] if step.square >= 0 else ""
    origin = f"<{SQUARE_NAMES[step.origin]}" if step.origin is not None else ""
    return " ".join(x for x in (step.action, where + origin, step.piece) if x)


START = Position.standard().fen()


@pytest.mark.parametrize(
    ("fen", "text", "expected"),
    [
        (START, "e2e4", ["lift e2", "place e4<e2"]),
        (START, "Nf3", ["lift g1", "place f3<g1"]),
        (
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
            "exd5",
            ["lift d5", "tray", "lift e4", "place d5<e4"],
        ),
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "e5f6",
            ["lift e5", "place f6<e5", "lift f5", "tray"],
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "O-O-O",
            ["lift e1", "lift a1", "place c1<e1", "place d1<a1"],
        ),
        (
            "5r2/4P1k1/8/8/8/8/8/4K3 w - - 0 1",
            "exf8=N",
            ["lift f8", "tray", "lift e7", "tray", "choose n", "spare N", "place f8"],
        ),
    ],
)
def test_each_kind_of_move(fen: str, text: str, expected: list[str]) -> None:
    assert steps(fen, text) == expected


@pytest.mark.parametrize(
    ("text", "message"), [("", "type a move"), ("e2e5", "e2e5"), ("Nf4", "Nf4")]
)
def test_what_is_not_a_legal_move_is_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        typed_move(Position.standard(), text)
