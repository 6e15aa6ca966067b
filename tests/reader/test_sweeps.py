"""Pieces swept off the board after a result the board does not know (a draw agreed by
word, a flag fallen): a piece dragged to a square where its move was complete and then
off the board with the rest was never moved. A move complete earlier in an episode is
not committed once its piece has left its target, whichever hand is seen first."""

from __future__ import annotations

import pytest

from tests.reader.support import kinds, moves, replay, steps

BOTH = pytest.mark.parametrize("mode", ["casual", "strict"])
OPENING = "lift e2, place e4; lift e7, place e5"

# name -> the sweep after 1.e4 e5 (White to move)
SWEEPS = {
    # The issue's own script: bishop dragged f1-e2-d3 and off, the queen cleared 50 ms on.
    "bishop off, then the queen": "lift f1, +60 place e2, +40 lift e2, +40 place d3, "
    "+60 lift d3, +50 lift d8, +120 lift e8, +80 lift e1",
    # The other hand is seen first, while the bishop still rests on d3.
    "queen, then the bishop off": "lift f1, +60 place e2, +40 lift e2, +40 place d3, "
    "+60 lift d8, +40 lift d3, +120 lift e8, +80 lift e1",
    "queen, king, then the bishop off": "lift f1, +60 place e2, +40 lift e2, +40 place d3, "
    "+50 lift d8, +30 lift e8, +15 lift d3, +80 lift e1",
    # A queen dragged along its diagonal while Black's hand takes the king.
    "queen dragged and off": "lift d1, +50 place e2, +40 lift e2, +40 place f3, "
    "+40 lift f3, +30 lift e8, +80 lift d8",
}


@BOTH
@pytest.mark.parametrize("name", SWEEPS)
def test_a_piece_swept_off_after_its_move_was_complete_is_no_move(mode: str, name: str) -> None:
    effects = replay(steps(f"{OPENING}; {SWEEPS[name]}", gap_ms=0), mode=mode)
    assert moves(effects) == ["e2e4", "e7e5"]
    # The board says what is off, as for any board it cannot explain.
    assert kinds(effects)[-1] == "illegal"


@BOTH
def test_a_fast_reply_still_commits_the_move_before_it(mode: str) -> None:
    # The bishop stops on c4 (it could go on), Black's hand lifts the knight 60 ms later
    # and holds it a second: no mismatch meanwhile, and both moves count.
    body = f"{OPENING}; lift f1, place c4, +60 lift g8, +1000 place f6"
    effects = replay(steps(body, gap_ms=300), mode=mode)
    assert moves(effects) == ["e2e4", "e7e5", "f1c4", "g8f6"]
    assert "illegal" not in kinds(effects)
    made = {e["uci"]: e["t_ms"] for e in effects if e["event"] == "move"}
    lifted = next(e["t_ms"] for e in effects if e["event"] == "touch" and e["square"] == "g8")
    assert made["f1c4"] - lifted <= 100  # decided within SWEEP_MS of the opponent's lift


@BOTH
def test_the_swept_pieces_put_back_are_the_position_again(mode: str) -> None:
    sweep = SWEEPS["bishop off, then the queen"]
    back = "+2000 place f1, +200 place d8, +200 place e8, +200 place e1"
    effects = replay(steps(f"{OPENING}; {sweep}, {back}", gap_ms=0), mode=mode)
    # e4 and e5 still stand, so the pieces back on their squares are the position again.
    assert moves(effects) == ["e2e4", "e7e5"]
    assert kinds(effects)[-1] == "restored"


@BOTH
@pytest.mark.parametrize("pause_ms", [0, 900])
def test_the_moved_piece_taken_victim_first_is_a_reply(mode: str, pause_ms: int) -> None:
    # 1.e4 b5 2.Bc4 bxc4: Black's hand takes the bishop off c4 150 ms after it stops
    # (where it could still go on), then fetches the b5 pawn: not a sweep, since the pawn
    # set down on c4 completes Black's reply. No mismatch while the pawn is fetched.
    body = f"lift e2, place e4; lift b7, place b5; lift f1, place c4, +150 lift c4, +{pause_ms} lift b5, +300 place c4"
    effects = replay(steps(body, gap_ms=200), mode=mode)
    assert moves(effects) == ["e2e4", "b7b5", "f1c4", "b5c4"]
    assert "illegal" not in kinds(effects)
