"""The board and its LEDs as SVG: for the documentation, the simulator and bug reports.

A lit square gets a frame and a wash of its LED colour. The effect shows twice: the
frame is solid (steady), dashed (blink) or dotted (pulse), so a printed picture or a PNG
tells roles apart too; and SVG animations blink and pulse it in a browser. A legend
under the board names the roles shown.
"""

from __future__ import annotations

from html import escape

from reedboard.lights.frame import BLINK_HALF_MS, PULSE_FLOOR, PULSE_PERIOD_MS, Frame
from reedboard.lights.palette import RGB
from reedboard.lights.placement import pieces_of_fen
from reedboard.rules.squares import parse_square

SQUARE = 60
MARGIN = 24
LIGHT_SQUARE = "#f0d9b5"
DARK_SQUARE = "#b58863"
# The filled glyphs for both sides, painted white or black, read best at any size.
GLYPHS = {"k": "\u265a", "q": "\u265b", "r": "\u265c", "b": "\u265d", "n": "\u265e", "p": "\u265f"}
DASHES = {"steady": "", "blink": ' stroke-dasharray="12 6"', "pulse": ' stroke-dasharray="2 5"'}
LEGEND_ROW = 22


def render_svg(
    fen: str, frame: Frame, *, title: str = "", animate: bool = True, flipped: bool = False
) -> str:
    """The board with its pieces and lit squares, as an SVG document: White's view, or
    Black's (`flipped`: h8 in the bottom left corner)."""
    lit = frame.lit_roles()
    roles = list(dict.fromkeys(lit.values()))
    board = 8 * SQUARE
    width = board + 2 * MARGIN
    top = MARGIN + (28 if title else 0)
    height = top + board + MARGIN + LEGEND_ROW * len(roles) + (8 if roles else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#fafafa"/>',
    ]
    if title:
        out.append(f'<text x="{MARGIN}" y="{MARGIN + 10}" font-size="18">{escape(title)}</text>')
    pieces = pieces_of_fen(fen)
    for sq in range(64):
        file, rank = sq % 8, sq // 8
        column, row = (7 - file, rank) if flipped else (file, 7 - rank)
        x, y = MARGIN + column * SQUARE, top + row * SQUARE
        shade = LIGHT_SQUARE if (file + rank) % 2 else DARK_SQUARE
        out.append(f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{shade}"/>')
        cell = frame.cells[sq]
        if cell is not None:
            out.append(_light(x, y, cell.colour, cell.effect, animate))
        letter = pieces.get(sq)
        if letter is not None:
            # White pieces: the filled glyph painted white inside a black outline; black
            # pieces: the same glyph in black.
            paint = (
                'fill="#ffffff" stroke="#000000" stroke-width="1.5"'
                if letter.isupper()
                else 'fill="#000000"'
            )
            out.append(
                f'<text x="{x + SQUARE / 2}" y="{y + SQUARE * 0.8}" font-size="{SQUARE * 0.8}" '
                f'text-anchor="middle" {paint}>{GLYPHS[letter.lower()]}</text>'
            )
    files, ranks = ("hgfedcba", "87654321") if flipped else ("abcdefgh", "12345678")
    for i in range(8):
        out.append(
            f'<text x="{MARGIN + i * SQUARE + SQUARE / 2}" y="{top + board + 16}" font-size="13" '
            f'text-anchor="middle">{files[i]}</text>'
        )
        out.append(
            f'<text x="{MARGIN / 2}" y="{top + (7 - i) * SQUARE + SQUARE / 2 + 5}" '
            f'font-size="13" text-anchor="middle">{ranks[i]}</text>'
        )
    y = top + board + MARGIN + 8
    for role in roles:
        names = [name for name, r in lit.items() if r == role]
        cell = frame.cells[parse_square(names[0])]
        assert cell is not None
        out.append(_light(MARGIN, y, cell.colour, cell.effect, animate, size=16))
        out.append(
            f'<text x="{MARGIN + 24}" y="{y + 13}" font-size="13">'
            f"{escape(role)} ({cell.effect}): {' '.join(names)}</text>"
        )
        y += LEGEND_ROW
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _light(x: int, y: int, colour: RGB, effect: str, animate: bool, size: int = SQUARE) -> str:
    hex_colour = "#{:02x}{:02x}{:02x}".format(*colour)
    inset = max(2, size // 15)
    side = size - 2 * inset
    width = max(2, size // 10)
    animation = ""
    if animate and effect == "blink":
        animation = (
            f'<animate attributeName="opacity" values="1;0.15" calcMode="discrete" '
            f'dur="{2 * BLINK_HALF_MS}ms" repeatCount="indefinite"/>'
        )
    elif animate and effect == "pulse":
        animation = (
            f'<animate attributeName="opacity" values="{PULSE_FLOOR};1;{PULSE_FLOOR}" '
            f'dur="{PULSE_PERIOD_MS}ms" repeatCount="indefinite"/>'
        )
    return (
        f'<g><rect x="{x + inset}" y="{y + inset}" width="{side}" height="{side}" rx="{inset}" '
        f'fill="{hex_colour}" fill-opacity="0.45" stroke="{hex_colour}" '
        f'stroke-width="{width}"{DASHES[effect]}/>{animation}</g>'
    )


__all__ = ["render_svg"]
