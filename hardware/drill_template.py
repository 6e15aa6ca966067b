"""The 1:1 drilling template as a PDF to print and tape on the plates: `drill-template-a4.pdf`
and `drill-template-letter.pdf`, written by ReportLab (pinned: a test compares the bytes).

A cover page says how to print, check and join the pages; then, for each plate or face,
the pages of `template_tiles.sheet`: the plate's outline, grooves and pockets as thin lines,
every hole as a circle of its drill's diameter with a cross on its centre to centre-punch,
alignment marks where neighbouring pages overlap, and a 100 mm bar to check the printer's
scale. `invariant` fixes the dates and the file's ID and the pages are not compressed, so
the same board gives the same bytes on every machine.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from board_geometry import BoardGeometry
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from template_tiles import (
    MARGIN_MM,
    MARK_RADIUS_MM,
    Sheet,
    Template,
    Tile,
    clip,
    hole_on_tile,
    label_on_tile,
    sheet,
    templates,
    window_size,
)

FILES = {"A4": "drill-template-a4.pdf", "Letter": "drill-template-letter.pdf"}
SCALE_BAR_MM = 100.0
FONT, BOLD = "Helvetica", "Helvetica-Bold"
MARK_COLOUR = (0.85, 0.0, 0.55)
HOLE_COLOURS = {"LIGHT_PIPE": (0, 0, 0), "LED_POCKET": (0.1, 0.3, 0.8), "DIODE": (0.8, 0.1, 0.1),
                "ROW_WIRES": (0.1, 0.55, 0.2), "STANDOFF": (0, 0, 0)}  # fmt: skip
GREY = (0.55, 0.55, 0.55)
PALE = (0.85, 0.85, 0.85)

# What each hole layer is drilled for, as the legend says it.
HOLE_NAMES = {
    "LIGHT_PIPE": "light pipe",
    "LED_POCKET": "LED pocket",
    "DIODE": "diode",
    "ROW_WIRES": "row wire down",
    "STANDOFF": "stand-off",
}

HOW_TO = [
    "1. Print at actual size: 100 %, no scaling, not 'fit to page'. On every page, the bar at",
    "   the bottom must measure 100 mm (within 0.5 mm); if not, set the printer's scale and print again.",
    "2. Join each plate's pages in the order of the map below: lay a page over its neighbour so that",
    "   both copies of every alignment mark (a magenta circle with a cross) lie exactly on each other,",
    "   against a window if it helps, and tape. Trim the upper page's margin first where it gets in the way.",
    "3. Tape the joined sheet on its plate with the outline on the plate's edges, and centre-punch every",
    "   hole's cross. The circles are the drills' sizes; grey lines are grooves, pockets and edges to",
    "   rout or saw (their depths are in the DXF files' layer names).",
    "4. The carrier's bottom face is drawn mirrored, as that face is seen when the plate is turned",
    "   over: put its through holes on the holes drilled from the top face.",
    "Every page has rank 1 (White's side) at its bottom; the squares' names are printed in grey.",
]


def _hole_kind(layer: str) -> str:
    return next(kind for kind in HOLE_NAMES if kind in layer)


def _mark(c: Canvas, x: float, y: float) -> None:
    r = MARK_RADIUS_MM
    c.setStrokeColorRGB(*MARK_COLOUR)
    c.setLineWidth(0.25)
    c.circle(x, y, r)
    c.line(x - 1.5 * r, y, x + 1.5 * r, y)
    c.line(x, y - 1.5 * r, x, y + 1.5 * r)


def _scale_bar(c: Canvas, x: float, y: float) -> None:
    """A 100 mm bar with a tick every 10 mm: measure it before trusting the page."""
    c.setFillColorRGB(0, 0, 0)
    c.rect(x, y, SCALE_BAR_MM, 1.5, stroke=0, fill=1)
    c.setLineWidth(0.2)
    c.setStrokeColorRGB(0, 0, 0)
    for tick in range(0, int(SCALE_BAR_MM) + 1, 10):
        c.line(x + tick, y, x + tick, y - 2.0)
    c.setFont(FONT, 3.0)
    c.drawString(x + SCALE_BAR_MM + 2, y - 0.5, f"{SCALE_BAR_MM:g} mm: measure it")


def _tile_page(c: Canvas, s: Sheet, template: Template, tile: Tile, index: str) -> None:
    x0, y0, _, _ = tile.window
    ww, wh = window_size(s.size)
    c.saveState()
    c.scale(mm, mm)
    c.translate(MARGIN_MM - x0, s.size[1] - MARGIN_MM - wh - y0)  # plate mm on paper mm
    c.setLineCap(0)
    c.setStrokeColorRGB(*GREY)
    c.setLineWidth(0.2)
    c.setDash([1.5, 1.5])
    c.rect(x0, y0, ww, wh)  # the page's window: where its neighbour's margin is trimmed to
    c.setDash([])
    for segment, layer in sorted(template.lines, key=lambda line: "GROOVE" not in line[1]):
        part = clip(segment, tile.window)
        if part is None or part[0] == part[1]:
            continue
        groove = re.search(r"_([\d.]+)MM_WIDE", layer) if "GROOVE" in layer else None
        # A groove as wide as it is cut, pale under the rest; edges and pockets as lines.
        c.setStrokeColorRGB(*(PALE if groove else GREY))
        c.setLineWidth(float(groove.group(1)) if groove else 0.5 if "OUTLINE" in layer else 0.25)
        c.line(*part[0], *part[1])
    for hole in template.holes:
        if not hole_on_tile(hole, tile):
            continue
        (x, y), r = hole.centre, hole.diameter / 2
        c.setStrokeColorRGB(*HOLE_COLOURS[_hole_kind(hole.layer)])
        c.setLineWidth(0.3)
        c.circle(x, y, r)
        c.setLineWidth(0.15)
        c.line(x - r - 1.5, y, x + r + 1.5, y)
        c.line(x, y - r - 1.5, x, y + r + 1.5)
    c.setFillColorRGB(*GREY)
    c.setFont(FONT, 3.5)
    for at, name in template.labels:
        if label_on_tile(at, tile):
            c.drawString(*at, name)
    for x, y in s.marks:
        if tile in s.tiles_with((x, y)):
            _mark(c, x, y)
    c.restoreState()
    c.saveState()
    c.scale(mm, mm)
    c.setFillColorRGB(0, 0, 0)
    c.setFont(BOLD, 4.0)
    c.drawString(MARGIN_MM, 17, f"{template.name}: page {tile.name} {index}")
    c.setFont(FONT, 2.8)
    counts: dict[str, tuple[float, int]] = {}
    for hole in template.holes:
        kind = _hole_kind(hole.layer)
        counts[kind] = (hole.diameter, counts.get(kind, (0.0, 0))[1] + 1)
    legend = ", ".join(f"{HOLE_NAMES[k]} {d:g} mm ({n})" for k, (d, n) in counts.items())
    c.drawString(MARGIN_MM, 12.5, f"Holes: {legend}. reedboard drilling template, 1:1, {s.paper}.")
    _scale_bar(c, MARGIN_MM, 8.0)
    c.restoreState()
    c.showPage()


def _cover(c: Canvas, s: Sheet, names: list[str]) -> None:
    w, h = s.size
    c.saveState()
    c.scale(mm, mm)
    c.setFont(BOLD, 7)
    c.drawString(MARGIN_MM, h - MARGIN_MM - 7, f"reedboard drilling template, 1:1, {s.paper}")
    c.setFont(FONT, 3.2)
    y = h - MARGIN_MM - 16
    for line in HOW_TO:
        c.drawString(MARGIN_MM, y, line)
        y -= 4.6
    c.drawString(MARGIN_MM, y - 2, f"The plates, {len(s.tiles)} pages each, in this order:")
    for name in names:
        y -= 4.6
        c.drawString(MARGIN_MM + 4, y - 2, f"- {name}")
    # The map of one plate's pages, not to scale: which page joins which.
    x0, y0, x1, y1 = (min(t.window[k] for t in s.tiles) if k < 2 else
                      max(t.window[k] for t in s.tiles) for k in range(4))  # fmt: skip
    scale = min((w - 2 * MARGIN_MM) / (x1 - x0), (y - 40 - MARGIN_MM) / (y1 - y0)) * 0.8
    ox, oy = MARGIN_MM, y - 12 - (y1 - y0) * scale
    c.drawString(ox, y - 8, "How each plate's pages join (seen from the face they are taped on):")
    c.setFont(BOLD, 5)
    for tile in s.tiles:
        tx0, ty0, tx1, ty1 = tile.window
        c.setStrokeColorRGB(0, 0, 0)
        c.rect(ox + (tx0 - x0) * scale, oy + (ty0 - y0) * scale, (tx1 - tx0) * scale,
               (ty1 - ty0) * scale)  # fmt: skip
        cx, cy = ox + ((tx0 + tx1) / 2 - x0) * scale, oy + ((ty0 + ty1) / 2 - y0) * scale
        c.drawCentredString(cx, cy, tile.name)
    _scale_bar(c, MARGIN_MM, 8.0)
    c.restoreState()
    c.showPage()


def template_pdf(g: BoardGeometry, paper: str) -> bytes:
    """The whole template on `paper` ("A4" or "Letter"): the cover, then each plate's pages."""
    plates = templates(g)
    s = sheet(paper, plates[0].extent, tuple(h for plate in plates for h in plate.holes))
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(s.size[0] * mm, s.size[1] * mm), invariant=1,
               pageCompression=0)  # fmt: skip
    c.setTitle(f"reedboard drilling template ({paper})")
    c.setAuthor("reedboard")
    c.setCreator("hardware/build.py")
    _cover(c, s, [t.name for t in plates])
    for plate in plates:
        for number, tile in enumerate(s.tiles, start=1):
            _tile_page(c, s, plate, tile, f"({number} of {len(s.tiles)})")
    c.save()
    return buffer.getvalue()


def write_templates(folder: Path, g: BoardGeometry) -> list[Path]:
    """Both papers' templates into `folder`; the paths written."""
    written = []
    for paper, name in FILES.items():
        path = folder / name
        path.write_bytes(template_pdf(g, paper))
        written.append(path)
    return written


__all__ = ["FILES", "SCALE_BAR_MM", "template_pdf", "write_templates"]
