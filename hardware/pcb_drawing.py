"""The interface board as a picture for the guide: copper, pads, outlines and references.

Seen from above (the parts' side) as the Gerber files have it; the wire headers' pins are
named with the lines they take. Drawn in tenths of a millimetre, from the same routed board
the fabrication files are written from.
"""

from __future__ import annotations

from pcb_gerber import Board
from pcb_route import BOTTOM, TOP, TRACK, VIA_DIAMETER, VIA_DRILL

SCALE = 100  # micrometres per drawing unit
MARGIN = 40  # units around the board
CAPTION = 50  # units below it
COLOURS = {TOP: "#e08a2c", BOTTOM: "#3f7fd9"}
# The wires' names beside the headers' pins, as section 6 of the guide lists them.
PIN_NAMES = {
    "J5": [f"R{n}" for n in range(1, 9)],
    "J6": [f"C{n}" for n in range(1, 9)],
    "J7": ["DIN", "GND"],
    "J2": ["+5V", "GND"],
    "J3": ["GND", "", "", "TX", "RX", ""],
    "J4": ["W", "B", "GND"],
}


def _u(um: int) -> str:
    return f"{um / SCALE:g}"


def interface_board_svg(board: Board) -> str:
    w, h = board.outline.width, board.outline.height

    def x(um: int) -> str:
        return _u(um + MARGIN * SCALE)

    def y(um: int) -> str:  # the picture's y runs down
        return _u(h - um + MARGIN * SCALE)

    width, height = w // SCALE + 2 * MARGIN, h // SCALE + 2 * MARGIN + CAPTION
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<rect x="{x(0)}" y="{y(h)}" width="{_u(w)}" height="{_u(h)}" fill="#20603c"/>',
    ]
    for hx, hy in board.outline.mounting_holes():
        out.append(f'<circle cx="{x(hx)}" cy="{y(hy)}" r="13.5" fill="#ffffff"/>')
    for layer in (BOTTOM, TOP):
        for net in board.nets:
            for s in net.segments:
                if s.layer == layer:
                    out.append(
                        f'<line x1="{x(s.x1)}" y1="{y(s.y1)}" x2="{x(s.x2)}" y2="{y(s.y2)}" '
                        f'stroke="{COLOURS[layer]}" stroke-width="{_u(TRACK)}" '
                        'stroke-linecap="round"/>'
                    )
    for net in board.nets:
        for vx, vy in net.vias:
            out.append(f'<circle cx="{x(vx)}" cy="{y(vy)}" r="{_u(VIA_DIAMETER // 2)}" '
                       f'fill="#c9a23a"/><circle cx="{x(vx)}" cy="{y(vy)}" '
                       f'r="{_u(VIA_DRILL // 2)}" fill="#20603c"/>')  # fmt: skip
    for pad in board.pads:
        r = pad.diameter // 2
        if pad.square:
            out.append(f'<rect x="{x(pad.x - r)}" y="{y(pad.y + r)}" width="{_u(2 * r)}" '
                       f'height="{_u(2 * r)}" fill="#c9a23a"/>')  # fmt: skip
        else:
            out.append(f'<circle cx="{x(pad.x)}" cy="{y(pad.y)}" r="{_u(r)}" fill="#c9a23a"/>')
        out.append(f'<circle cx="{x(pad.x)}" cy="{y(pad.y)}" r="{_u(pad.drill // 2)}" '
                   'fill="#ffffff"/>')  # fmt: skip
    for fp in board.footprints:
        x0, y0, x1, y1 = fp.shape.outline
        out.append(f'<rect x="{x(fp.x + x0)}" y="{y(fp.y + y1)}" width="{_u(x1 - x0)}" '
                   f'height="{_u(y1 - y0)}" fill="none" stroke="#ffffff" stroke-width="1.5"/>')  # fmt: skip
        lx, ly = fp.label_at()
        out.append(f'<text x="{x(lx)}" y="{y(ly)}" font-size="16" fill="#ffffff">{fp.ref}</text>')
        for k, name in enumerate(PIN_NAMES.get(fp.ref, [])):
            px, py = fp.x + fp.shape.positions[k][0], fp.y + fp.shape.positions[k][1]
            out.append(f'<text x="{x(px)}" y="{y(py - 2100)}" font-size="10" fill="#ffffff" '
                       f'text-anchor="middle">{name}</text>')  # fmt: skip
    caption_y = h // SCALE + 2 * MARGIN + 30
    out.append(
        f'<text x="{MARGIN}" y="{caption_y}" font-size="16" fill="#000000">seen from above: '
        "top copper orange, bottom blue; pin 1 on the square pad</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = ["PIN_NAMES", "interface_board_svg"]
