"""Drawings of the physical board from `board_geometry`: DXF for a CNC router or laser
cutter (ezdxf), SVG for the README (written by hand: plain, small, byte for byte the same
on every run).

- `top-plate.dxf`: outline, the squares (engrave), one light-pipe hole per square (drill);
- `carrier-plate.dxf`: outline, reed pockets, LED pockets, diode holes and the wire
  grooves, one layer per operation and face (the layer name says which);
- `base-plate.dxf`: outline, the Pi's bay, the connector cut-outs in the frame;
- `board-plan.svg`: all of it in one plan view, LEDs numbered in chain order;
- `board-section.svg`: a cut through one square, the light path and the stack.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from board_geometry import (
    SOCKET_HOLES,
    BoardGeometry,
    BoardParameters,
    Rect,
    build_geometry,
    reed_label,
)
from ezdxf import units
from ezdxf._options import options as dxf_options  # `ezdxf.options`, which strict mypy cannot see
from ezdxf.document import Drawing
from ezdxf.filemanagement import new as new_dxf
from pcb_layout import MOUNTING_HOLE_DRILL, outline_of
from reedboard.rules.squares import square_file, square_name, square_rank
from svg_canvas import Svg, svg_number

# The plywood's two shades: light and dark squares.
_LIGHT, _DARK = "#f0d9b5", "#c8a07a"


STANDOFF_LAYER = "DRILL_INTERFACE_STANDOFFS_2.7MM_THROUGH"
PLAN_LABEL_SIZE = 5.5  # user units (mm): about 10 px where the guide shows the plan


def plan_svg(g: BoardGeometry) -> str:
    """The plan view: squares, reeds (glass, orientation, dead zone), lights in chain
    order, grooves, the Pi and the connectors."""
    p = g.parameters
    b = p.border_mm
    legend = 70.0
    left, above = 25.0, 22.0  # room for the dimension lines
    svg = Svg(
        -b - left, -b - 5 - legend, p.outer_mm + 5 + left, p.outer_mm + 5 + above + legend, 2.0
    )
    svg.rect(-b, -b, p.outer_mm, p.outer_mm, "fill:#e8d3b0;stroke:black;stroke-width:0.6")
    s = p.square_mm
    for sq in range(64):
        f, r = square_file(sq), square_rank(sq)
        shade = _DARK if (f + r) % 2 == 0 else _LIGHT
        svg.rect(f * s, r * s, s, s, f"fill:{shade};stroke:none")
        svg.text((f * s + 1.5, (r + 1) * s - 5), square_name(sq), 4.5, ' fill="#5a4630"')
    svg.rect(0, 0, p.playing_mm, p.playing_mm, "fill:none;stroke:black;stroke-width:0.5")
    for name, x, y in [(c, (i + 0.5) * s, -b / 2 + 4) for i, c in enumerate("abcdefgh")] + [
        (str(i + 1), -b / 2, (i + 0.5) * s) for i in range(8)
    ]:
        svg.text((x - 2, y), name, 7, ' fill="#3a2a1a"')
    for channel in g.channels:
        if channel.name == "LED chain":
            continue
        colour = "#2f6fd0" if channel.face == "top" else "#2a9d55"
        dash = "" if channel.face == "top" else ";stroke-dasharray:4 2"
        svg.polyline(
            channel.points,
            f"stroke:{colour};stroke-width:1.2;stroke-opacity:0.8{dash}",
            f' class="groove" data-line="{channel.name}"',
        )
    # The largest base where the middle of a1 holds it, and the zone a piece stands in.
    a1 = g.square_centre(0)
    svg.circle(
        a1, p.largest_base_mm / 2, "fill:none;stroke:#555;stroke-width:0.4;stroke-dasharray:2 1.5"
    )
    for reed in g.reeds:
        cx, cy = g.square_centre(reed.square)
        svg.circle(
            (cx, cy), p.play_mm, "fill:#ffffff;fill-opacity:0.35;stroke:#777;stroke-width:0.3"
        )
        svg.circle((cx, cy), p.magnet.diameter_mm / 2, "fill:#888;stroke:none")
        half_d = p.reed.glass_diameter_mm / 2
        svg.line((reed.start[0] - 5, cy), (reed.end[0] + 3, cy), "stroke:#555;stroke-width:0.5")
        svg.rect(
            reed.start[0], cy - half_d, p.reed.glass_mm, 2 * half_d,
            "fill:#bfe3f2;stroke:#1d5f7a;stroke-width:0.4",
            f' class="reed" data-square="{square_name(reed.square)}" '
            f'data-row="ROW{reed.row + 1}" data-column="COL{reed.column + 1}" '
            f'data-x="{svg_number(reed.centre[0])}" data-y="{svg_number(reed.centre[1])}"',
        )  # fmt: skip
        svg.line(
            (reed.centre[0], cy - 4), (reed.centre[0], cy + 4),
            "stroke:#d62728;stroke-width:0.5;stroke-dasharray:1 0.8",
        )  # fmt: skip
        # Its matrix lines, short and large enough to read at the guide's width, left of
        # the piece's play circle and above the glass.
        row_col = reed_label(reed).split(" ", 1)[1].replace("ROW", "R").replace("COL", "C")
        svg.text((cx - p.square_mm / 2 + 1, cy + 2.5), row_col, PLAN_LABEL_SIZE, ' fill="#1d5f7a"')
    chain = next(c for c in g.channels if c.name == "LED chain")
    svg.polyline(
        chain.points,
        "stroke:#d0306a;stroke-width:0.7;stroke-opacity:0.7",
        ' marker-mid="url(#arrow)" class="chain"',
    )
    for led in g.leds:
        svg.circle(
            led.centre, p.light_pipe_mm / 2, "fill:#fff7b0;stroke:#b08000;stroke-width:0.5",
            f' class="led" data-chain="{led.chain}" data-square="{square_name(led.square)}" '
            f'data-x="{svg_number(led.centre[0])}" data-y="{svg_number(led.centre[1])}"',
        )  # fmt: skip
        svg.text((led.centre[0] - 8, led.centre[1] + 4), str(led.chain), 3.6, ' fill="#7a2040"')
    svg.rect(g.pi.x, g.pi.y, g.pi.width, g.pi.height,
             "fill:#7fbf7f;fill-opacity:0.35;stroke:#1e6b1e;stroke-width:0.6;stroke-dasharray:3 2")  # fmt: skip
    svg.text((g.pi.x + 3, g.pi.y + g.pi.height - 7), "Raspberry Pi (in the base)", 4.5)
    for connector in (*g.connectors, g.interface):
        _connector(svg, connector)
    _plan_dimensions(svg, p)
    _plan_legend(svg, g)
    return svg.text_svg()


def _connector(svg: Svg, c: Rect) -> None:
    if c.width > 20:  # a board in the base, under the carrier
        svg.rect(c.x, c.y, c.width, c.height,
                 "fill:#9db4d6;fill-opacity:0.35;stroke:#2b4b7a;stroke-width:0.6;stroke-dasharray:3 2")  # fmt: skip
        svg.text((c.x + 3, c.y + c.height - 7), c.name.split(":")[0], 4.5)
        return
    svg.rect(c.x, c.y, c.width, c.height, "fill:#444;stroke:none")
    svg.text((c.x - 2, c.y + c.height / 2 - 1.5), c.name.split(":")[0], 4.5, ' text-anchor="end"')


def _plan_dimensions(svg: Svg, p: BoardParameters) -> None:
    """The sizes a maker marks out: the board, the frame, the playing area, one square."""
    b, play, size = p.border_mm, p.playing_mm, PLAN_LABEL_SIZE
    top = play + b
    svg.dimension((0, play), (p.square_mm, play), play + 8, size, what="square")
    for lo, hi, what in ((-b, 0.0, "frame"), (0.0, play, "playing area"), (play, top, "frame")):
        svg.dimension((lo, top), (hi, top), top - 13, size, what=what)
    svg.dimension((-b, top), (top, top), top + 12, size, what="board")
    svg.dimension((-b, -b), (-b, top), -b - 10, size, "end", what="board")


def _plan_legend(svg: Svg, g: BoardGeometry) -> None:
    p = g.parameters
    y = -p.border_mm - 12
    x = -p.border_mm
    lines = [
        f"{p.square_mm:g} mm squares, {p.outer_mm:g} mm overall; top {p.top_mm:g} mm "
        f"{p.top_material}, carrier {p.carrier_mm:g} mm plywood. Seen from above, White at "
        "the bottom.",
        f"Blue: reed glass {p.reed.glass_mm:g} mm along the rank, its middle {-p.reed_x_mm:g} mm "
        "towards the a-file from the square's centre; red dashes: the dead zone across it.",
        f"Grey disc: the magnet ({p.magnet.diameter_mm:g} mm) where a piece stands, white: "
        f"{p.play_mm:g} mm of play around it; dashed circle: a {p.largest_base_mm:g} mm base.",
        f"Yellow: {p.light_pipe_mm:g} mm light pipe over each LED, numbered in chain order "
        "(serpentine from a1 along the ranks); pink arrows: the chain's wiring.",
        "Grooves: blue, row wires (top face of the carrier); green dashes, column wires "
        "and the LED chain (bottom face).",
        "In the base: the Pi and the interface board (J1, the Pi's ribbon; U1); in the frame: "
        "the LED supply's jack and fuse, the Pi's USB-C, the PC's cable. Dimensions in mm.",
    ]
    for i, words in enumerate(lines):
        svg.text((x, y - i * 8.5), words, 5.2)


def section_svg(g: BoardGeometry) -> str:
    """A cut along the rank through one square: piece, top, light pipe, LED, reed, carrier,
    base; the heights from the parameters, to scale (x3)."""
    p = g.parameters
    s = p.square_mm
    mag, reed = p.magnet, p.reed
    base_depth = p.base_depth_mm
    bottom = -(p.carrier_mm + base_depth + p.base_panel_mm)
    height = 50.0 - bottom
    svg = Svg(-s / 2 - 62, bottom - 12, s + 97, height + 12, 3.0)
    top0, top1 = 0.0, p.top_mm
    carrier0 = -p.carrier_mm
    # Layers.
    svg.rect(-s / 2 - 15, top0, s + 30, p.top_mm, "fill:#e2c49a;stroke:#6b4f2a;stroke-width:0.3")
    svg.rect(
        -s / 2 - 15, carrier0, s + 30, p.carrier_mm, "fill:#d2b48c;stroke:#6b4f2a;stroke-width:0.3"
    )
    svg.rect(
        -s / 2 - 15, bottom, s + 30, p.base_panel_mm, "fill:#d2b48c;stroke:#6b4f2a;stroke-width:0.3"
    )
    # The square's edge on the a-file side.
    svg.line((-s / 2, top1), (-s / 2, top1 + 3), "stroke:black;stroke-width:0.3")
    # The piece: base with the magnet in a recess, skin under it.
    base_r = p.largest_base_mm / 2
    svg.polyline(
        [(-base_r, top1), (-base_r + 3, top1 + 14), (-8, top1 + 22), (-6, 48), (6, 48),
         (8, top1 + 22), (base_r - 3, top1 + 14), (base_r, top1), (-base_r, top1)],
        "stroke:#333;stroke-width:0.4;fill:#f4f4f4",
    )  # fmt: skip
    mag_y = top1 + p.base_skin_mm
    svg.rect(
        -mag.diameter_mm / 2,
        mag_y,
        mag.diameter_mm,
        mag.thickness_mm,
        "fill:#777;stroke:black;stroke-width:0.2",
    )
    svg.text((-mag.diameter_mm / 2, mag_y + mag.thickness_mm / 2 - 1), "N", 2.5, ' fill="white"')
    # Reed pocket in the carrier's top face, the glass in it, its axis under the top.
    r = reed.glass_diameter_mm / 2
    x0 = p.reed_x_mm - reed.glass_mm / 2
    svg.rect(
        x0 - 4,
        -2 * r - 0.5,
        reed.glass_mm + 8,
        2 * r + 0.5,
        "fill:white;stroke:#6b4f2a;stroke-width:0.2",
    )
    svg.rect(x0, -2 * r, reed.glass_mm, 2 * r, "fill:#bfe3f2;stroke:#1d5f7a;stroke-width:0.3")
    svg.line((x0 - 4, -r), (x0 + reed.glass_mm + 4, -r), "stroke:#555;stroke-width:0.3")
    # Diode down to the column groove on the bottom face.
    dx = x0 + reed.glass_mm + 4
    svg.line((dx, -r), (dx, carrier0 + 1), "stroke:#555;stroke-width:0.3")
    svg.rect(dx - 0.9, carrier0 + 2.5, 1.8, 3.5, "fill:#e0703a;stroke:black;stroke-width:0.15")
    # Light pipe through the top, LED pocket under it: drawn at their distance from the
    # centre, which lies along the square's diagonal, not the rank.
    lx = (s / 2 - p.led_offset_mm) * 2**0.5
    svg.rect(
        lx - p.light_pipe_mm / 2,
        top0,
        p.light_pipe_mm,
        p.top_mm,
        "fill:#eefbff;stroke:#3a8fb7;stroke-width:0.3",
    )
    svg.rect(
        lx - p.led_pixel_mm / 2,
        carrier0,
        p.led_pixel_mm,
        p.carrier_mm,
        "fill:white;stroke:#6b4f2a;stroke-width:0.2",
    )
    svg.rect(lx - p.led_pixel_mm / 2, -1.6, p.led_pixel_mm, 1.6, "fill:#2a7a3a;stroke:none")
    svg.rect(lx - 2.5, -1.6 + 1.6 - 1.6, 5, 1.6, "fill:#fff7b0;stroke:#b08000;stroke-width:0.2")
    for dy in (3.0, 6.0, 9.0):
        svg.line((lx, top1), (lx + (dy - 6) * 0.6, top1 + dy), "stroke:#e6b800;stroke-width:0.4")
    left = -s / 2 - 61
    labels = [
        ((left, top1 - 2.5), f"top {p.top_mm:g} mm {p.top_material}"),
        ((left, carrier0 + p.carrier_mm / 2 - 1), f"carrier {p.carrier_mm:g} mm"),
        ((left, bottom + 0.5), "base bottom panel"),
        ((left, carrier0 - base_depth / 2), f"base: {base_depth:g} mm for Pi and wiring"),
        ((-30, 42), "piece"),
        ((left, mag_y + 12), f"magnet {mag.diameter_mm:g} x {mag.thickness_mm:g} mm {mag.grade}, N down,"),
        ((left, mag_y + 8.5), f"{p.base_skin_mm:g} mm skin under it"),
        ((left, carrier0 - 5), f"reed {reed.glass_mm:g} mm, axis {p.top_mm + r:g} mm under the surface"),
        ((dx - 6, carrier0 - 9), "diode down to the column groove"),
        ((lx - 4, top1 + 14), f"light pipe {p.light_pipe_mm:g} mm,"),
        ((lx - 4, top1 + 10.5), f"{lx:.1f} mm from the centre"),
        ((lx - 4, carrier0 - 5), "LED pixel"),
    ]  # fmt: skip
    for at, words in labels:
        svg.text(at, words, 2.6)
    svg.line(
        (left + 28, mag_y + 9.5), (-mag.diameter_mm / 2, mag_y + 1), "stroke:#555;stroke-width:0.2"
    )
    svg.line((left + 63, carrier0 - 4), (x0 + 2, -r), "stroke:#555;stroke-width:0.2")
    _section_dimensions(svg, p, lx)
    svg.text((left, bottom - 5), f"Cut along the rank through one square (x{svg.scale:g}), "
             "dimensions in mm;", 3.0)  # fmt: skip
    svg.text((left, bottom - 9), f"magnet centre {p.reed_model().height_mm:g} mm above the "
             "reed's axis", 3.0)  # fmt: skip
    return svg.text_svg()


def _section_dimensions(svg: Svg, p: BoardParameters, light_x: float) -> None:
    """The stack's thicknesses down the right, the reed pocket's depth, and where the reed
    and the light pipe sit from the square's centre."""
    size = 2.6
    right = p.square_mm / 2 + 22
    base0 = -p.carrier_mm - p.base_depth_mm
    levels = [(p.top_mm, "top"), (0.0, "carrier"), (-p.carrier_mm, "base"),
              (base0, "bottom panel"), (base0 - p.base_panel_mm, "")]  # fmt: skip
    for (high, what), (low, _) in itertools.pairwise(levels):
        svg.dimension((right - 7, high), (right - 7, low), right, size, "start", what=what)
    pocket_x = p.reed_x_mm - p.reed.glass_mm / 2 - 4
    pocket_depth = p.reed.glass_diameter_mm + 0.5
    svg.dimension((pocket_x, 0), (pocket_x, -pocket_depth), pocket_x - 2, size, "end",
                  what="reed pocket depth")  # fmt: skip
    axis = -p.reed.glass_diameter_mm / 2
    svg.line((0, base0 + 6), (0, 50), "stroke:#203a80;stroke-width:0.15;stroke-dasharray:3 1 0.6 1")
    svg.dimension((p.reed_x_mm, axis), (0, axis), -25, size, "end", what="reed from centre")
    svg.dimension((0, 0), (light_x, 0), -31, size, what="light pipe from centre")


