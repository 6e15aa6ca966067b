"""The board and its LEDs in a terminal: pieces on squares coloured as the LEDs show them.

For people without the hardware (the simulator, `reedboard run --fake`, bug reports).
Each lit square takes its LED colour as background; the effect is written beside the
piece (`*` blink, `~` pulse) because a terminal cannot be relied on to blink. Without
colour (`colour=False`) lit squares are bracketed instead, and the legend names roles.
"""

from __future__ import annotations

from reedboard.lights.frame import Frame
from reedboard.lights.palette import RGB, luminance
from reedboard.lights.placement import pieces_of_fen
from reedboard.rules.squares import parse_square

LIGHT_SQUARE: RGB = (240, 217, 181)
DARK_SQUARE: RGB = (181, 136, 99)
EFFECT_MARKS = {"steady": " ", "blink": "*", "pulse": "~"}
RESET = "\x1b[0m"


def render_terminal(fen: str, frame: Frame, *, colour: bool = True, legend: bool = True) -> str:
    """The board (rank 8 at the top, White's view) as text, ending in a newline."""
    pieces = pieces_of_fen(fen)
    lines = []
    for rank in range(7, -1, -1):
        row = [f"{rank + 1} "]
        for file in range(8):
            sq = rank * 8 + file
            letter = pieces.get(sq, "." if colour else " ")
            cell = frame.cells[sq]
            if colour:
                back = cell.colour if cell else (LIGHT_SQUARE if (rank + file) % 2 else DARK_SQUARE)
                mark = EFFECT_MARKS[cell.effect] if cell else " "
                row.append(_paint(f"{mark}{letter} ", back))
            elif cell:
                row.append(f"[{letter}]")
            else:
                row.append(f" {letter} ")
        lines.append("".join(row))
    lines.append("   " + "  ".join("abcdefgh"))
    if legend:
        lit = frame.lit_roles()
        roles: dict[str, list[str]] = {}
        for name, role in lit.items():
            roles.setdefault(role, []).append(name)
        for role, names in roles.items():
            cell = frame.cells[parse_square(names[0])]
            effect = cell.effect if cell else "steady"
            swatch = _paint("  ", cell.colour) + " " if colour and cell else ""
            lines.append(f"{swatch}{role} ({effect}): {' '.join(names)}")
    return "\n".join(lines) + "\n"


def _paint(text: str, back: RGB) -> str:
    red, green, blue = back
    fore = "30" if luminance(back) > 0.25 else "97"
    return f"\x1b[48;2;{red};{green};{blue}m\x1b[{fore}m{text}{RESET}"


__all__ = ["render_terminal"]
