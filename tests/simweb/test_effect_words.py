"""The Effects panel's words for each effect the board sends."""

from __future__ import annotations

import pytest
from reedboard.simweb.effect_words import effect_words

START_AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


@pytest.mark.parametrize(
    ("effect", "words"),
    [
        (
            {"event": "move", "uci": "e2e4", "san": "e4", "fen": START_AFTER_E4, "ply": 1},
            "1. e4 (e2e4)",
        ),
        (
            {
                "event": "move",
                "uci": "b8c6",
                "san": "Nc6",
                "ply": 4,
                "clock": {"white_ms": 298_200, "black_ms": 300_000},
            },
            "2... Nc6 (b8c6) · White 4:58.2, Black 5:00.0",
        ),
        ({"event": "touch", "square": "g1", "piece": "N"}, "Touched: white knight on g1"),
        (
            {"event": "illegal", "missing": ["g1"], "extra": ["g4"], "pairs": [["g4", "g1"]]},
            "Illegal: the piece on g4 goes back to g1",
        ),
        (
            {"event": "illegal", "missing": ["e2"], "extra": [], "pairs": []},
            "Illegal: put a piece back on e2",
        ),
        ({"event": "restored"}, "Board restored"),
        (
            {"event": "new_game", "fen": START_AFTER_E4, "variant": "standard"},
            "New game, standard, untimed",
        ),
        (
            {"event": "new_game", "fen": "x", "chess960": True, "time_control": "5+3"},
            "New game, Chess960, clock 5+3",
        ),
        ({"event": "game_over", "result": "1-0", "reason": "checkmate"}, "White wins: checkmate"),
        (
            {"event": "clock", "white_ms": 61_000, "black_ms": 3_600_000},
            "Clock pressed: White 1:01.0, Black 1:00:00",
        ),
        (
            {
                "event": "clock",
                "white_ms": 1,
                "black_ms": 2,
                "added": {"color": "black", "ms": 120_000},
            },
            "120 s added to Black: White 0:00.0, Black 0:00.0",
        ),
        ({"event": "promotion", "piece": "n"}, "Next promotion: knight"),
        ({"event": "takeback", "uci": "e2e4"}, "Taken back: e2e4"),
        (
            {"event": "sensor", "square": "e4", "fault": "chattering", "occupied": True},
            "Switch e4 chattering: left out, taken as occupied",
        ),
        ({"event": "sensor", "square": "e4", "fault": "recovered"}, "Switch e4 reads sanely again"),
    ],
)
def test_each_effect_in_words(effect: dict[str, object], words: str) -> None:
    wire = {"type": "effect", "seq": 3, "t_ms": 1200, "game": 0} | effect
    assert effect_words(wire) == words


def test_an_unknown_or_odd_effect_is_still_shown_field_by_field() -> None:
    assert effect_words({"event": "wave", "t_ms": 1, "hand": "left"}) == "Wave: hand left"
    assert effect_words({"event": "touch", "t_ms": 1, "square": "e4"}) == "Touch: square e4"
    assert "{" not in effect_words({"event": "move", "t_ms": 1})