@contextmanager
def _fixed_metadata() -> Iterator[None]:
    """Fixed dates, GUIDs and ezdxf stamps, so a file only changes when the board does."""
    old = dxf_options.write_fixed_meta_data_for_testing
    dxf_options.write_fixed_meta_data_for_testing = True
    try:
        yield
    finally:
        dxf_options.write_fixed_meta_data_for_testing = old


def _dxf_doc() -> Drawing:
    with _fixed_metadata():
        doc = new_dxf("R2010", setup=False)
    doc.units = units.MM
    return doc


def _dxf_text(doc: Drawing) -> str:
    # ezdxf collects the CLASS entries from a set: put them in one order for every run.
    doc.classes.add_required_classes(doc.dxfversion)
    doc.classes.classes = dict(sorted(doc.classes.classes.items()))
    stream = io.StringIO()
    with _fixed_metadata():
        doc.write(stream)
    return stream.getvalue()


def _outline(msp: Any, g: BoardGeometry, layer: str = "CUT_OUTLINE") -> None:
    b, size = g.parameters.border_mm, g.parameters.outer_mm
    corners = [(-b, -b), (size - b, -b), (size - b, size - b), (-b, size - b)]
    msp.add_lwpolyline(corners, close=True, dxfattribs={"layer": layer})


