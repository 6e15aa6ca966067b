"""A push-capture: the capturer shoves the victim off its square, which never reads empty.
The board shows only the capturer's square emptied, as a piece in the hand; the opponent
lifting a piece a while after says the hand was done."""

from __future__ import annotations

import pytest
from reedboard.events import MoveMade
from reedboard.lights.scenes import scene_roles
from reedboard.replay.runner import Replay
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square

from tests.reader.support import kinds, moves, replay

BOTH = pytest.mark.parametrize("mode", ["casual", "strict"])
OPENING = "1000 lift e2\n1400 place e4\n2000 lift d7\n2400 place d5\n"


@BOTH
def test_the_capture_alone_explaining_the_sensors_is_made_at_the_opponents_lift(
    mode: str,
) -> None:
    # exd5 by a push (d5 never empties), then Black's queen retakes 2 s later.
    body = OPENING + "3000 lift e4\n5000 lift d8\n5300 lift d5\n5600 place d5\n"
    effects = replay(body, header="@start standard", mode=mode)
    assert moves(effects) == ["e2e4", "d7d5", "e4d5", "d8d5"]
    assert "illegal" not in kinds(effects) and "violation" not in kinds(effects)


@BOTH
def test_two_captures_that_would_explain_it_are_not_guessed(mode: str) -> None:
    # 1.e4 d5 2.Nc3 f5: the e4 pawn pushed onto d5 or f5 leaves the same sensors.
    body = (
        OPENING
        + "3000 lift b1\n3400 place c3\n4000 lift f7\n4400 place f5\n"
        + "5000 lift e4\n7000 lift g8\n"
    )
    effects = replay(body, header="@start standard", mode=mode)
    assert moves(effects) == ["e2e4", "d7d5", "b1c3", "f7f5"]


def _replayed(body: str, mode: str, until_ms: int) -> Replay:
    run = Replay(Game(), mode="strict" if mode == "strict" else "casual")
    for line in body.splitlines():
        t, action, square = line.split()
        run.sensor(parse_square(square), action == "place", int(t))
    run.advance(until_ms)
    return run


def _squares(*names: str) -> int:
    return sum(1 << parse_square(name) for name in names)


@BOTH
def test_two_candidate_captures_are_both_lit_and_the_capturer_touched_tells(mode: str) -> None:
    both = (
        OPENING
        + "3000 lift b1\n3400 place c3\n4000 lift f7\n4400 place f5\n"
        + "5000 lift e4\n7000 lift g8\n"
    )
    run = _replayed(both, mode, 9000)
    view = run.arbiter.view()
    # The hand was done: both captures the sensors allow are shown, none is made.
    assert view.candidates == _squares("e4", "d5", "f5")
    roles = scene_roles(view)
    assert {roles.get(parse_square(sq)) for sq in ("e4", "d5", "f5")} == {"pending"}
    assert [e.kind for e in run.effects if e.kind not in ("touch",)] == ["move"] * 4
    # Black puts the knight back; White lifts the pawn on d5 and sets it down again:
    # that pawn is the capturer, and exd5 is made.
    run = _replayed(both + "9000 place g8\n10000 lift d5\n10200 place d5\n", mode, 14000)
    made = [e for e in run.effects if isinstance(e, MoveMade)]
    assert [m.uci for m in made] == ["e2e4", "d7d5", "b1c3", "f7f5", "e4d5"]
    assert run.arbiter.view().candidates == 0
