"""The Chess960 setup scene: the squares to fill now, to clear, and to fill again. The
guide itself (`SetupGuide`) and the gesture that asks for it are the arbiter's."""

from __future__ import annotations

from reedboard.lights.frame import Frame
from reedboard.lights.palette import PALETTE, Palette
from reedboard.lights.scenes import setup_roles
from reedboard.reader.setup import (
    GESTURE_HOLD_MS,
    GESTURE_OCCUPANCY,
    PAWN_SQUARES,
    SETUP_ORDER,
    START_OCCUPANCY,
    GestureWatch,
    SetupGuide,
    SetupProgress,
    draw_chess960,
    is_chess960_gesture,
)


def setup_scene(progress: SetupProgress, palette: Palette = PALETTE) -> Frame:
    """Squares to fill now, squares to clear, squares to fill again."""
    return Frame.from_roles(setup_roles(progress), palette)


__all__ = [
    "GESTURE_HOLD_MS",
    "GESTURE_OCCUPANCY",
    "PAWN_SQUARES",
    "SETUP_ORDER",
    "START_OCCUPANCY",
    "GestureWatch",
    "SetupGuide",
    "SetupProgress",
    "draw_chess960",
    "is_chess960_gesture",
    "setup_scene",
]