def top_plate_dxf(g: BoardGeometry) -> str:
    p = g.parameters
    doc = _dxf_doc()
    for name, colour in (("CUT_OUTLINE", 7), ("ENGRAVE_SQUARES", 3), ("DRILL_LIGHT_PIPE", 1)):
        doc.layers.add(name, color=colour)
    msp = doc.modelspace()
    _outline(msp, g)
    s = p.square_mm
    for i in range(9):
        msp.add_line((i * s, 0), (i * s, 8 * s), dxfattribs={"layer": "ENGRAVE_SQUARES"})
        msp.add_line((0, i * s), (8 * s, i * s), dxfattribs={"layer": "ENGRAVE_SQUARES"})
    for led in g.leds:
        msp.add_circle(led.centre, p.light_pipe_mm / 2, dxfattribs={"layer": "DRILL_LIGHT_PIPE"})
    return _dxf_text(doc)


def carrier_layers(p: BoardParameters) -> dict[str, str]:
    """The carrier's layers, by what they hold: each name says the face and the depth (or
    THROUGH), so the cutter needs nothing else."""
    reed_depth = p.reed.glass_diameter_mm + 0.5
    g, d = f"{p.groove_mm:g}", f"{p.groove_depth_mm:g}"
    return {
        "outline": "CUT_OUTLINE",
        "reed": f"TOP_POCKET_REED_DEEP_{reed_depth:g}MM",
        "notch": f"TOP_NOTCH_REED_LEAD_2MM_WIDE_DEEP_{reed_depth:g}MM",
        "led": "THROUGH_LED_POCKET",
        "diode": "DRILL_DIODE_2MM_THROUGH",
        "down": f"DRILL_ROW_WIRES_DOWN_{p.groove_mm + 1:g}MM_THROUGH",
        "rows": f"TOP_GROOVE_ROWS_{g}MM_WIDE_DEEP_{d}MM",
        "columns": f"BOTTOM_GROOVE_COLUMNS_{g}MM_WIDE_DEEP_{d}MM",
        "chain": f"BOTTOM_GROOVE_LED_CHAIN_{g}MM_WIDE_DEEP_{d}MM",
    }


