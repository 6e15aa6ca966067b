"""A frame: what every square shows, as a frozen value.

A scene says which role each square plays; the frame adds the palette's colour and
effect. Effects are turned into concrete colours only by `Frame.at(t_ms)`, on the driver's
side of the loop, so scenes stay pure and a frame that does not change compares equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from reedboard.lights.palette import PALETTE, RGB, Look, Palette
from reedboard.lights.roles import LightEffect, Role
from reedboard.rules.squares import SQUARE_NAMES, Square

BLACK: RGB = (0, 0, 0)

# A blink is 400 ms on, 400 ms off: slow enough to read, fast enough to catch the eye.
BLINK_HALF_MS = 400
# A pulse breathes between a quarter and full strength over 1.6 s. It moves in 8 steps
# each way, so a pulsing frame changes the LEDs 10 times a second, not on every loop.
PULSE_PERIOD_MS = 1600
PULSE_STEPS = 8
PULSE_FLOOR = 0.25


@dataclass(frozen=True, slots=True)
class Cell:
    """One lit square: its role, colour and effect."""

    role: Role
    colour: RGB
    effect: LightEffect


@dataclass(frozen=True, slots=True)
class Frame:
    """Every square's cell (index = square, a1 = 0), or None where the square is dark;
    `animated`: whether the LEDs change over time while this frame stands (some cell
    blinks or pulses). The loop asks it every turn, so it is worked out once, as the
    frame is made (a new scene), not by walking the 64 cells each time."""

    cells: tuple[Cell | None, ...]
    animated: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.cells) != 64:
            raise ValueError(f"a frame has 64 squares, not {len(self.cells)}")
        moving = any(cell is not None and cell.effect != "steady" for cell in self.cells)
        object.__setattr__(self, "animated", moving)  # frozen: set once, here

    @classmethod
    def from_roles(cls, roles: Mapping[Square, Role], palette: Palette = PALETTE) -> Frame:
        cells: list[Cell | None] = [None] * 64
        lookup = _cells_for(palette)
        for sq, role in roles.items():
            cells[sq] = lookup[role]
        return cls(tuple(cells))

    def role_at(self, sq: Square) -> Role | None:
        cell = self.cells[sq]
        return None if cell is None else cell.role

    def lit_roles(self) -> dict[str, str]:
        """{square name: role} for every lit square, a1 upwards (as `--lights` prints)."""
        return {SQUARE_NAMES[sq]: cell.role for sq, cell in enumerate(self.cells) if cell}

    def at(self, t_ms: int) -> tuple[RGB, ...]:
        """The 64 squares' colours at time `t_ms`, effects applied."""
        blink_on = (t_ms // BLINK_HALF_MS) % 2 == 0
        level = pulse_level(t_ms)
        out: list[RGB] = []
        for cell in self.cells:
            if cell is None:
                out.append(BLACK)
            elif cell.effect == "steady":
                out.append(cell.colour)
            elif cell.effect == "blink":
                out.append(cell.colour if blink_on else BLACK)
            else:
                red, green, blue = cell.colour
                out.append((int(red * level), int(green * level), int(blue * level)))
        return tuple(out)


def pulse_level(t_ms: int) -> float:
    """The pulse's strength at `t_ms`: a triangle wave from PULSE_FLOOR to 1, in steps."""
    step_ms = PULSE_PERIOD_MS // (2 * PULSE_STEPS)
    step = (t_ms // step_ms) % (2 * PULSE_STEPS)
    rising = step if step < PULSE_STEPS else 2 * PULSE_STEPS - step
    return PULSE_FLOOR + (1 - PULSE_FLOOR) * rising / PULSE_STEPS


_CELL_CACHE: dict[int, tuple[Palette, dict[Role, Cell]]] = {}


def _cells_for(palette: Palette) -> dict[Role, Cell]:
    # One Cell per role, made once per palette: frames share them, so building a frame
    # costs a list of references, not 64 new objects.
    cached = _CELL_CACHE.get(id(palette))
    if cached is not None and cached[0] is palette:
        return cached[1]
    cells = {role: _cell(role, look) for role, look in palette.items()}
    _CELL_CACHE[id(palette)] = (palette, cells)
    return cells


def _cell(role: Role, look: Look) -> Cell:
    return Cell(role, look.colour, look.effect)


DARK = Frame((None,) * 64)

__all__ = ["BLACK", "DARK", "Cell", "Frame", "pulse_level"]
