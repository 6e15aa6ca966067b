"""The 1:1 drilling template, read back with an independent PDF reader (pdfplumber): its pages
are put together again by their alignment marks alone, and every hole must then sit where
`board_geometry` puts it, to the hundredth of a millimetre, measured from the plate's corner.
The PDFs regenerate byte for byte."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from board_geometry import BoardGeometry, build_geometry

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
MM_PER_PT = 25.4 / 72
PAPER_PT = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}
PRINTER_EDGE_MM = 5.0  # nothing may be drawn nearer the paper's edge than this
Point = tuple[float, float]


@dataclass
class PageRead:
    plate: str
    tile: str
    marks: list[Point] = field(default_factory=list)
    holes: list[tuple[Point, float]] = field(default_factory=list)
    outline: list[tuple[Point, Point]] = field(default_factory=list)


def _mm_box(obj: dict[str, Any], height: float) -> tuple[float, float, float, float]:
    """An object's box in mm from the page's lower-left corner (y up)."""
    k = MM_PER_PT
    return obj["x0"] * k, (height - obj["bottom"]) * k, obj["x1"] * k, (height - obj["top"]) * k


def _read(path: Path) -> Iterator[tuple[Any, PageRead | None]]:
    # Imported here, as the templates' own modules (reportlab, ezdxf) are in the tests:
    # a test process that runs none of these tests does not load them.
    import pdfplumber
    from template_tiles import MARK_RADIUS_MM

    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            named = re.search(r"^(.+): page ([A-H]\d) ", page.extract_text() or "", re.M)
            read = PageRead(named.group(1), named.group(2)) if named else None
            for curve in page.curves:
                x0, y0, x1, y1 = _mm_box(curve, page.height)
                centre, diameter = ((x0 + x1) / 2, (y0 + y1) / 2), round(x1 - x0, 2)
                if read is not None and abs(diameter - 2 * MARK_RADIUS_MM) < 0.01:
                    read.marks.append(centre)
                elif read is not None:
                    read.holes.append((centre, diameter))
            for line in page.lines:
                if read is not None and abs(line["linewidth"] * MM_PER_PT - 0.5) < 0.01:
                    x0, y0, x1, y1 = _mm_box(line, page.height)
                    read.outline.append(((x0, y0), (x1, y1)))
            yield page, read


def _hits(shift: Point, moved: list[Point], onto: list[Point]) -> int:
    return sum(
        1
        for m in moved
        if any(math.dist((m[0] + shift[0], m[1] + shift[1]), n) < 0.01 for n in onto)
    )


def _offset(a: PageRead, b: PageRead, rightwards: bool) -> tuple[Point, int]:
    """Where page b's origin lies on page a's when b is a's right (or upper) neighbour, found
    from the marks both carry: of the shifts that lay one of b's marks on one of a's and move
    b the right way, the one that lays most marks, then most holes, on a's; and how many
    marks it lays."""
    best: tuple[Point, int] = ((0.0, 0.0), 0)
    best_score = (0, 0)
    holes_a, holes_b = [c for c, _ in a.holes], [c for c, _ in b.holes]
    for ma in a.marks:
        for mb in b.marks:
            shift = (ma[0] - mb[0], ma[1] - mb[1])
            along, across = shift if rightwards else shift[::-1]
            if along < 1 or abs(across) > 1:  # a neighbour lies beyond, not on, the page
                continue
            score = (_hits(shift, b.marks, a.marks), _hits(shift, holes_b, holes_a))
            if score > best_score:
                best, best_score = (shift, score[0]), score
    return best


def _assemble(pages: list[PageRead]) -> dict[str, Point]:
    """Each page's origin on page A1's, from the marks: every page shares two marks or more
    with its right and upper neighbours, and every way round gives the same place."""
    by_name = {p.tile: p for p in pages}
    pairs = {}
    for name, page in by_name.items():
        column, row = name[0], int(name[1])
        for other, rightwards in (
            (f"{chr(ord(column) + 1)}{row}", True),
            (f"{column}{row + 1}", False),
        ):
            if other in by_name:
                shift, hits = _offset(page, by_name[other], rightwards)
                assert hits >= 2, f"{page.plate}: {name} and {other} share {hits} marks"
                pairs[(name, other)] = shift
    placed = {"A1": (0.0, 0.0)}
    while len(placed) < len(by_name):
        for (a, b), shift in pairs.items():
            if a in placed and b not in placed:
                placed[b] = (placed[a][0] + shift[0], placed[a][1] + shift[1])
    for (a, b), shift in pairs.items():
        assert math.dist((placed[a][0] + shift[0], placed[a][1] + shift[1]), placed[b]) < 0.01
    return placed


def _expected_holes(g: BoardGeometry) -> dict[str, list[tuple[Point, float]]]:
    p = g.parameters
    lights = [(led.centre, p.light_pipe_mm) for led in g.leds]
    pockets = [(led.centre, p.led_pixel_mm + 0.6) for led in g.leds]
    diodes = [((r.end[0] + 4, r.centre[1]), 2.0) for r in g.reeds]  # at the pocket's far end
    down = [(hole, p.groove_mm + 1) for hole in g.down_holes]
    carrier = pockets + diodes + down
    mirror = p.playing_mm  # the outline runs from -border to playing + border
    interface = g.interface
    return {
        "top plate, from above": lights,
        "carrier, top face": carrier,
        "carrier, bottom face (mirrored)": [((mirror - x, y), d) for (x, y), d in carrier],
        "base plate, from above": [
            ((interface.x + x, interface.y + y), 2.7) for x, y in _standoffs(g)
        ],
    }


def _standoffs(g: BoardGeometry) -> list[Point]:
    from pcb_layout import outline_of

    return [(x / 1000, y / 1000) for x, y in outline_of(g).mounting_holes()]


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_pages_put_together_by_their_marks_give_every_hole_at_its_place(paper: str) -> None:
    from drill_template import FILES

    g = build_geometry()
    border = g.parameters.border_mm
    expected = _expected_holes(g)
    plates: dict[str, list[PageRead]] = {}
    width_pt, height_pt = PAPER_PT[paper]
    for page, read in _read(HARDWARE / FILES[paper]):
        assert sorted([page.width, page.height]) == pytest.approx(
            sorted([width_pt, height_pt]), abs=0.01
        )
        # The scale check: a 100 mm bar on every page, cover included.
        bars = [r for r in page.rects if r["fill"] and abs(r["width"] * MM_PER_PT - 100) < 0.01]
        assert len(bars) == 1
        w, h = page.width * MM_PER_PT, page.height * MM_PER_PT
        for obj in page.curves + page.lines + page.rects + page.chars:
            x0, y0, x1, y1 = _mm_box(obj, page.height)
            edge = PRINTER_EDGE_MM
            assert edge <= x0 and x1 <= w - edge and edge <= y0 and y1 <= h - edge
        if read is not None:
            plates.setdefault(read.plate, []).append(read)
    assert set(plates) == set(expected)
    for plate, pages in plates.items():
        origins = _assemble(pages)
        # The plate's lower-left corner: where the outline's lines start on page A1.
        (a1,) = [p for p in pages if p.tile == "A1"]
        corner = (min(min(a[0], b[0]) for a, b in a1.outline),
                  min(min(a[1], b[1]) for a, b in a1.outline))  # fmt: skip
        found: list[tuple[Point, float]] = []
        for read in pages:
            ox, oy = origins[read.tile]
            for (x, y), diameter in read.holes:
                at = (x + ox - corner[0] - border, y + oy - corner[1] - border)
                same = [f for f in found if math.dist(f[0], at) < 0.05]
                if same:  # drawn on two pages: both in the same place
                    assert math.dist(same[0][0], at) < 0.01 and same[0][1] == diameter
                else:
                    found.append((at, diameter))
        want = expected[plate]
        assert len(found) == len(want), plate
        for centre, diameter in want:
            nearest = min(found, key=lambda f: math.dist(f[0], centre))
            assert math.dist(nearest[0], centre) < 0.01, (plate, centre, nearest)
            assert nearest[1] == pytest.approx(diameter, abs=0.01)
        # Every alignment mark is on two pages or more, in the same place on each.
        marks = [
            (m[0] + origins[r.tile][0], m[1] + origins[r.tile][1]) for r in pages for m in r.marks
        ]
        for m in marks:
            assert sum(1 for n in marks if math.dist(m, n) < 0.01) >= 2


def test_the_templates_regenerate_byte_for_byte() -> None:
    from drill_template import FILES, template_pdf

    g = build_geometry()
    for paper, name in FILES.items():
        assert template_pdf(g, paper) == (HARDWARE / name).read_bytes(), (
            f"{name}: run python hardware/build.py"
        )