def _rect(msp: Any, r: Rect, layer: str) -> None:
    x, y, w, h = r.x, r.y, r.width, r.height
    msp.add_lwpolyline([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], close=True,
                       dxfattribs={"layer": layer})  # fmt: skip


def carrier_plate_dxf(g: BoardGeometry) -> str:
    p = g.parameters
    doc = _dxf_doc()
    layers = carrier_layers(p)
    for colour, name in enumerate(layers.values(), start=1):
        doc.layers.add(name, color=colour)
    msp = doc.modelspace()
    _outline(msp, g)
    half = p.reed.glass_diameter_mm / 2 + 0.3
    for reed in g.reeds:
        x0, x1, y = reed.start[0] - 4, reed.end[0] + 4, reed.centre[1]
        _rect(msp, Rect("", x0, y - half, x1 - x0, 2 * half), layers["reed"])
        msp.add_circle((x1, y), 1.0, dxfattribs={"layer": layers["diode"]})
    for notch in g.notches:
        _rect(msp, notch, layers["notch"])
    for led in g.leds:
        msp.add_circle(led.centre, p.led_pixel_mm / 2 + 0.3, dxfattribs={"layer": layers["led"]})
    for channel in g.channels:
        kind = (
            "rows"
            if channel.face == "top"
            else "chain"
            if channel.name == "LED chain"
            else "columns"
        )
        msp.add_lwpolyline(channel.points, dxfattribs={"layer": layers[kind]})
    for hole in g.down_holes:
        msp.add_circle(hole, (p.groove_mm + 1) / 2, dxfattribs={"layer": layers["down"]})
    return _dxf_text(doc)


