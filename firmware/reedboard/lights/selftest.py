"""Self-test scenes: a sweep that lights every LED in turn, and the faulty squares.

The sweep walks the ranks a..h then the files 1..8, one line per step, so a maker sees
at a glance an LED that stays dark and a layout set up in the wrong orientation (the line
runs the wrong way). Faults come from the switch self-test (`sensing.selftest`).
"""

from __future__ import annotations

from reedboard.lights.frame import Frame
from reedboard.lights.palette import PALETTE, Palette
from reedboard.lights.roles import Role
from reedboard.rules.squares import BB_FILES, BB_RANKS, Bitboard, Square, squares_of
from reedboard.sensing.selftest import SelfTestReport

SWEEP_STEPS = 16  # 8 ranks, then 8 files


def sweep_scene(step: int, faults: Bitboard = 0, palette: Palette = PALETTE) -> Frame:
    """Step `step` (taken modulo SWEEP_STEPS) of the sweep, faulty squares marked over it."""
    step %= SWEEP_STEPS
    line = BB_RANKS[step] if step < 8 else BB_FILES[step - 8]
    roles: dict[Square, Role] = dict.fromkeys(squares_of(line), "sweep")
    for sq in squares_of(faults):
        roles[sq] = "fault"
    return Frame.from_roles(roles, palette)


def fault_scene(faults: Bitboard, palette: Palette = PALETTE) -> Frame:
    """The faulty squares alone, for after the sweep."""
    return Frame.from_roles(dict.fromkeys(squares_of(faults), "fault"), palette)


def faulty_squares(report: SelfTestReport) -> Bitboard:
    """Every square that any fault of a self-test report names."""
    bb = 0
    for fault in report.faults:
        for sq in fault.squares:
            bb |= 1 << sq
    return bb


__all__ = ["SWEEP_STEPS", "fault_scene", "faulty_squares", "sweep_scene"]
