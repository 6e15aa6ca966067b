"""The Chess960 gesture against ordinary set-ups: the standard start always wins, and the
gesture is made only on purpose. Both modes, through the replay path."""

from __future__ import annotations

import pytest
from reedboard.rules.fen import STARTING_FEN

from tests.reader.support import kinds, moves, replay

BACK_RANKS = [f"{f}{r}" for r in "18" for f in "abcdefgh"]
PAWNS = [f"{f}{r}" for r in "27" for f in "abcdefgh"]
AFTER_E4_E5 = "500 lift e2\n800 place e4\n1500 lift e7\n1800 place e5\n"
OCCUPIED_AFTER_E4_E5 = [sq for sq in BACK_RANKS + PAWNS if sq not in ("e2", "e7")] + ["e4", "e5"]


def lines(t: int, action: str, squares: list[str], gap: int = 150) -> tuple[str, int]:
    out = ""
    for sq in squares:
        out += f"{t} {action} {sq}\n"
        t += gap
    return out, t


def new_games(effects: list[dict[str, object]]) -> list[object]:
    return [e["fen"] for e in effects if e["event"] == "new_game"]


def set_up_pawns_first(pause_ms: int, kings_last: bool) -> tuple[str, int]:
    """After 1.e4 e5, every piece swept off the board; then the pawns, a pause to fetch
    the pieces, the pieces (the kings last, after another pause, if asked)."""
    body, t = lines(3000, "lift", OCCUPIED_AFTER_E4_E5, gap=40)
    more, t = lines(t + 1000, "place", PAWNS)
    body = AFTER_E4_E5 + body + more
    t += pause_ms
    pieces = [sq for sq in BACK_RANKS if sq not in ("e1", "e8")]
    more, t = lines(t, "place", pieces)
    body += more
    if kings_last:
        t += pause_ms
    more, t = lines(t, "place", ["e1", "e8"])
    return body + more, t + 1000


@pytest.mark.parametrize("mode", ["casual", "strict"])
@pytest.mark.parametrize("pause_ms", [500, 3500, 8000])
@pytest.mark.parametrize("kings_last", [False, True])
def test_a_set_up_with_pauses_starts_a_standard_game(
    mode: str, pause_ms: int, kings_last: bool
) -> None:
    body, t = set_up_pawns_first(pause_ms, kings_last)
    body += f"{t} lift e2\n{t + 400} place e4\n"
    effects = replay(body, mode=mode)
    assert "setup" not in kinds(effects)
    assert new_games(effects) == [STARTING_FEN]
    assert moves(effects) == ["e2e4", "e7e5", "e2e4"]


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_the_kings_put_back_after_the_gesture_start_a_standard_game(mode: str) -> None:
    body = "1000 lift e1\n1300 lift e8\n5000 place e1\n5200 place e8\n6000 lift e2\n6400 place e4\n"
    effects = replay(body, mode=mode)
    assert kinds(effects)[:2] == ["setup", "new_game"]
    assert new_games(effects) == [STARTING_FEN]
    assert moves(effects) == ["e2e4"]


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_a_guided_set_up_left_for_the_standard_start_starts_a_standard_game(mode: str) -> None:
    # The gesture, the back ranks cleared, then the standard pieces put back as usual.
    body = "1000 lift e1\n1300 lift e8\n"
    pieces = [sq for sq in BACK_RANKS if sq not in ("e1", "e8")]
    more, t = lines(5000, "lift", pieces)
    body += more
    more, t = lines(t + 2000, "place", BACK_RANKS)
    body += more + f"{t + 1000} lift e2\n{t + 1400} place e4\n"
    effects = replay(body, mode=mode)
    assert kinds(effects)[0] == "setup"
    assert new_games(effects) == [STARTING_FEN]
    assert moves(effects) == ["e2e4"]


def test_the_gesture_needs_the_start_complete_and_both_kings_held() -> None:
    # One king held for 5 s: a touch, no set-up.
    effects = replay("1000 lift e1\n6000 place e1\n7000 lift e2\n7400 place e4\n")
    assert "setup" not in kinds(effects) and moves(effects) == ["e2e4"]
    # Both kings held, but for less than 3 s.
    effects = replay("1000 lift e1\n1300 lift e8\n3000 place e1\n3100 place e8\n")
    assert "setup" not in kinds(effects)
    # The start position missing a pawn as well: no gesture.
    effects = replay("1000 lift a2\n2000 lift e1\n2300 lift e8\n")
    assert "setup" not in kinds(effects)
