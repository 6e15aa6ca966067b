"""Tournament mode's lights: no assistance, what the game needs kept."""

from __future__ import annotations

from reedboard.lights.fair_play import fair_play
from reedboard.lights.scenes import scene_for
from reedboard.reader.view import BoardView, Targets
from reedboard.rules.fen import STARTING_FEN

from tests.lights.support import bits

E2 = 12


def test_a_lifted_piece_shows_no_targets_and_a_check_no_light() -> None:
    helped = BoardView(
        STARTING_FEN,
        True,
        bits("a1"),
        lifted=bits("e2"),
        targets=(Targets(E2, quiet=bits("e3", "e4")),),
        check=4,
        hint=(6, 21),
        marked=bits("d4"),
    )
    fair = fair_play(helped)
    assert fair.targets == () and fair.check is None and fair.hint is None
    assert fair.marked == 0
    lit = scene_for(fair).lit_roles()
    assert not set(lit) & {"e3", "e4", "e1", "g1", "f3", "d4"}
    assert {"e3", "e4", "f3"} <= set(scene_for(helped).lit_roles())


def test_a_mismatch_and_the_result_stay() -> None:
    view = BoardView(STARTING_FEN, True, 0, missing=bits("e2"), extra=bits("e5"), result="1-0")
    fair = fair_play(view)
    assert (fair.missing, fair.extra, fair.result) == (view.missing, view.extra, "1-0")
    assert scene_for(fair).lit_roles() == scene_for(view).lit_roles()
