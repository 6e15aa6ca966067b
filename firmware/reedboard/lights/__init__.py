"""What the board shows: scenes (arbiter view -> frame), the palette, layouts (frame ->
pixels in chain order), and renderers for people without the hardware.

Pure except `output`, which writes to an `LedStrip` port given to it.
"""

from __future__ import annotations

from reedboard.lights.frame import DARK, Cell, Frame
from reedboard.lights.palette import PALETTE, Look
from reedboard.lights.roles import ROLES, LightEffect, Role
from reedboard.lights.scenes import scene_for, scene_roles
from reedboard.lights.strip_layout import StripLayout, chain_cells

__all__ = [
    "DARK",
    "PALETTE",
    "ROLES",
    "Cell",
    "Frame",
    "LightEffect",
    "Look",
    "Role",
    "StripLayout",
    "chain_cells",
    "scene_for",
    "scene_roles",
]
