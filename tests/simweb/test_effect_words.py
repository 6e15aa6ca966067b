"""The Effects panel's words for each effect the board makes."""

from __future__ import annotations

import pytest
from reedboard.events import (
    ClockPressed,
    Effect,
    GameOver,
    Illegal,
    MoveMade,
    NewGame,
    Offered,
    PromotionChosen,
    Restored,
    SensorFault,
    SetupStarted,
    TakenBack,
    TimeAdded,
    Touched,
    Violation,
)
from reedboard.rules.squares import bitboard_of, parse_square
from reedboard.simweb.effect_words import effect_words

START_AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
G1, G4, E2, E4 = (parse_square(name) for name in ("g1", "g4", "e2", "e4"))


@pytest.mark.parametrize(
    ("effect", "words"),
    [
        (MoveMade(1, "e2e4", "e4", START_AFTER_E4, 1), "1. e4 (e2e4)"),
        (
            MoveMade(1, "b8c6", "Nc6", "", 4, clock=(298_200, 300_000)),
            "2... Nc6 (b8c6) · White 4:58, Black 5:00",
        ),
        (Touched(1, G1, "N"), "Touched: white knight on g1"),
        (
            Illegal(1, bitboard_of([G1]), bitboard_of([G4]), ((G4, G1),)),
            "Illegal: the piece on g4 goes back to g1",
        ),
        (Illegal(1, bitboard_of([E2]), 0), "Illegal: put a piece back on e2"),
        (Restored(1), "Board restored"),
        (NewGame(1, START_AFTER_E4, variant="standard"), "New game, standard, untimed"),
        (NewGame(1, "x", chess960=True, time_control="5+3"), "New game, Chess960, clock 5+3"),
        (GameOver(1, "1-0", "checkmate"), "White wins: checkmate"),
        (ClockPressed(1, 61_000, 3_600_000), "Clock pressed: White 1:01, Black 1:00:00"),
        (TimeAdded(1, False, 120_000, 1, 2), "120 s added to Black: White 0:00.0, Black 0:00.0"),
        (PromotionChosen(1, "n"), "Next promotion: knight"),
        (TakenBack(1, "e2e4", ""), "Taken back: e2e4"),
        (Violation(1, "4.3a", G1, "touched"), "Touch-move (FIDE 4.3a) at g1: touched"),
        (Offered(1, "1/2-1/2", "made"), "Kings in the centre: a draw (made)"),
        (SetupStarted(1, 518, ""), "Setting up Chess960 position 518"),
        (
            SensorFault(1, E4, "chattering", True),
            "Switch e4 chattering: left out, taken as occupied",
        ),
        (SensorFault(1, E4, "recovered", False), "Switch e4 reads sanely again"),
    ],
)
def test_each_effect_in_words(effect: Effect, words: str) -> None:
    assert effect_words(effect) == words
