"""Captures swapped in one motion that no knock explains as well: made once the capturer
rests, not held for the opponent's lift or knock_wait_ms.

A capture whose victim's square was empty under KNOCK_MS while the capturer was in the
hand is held as a possible knocked neighbour (see test_knock_wait). Two shapes of it never
appear among the knocks measured (bench/knock_features.py): the capture is its piece's
only legal move (the knock's other reading can then only end with the piece set back,
a touch), and the capturer's slide was seen on the square before the victim's (its piece
was on the board, not in the air, next to the victim). Such a capture is made like any
capture that cannot grow, RELAND_MS after its piece was set down; should the piece set
back home show it was a knock after all, the capture is taken back (as after the wait)."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.reader.waits import DEFAULT_SETTLE_MS, RELAND_MS

from tests.reader.support import kinds, moves, replay, steps

BOTH = pytest.mark.parametrize("mode", ["casual", "strict"])
DEBOUNCE_MS = 12  # the debouncer reports a change this long after its first edge
GOAL_MS = DEFAULT_SETTLE_MS + 50  # issue 31's latency goal, from the move's own last change

# 1.e4 e5 2.Nf3 d5: the e4 pawn is blocked, exd5 is its only legal move.
BLOCKED = (
    "lift e2, +300 place e4; lift e7, +300 place e5; lift g1, +300 place f3; lift d7, +300 place d5"
)
BLOCKED_MOVES = ["e2e4", "e7e5", "g1f3", "d7d5"]
# 1.d4 e5 2.Qd3 Nc6: the queen takes on h7 over g6.
QUEEN = (
    "lift d2, +300 place d4; lift e7, +300 place e5; lift d1, +300 place d3; lift b8, +300 place c6"
)
QUEEN_MOVES = ["d2d4", "e7e5", "d1d3", "b8c6"]


def last_time(body: str, ending: str) -> int:
    return [int(line.split()[0]) for line in body.splitlines() if line.endswith(ending)][-1]


def made_at(effects: list[dict[str, Any]], uci: str) -> int:
    return int(next(e["t_ms"] for e in effects if e["event"] == "move" and e["uci"] == uci))


@BOTH
def test_a_capture_that_is_its_pieces_only_move_is_made_at_rest(mode: str) -> None:
    body = steps(
        f"{BLOCKED}; lift e4, +200 lift d5, +40 place d5, +3000 lift g8, +300 place f6", gap_ms=0
    )
    effects = replay(body, mode=mode)
    assert moves(effects) == [*BLOCKED_MOVES, "e4d5", "g8f6"]
    filled = last_time(body, "place d5")
    assert made_at(effects, "e4d5") == filled + RELAND_MS
    assert made_at(effects, "e4d5") - filled <= GOAL_MS
    assert "takeback" not in kinds(effects)


@BOTH
def test_a_capture_slid_up_to_its_victim_is_made_at_rest(mode: str) -> None:
    body = steps(
        f"{QUEEN}; lift d3, +200 place g6, +60 lift g6, +60 lift h7, +40 place h7,"
        " +3000 lift g8, +300 place f6",
        gap_ms=0,
    )
    effects = replay(body, mode=mode)
    assert moves(effects) == [*QUEEN_MOVES, "d3h7", "g8f6"]
    filled = last_time(body, "place h7")
    assert made_at(effects, "d3h7") == filled + RELAND_MS
    assert "takeback" not in kinds(effects)


@BOTH
def test_a_capture_carried_through_the_air_still_waits(mode: str) -> None:
    """The same queen capture lifted over g6 (no slide seen): a knock of h7 by the hand
    carrying the queen elsewhere looks the same, so it waits as before."""
    body = steps(
        f"{QUEEN}; lift d3, +200 lift h7, +40 place h7, +3000 lift g8, +300 place f6", gap_ms=0
    )
    effects = replay(body, mode=mode)
    assert moves(effects) == [*QUEEN_MOVES, "d3h7", "g8f6"]
    assert made_at(effects, "d3h7") - last_time(body, "place h7") > GOAL_MS


def test_the_only_move_set_back_after_a_knock_is_taken_back() -> None:
    """The cost, measured by no knock of the bench: the pawn in the hand knocks d5 and is
    set back on e4 after the capture was made. The board takes the capture back."""
    body = steps(f"{BLOCKED}; lift e4, +200 lift d5, +40 place d5, +600 place e4", gap_ms=0)
    effects = replay(body, mode="casual")
    assert moves(effects) == [*BLOCKED_MOVES, "e4d5"]
    assert [e["uci"] for e in effects if e["event"] == "takeback"] == ["e4d5"]
    assert "illegal" not in kinds(effects)


@BOTH
def test_a_slide_that_only_knocked_its_victim_is_taken_back_when_the_piece_lands(
    mode: str,
) -> None:
    """The other cost: the queen slid to g6, lifted from there, h7 knocked and back, the
    queen set down on f5 after the capture was made. The board takes it back and makes
    the move the hands made."""
    body = steps(
        f"{QUEEN}; lift d3, +200 place g6, +60 lift g6, +60 lift h7, +40 place h7, +400 place f5",
        gap_ms=0,
    )
    effects = replay(body, mode=mode)
    assert moves(effects) == [*QUEEN_MOVES, "d3h7", "d3f5"]
    assert [e["uci"] for e in effects if e["event"] == "takeback"] == ["d3h7"]
    assert "illegal" not in kinds(effects) and "violation" not in kinds(effects)
