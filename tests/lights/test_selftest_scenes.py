"""Self-test scenes: the sweep and the faulty squares."""

from __future__ import annotations

from reedboard.config import MatrixConfig
from reedboard.lights.selftest import SWEEP_STEPS, fault_scene, faulty_squares, sweep_scene
from reedboard.rules.squares import BB_RANKS
from reedboard.sensing.selftest import self_test
from reedboard.wiring import matrix_wiring

from tests.lights.support import bits


def test_the_sweep_lights_every_square_on_a_rank_then_a_file() -> None:
    seen: set[str] = set()
    for step in range(SWEEP_STEPS):
        lit = sweep_scene(step).lit_roles()
        assert len(lit) == 8 and set(lit.values()) == {"sweep"}
        seen |= set(lit)
    assert len(seen) == 64
    assert set(sweep_scene(0).lit_roles()) == {f + "1" for f in "abcdefgh"}
    assert set(sweep_scene(8).lit_roles()) == {"a" + r for r in "12345678"}


def test_faults_are_marked_over_the_sweep_and_alone() -> None:
    lit = sweep_scene(0, faults=bits("c1", "e5")).lit_roles()
    assert lit["c1"] == lit["e5"] == "fault"
    assert lit["a1"] == "sweep"
    assert fault_scene(bits("d4")).lit_roles() == {"d4": "fault"}


def test_faulty_squares_come_from_the_switch_self_test() -> None:
    start = BB_RANKS[0] | BB_RANKS[1] | BB_RANKS[6] | BB_RANKS[7]
    report = self_test(start & ~bits("c2") | bits("e5"), start, matrix_wiring(MatrixConfig()))
    assert faulty_squares(report) == bits("c2", "e5")