def base_plate_dxf(g: BoardGeometry) -> str:
    """The bottom panel: its outline is the only cut; the Pi, the interface board and the
    frame strips' inner edge are marked (or pocketed for stand-offs), never cut out."""
    doc = _dxf_doc()
    for name, colour in (("CUT_OUTLINE", 7), ("MARK_PI_BAY", 3), ("MARK_INTERFACE_BOARD", 5),
                         (STANDOFF_LAYER, 1), ("MARK_FRAME_INSIDE", 8)):  # fmt: skip
        doc.layers.add(name, color=colour)
    msp = doc.modelspace()
    _outline(msp, g)
    _rect(msp, g.pi, "MARK_PI_BAY")
    _rect(msp, g.interface, "MARK_INTERFACE_BOARD")
    # The interface board's PCB stands on four M2.5 stand-offs, screwed through the base
    # where its mounting holes are.
    for x, y in outline_of(g).mounting_holes():
        centre = (g.interface.x + x / 1000, g.interface.y + y / 1000)
        msp.add_circle(centre, MOUNTING_HOLE_DRILL / 2000, dxfattribs={"layer": STANDOFF_LAYER})
    _rect(msp, g.inside, "MARK_FRAME_INSIDE")
    return _dxf_text(doc)


def frame_strip_dxf(g: BoardGeometry) -> str:
    """The frame's right strip (the h-file side), seen from outside: its outline and the
    sockets' holes through it, the strip's length along x from rank 1's end."""
    p = g.parameters
    doc = _dxf_doc()
    for name, colour in (("CUT_OUTLINE", 7), ("CUT_SOCKET_HOLES_THROUGH", 1)):
        doc.layers.add(name, color=colour)
    msp = doc.modelspace()
    length, height = p.outer_mm, p.base_depth_mm
    _rect(msp, Rect("strip", 0, 0, length, height), "CUT_OUTLINE")
    for socket in g.connectors:
        width, tall = SOCKET_HOLES[socket.name.split(":")[0]]
        along = socket.y + p.border_mm + socket.height / 2
        hole = Rect(socket.name, along - width / 2, height / 2 - tall / 2, width, tall)
        if width == tall:  # a round hole
            msp.add_circle(
                (along, height / 2), width / 2, dxfattribs={"layer": "CUT_SOCKET_HOLES_THROUGH"}
            )
        else:
            _rect(msp, hole, "CUT_SOCKET_HOLES_THROUGH")
    return _dxf_text(doc)


DRAWINGS = {
    "board-plan.svg": plan_svg,
    "board-section.svg": section_svg,
    "top-plate.dxf": top_plate_dxf,
    "carrier-plate.dxf": carrier_plate_dxf,
    "base-plate.dxf": base_plate_dxf,
    "frame-strip.dxf": frame_strip_dxf,
}


def draw_board(folder: Path, geometry: BoardGeometry | None = None) -> list[Path]:
    """Write every board drawing into `folder`; the paths written."""
    g = geometry or build_geometry()
    written = []
    for name, make in DRAWINGS.items():
        path = folder / name
        path.write_text(make(g), encoding="utf-8", newline="\n")
        written.append(path)
    return written


__all__ = ["DRAWINGS", "draw_board", "plan_svg", "section_svg"]
