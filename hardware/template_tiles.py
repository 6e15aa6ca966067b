"""The 1:1 drilling template's layout, pure: what each template shows (read back from the
plates' own DXF, so paper and cutter never disagree) and how a plate is cut into pages of
A4 or Letter that overlap, with alignment marks in every overlap.

Millimetres throughout, in the plate's coordinates (the board's plan, y up); a page maps a
window of the plate onto paper without scaling. `drill_template.py` draws it as a PDF.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

from board_drawings import base_plate_dxf, carrier_plate_dxf, top_plate_dxf
from board_geometry import BoardGeometry, square_centre
from ezdxf.document import Drawing
from ezdxf.entities.lwpolyline import LWPolyline
from ezdxf.filemanagement import read as read_dxf
from reedboard.rules.squares import square_name

Point = tuple[float, float]
Segment = tuple[Point, Point]

PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN_MM = 10.0  # left, right and top: inside any printer's unprintable edge
FOOTER_MM = 24.0  # the bottom margin: the page's name, its legend and the 100 mm bar
MARK_RADIUS_MM = 4.0  # an alignment mark: a circle with a cross through it
MIN_OVERLAP_MM = 2 * MARK_RADIUS_MM + 12.0  # the largest hole fits in it whole, with a mark


@dataclass(frozen=True)
class Hole:
    centre: Point
    diameter: float
    layer: str


@dataclass(frozen=True)
class Template:
    """One plate, or one face of it, as the maker tapes it on, seen from that face."""

    name: str
    holes: tuple[Hole, ...]
    lines: tuple[tuple[Segment, str], ...]  # edges and centre lines, by layer
    extent: tuple[float, float, float, float]  # the plate's outline: x0, y0, x1, y1
    labels: tuple[tuple[Point, str], ...] = ()  # each square's name, to find one's way


@dataclass(frozen=True)
class Tile:
    column: int
    row: int
    window: tuple[float, float, float, float]  # the plate's part on this page: x0, y0, x1, y1

    @property
    def name(self) -> str:
        """Columns A, B, C... from the left; rows 1, 2... from the bottom (White's side)."""
        return f"{'ABCDEFGH'[self.column]}{self.row + 1}"


@dataclass(frozen=True)
class Sheet:
    """A paper size in the orientation that needs fewer pages, and the plate cut into it."""

    paper: str
    size: tuple[float, float]  # width, height
    tiles: tuple[Tile, ...]
    marks: tuple[Point, ...]  # plate coordinates; each lies inside two or more tiles

    def tiles_with(self, point: Point) -> list[Tile]:
        return [t for t in self.tiles if _inside(point, t.window, MARK_RADIUS_MM)]


def _entities(dxf_text: str) -> Drawing:
    return read_dxf(io.StringIO(dxf_text))


def _shapes(
    doc: Drawing, keep: Callable[[str], bool], mirror: float | None
) -> tuple[list[Hole], list[tuple[Segment, str]]]:
    """The DXF's circles as holes and its polylines and lines as segments, on the layers kept;
    `mirror`: the x to mirror about (a face seen from below)."""

    def flip(x: float, y: float) -> Point:
        return (mirror - x if mirror is not None else x, y)

    holes, lines = [], []
    for entity in doc.modelspace():
        layer = entity.dxf.layer
        if not keep(layer):
            continue
        kind = entity.dxftype()
        if kind == "CIRCLE":
            c = entity.dxf.center
            holes.append(Hole(flip(c.x, c.y), round(2 * entity.dxf.radius, 3), layer))
        elif kind == "LINE":
            a, b = entity.dxf.start, entity.dxf.end
            lines.append(((flip(a.x, a.y), flip(b.x, b.y)), layer))
        elif isinstance(entity, LWPolyline):
            points = [flip(x, y) for x, y, *_ in entity.get_points()]
            if entity.closed:
                points.append(points[0])
            lines += [((p, q), layer) for p, q in itertools.pairwise(points)]
    return holes, lines


def templates(g: BoardGeometry) -> tuple[Template, ...]:
    """The top plate from above; the carrier's top face; its bottom face, mirrored, to tape
    on when the plate is turned over (the through holes on both carrier faces line them up);
    the base plate's stand-off holes."""
    p = g.parameters
    lo, hi = -p.border_mm, p.playing_mm + p.border_mm
    extent = (lo, lo, hi, hi)
    carrier = _entities(carrier_plate_dxf(g))

    def made(name: str, doc: Drawing, keep: Callable[[str], bool], mirror: bool) -> Template:
        holes, lines = _shapes(doc, keep, lo + hi if mirror else None)
        labels = []
        for sq in range(64):
            x, y = square_centre(p, sq)
            x = lo + hi - x if mirror else x
            labels.append(((x - p.square_mm / 2 + 2, y + p.square_mm / 2 - 5), square_name(sq)))
        return Template(name, tuple(holes), tuple(lines), extent, tuple(labels))

    def face(side: str) -> Callable[[str], bool]:
        return lambda layer: not layer.startswith(("TOP_", "BOTTOM_")) or layer.startswith(side)

    return (
        made("top plate, from above", _entities(top_plate_dxf(g)), lambda _: True, False),
        made("carrier, top face", carrier, face("TOP_"), False),
        made("carrier, bottom face (mirrored)", carrier, face("BOTTOM_"), True),
        made("base plate, from above", _entities(base_plate_dxf(g)), lambda _: True, False),
    )


def sheet(
    paper: str, extent: tuple[float, float, float, float], avoid: tuple[Hole, ...] = ()
) -> Sheet:
    """The plate's extent cut into the fewest pages of `paper`, portrait or landscape, spread
    evenly so that neighbours overlap by at least MIN_OVERLAP_MM; the alignment marks keep
    clear of the holes in `avoid`."""
    w, h = PAPERS[paper]
    portrait = _layout(paper, (w, h), extent, avoid)
    landscape = _layout(paper, (h, w), extent, avoid)
    return portrait if len(portrait.tiles) <= len(landscape.tiles) else landscape


def window_size(size: tuple[float, float]) -> tuple[float, float]:
    return size[0] - 2 * MARGIN_MM, size[1] - MARGIN_MM - FOOTER_MM


def _starts(low: float, high: float, window: float) -> list[float]:
    length = high - low
    count = 1 if length <= window else math.ceil((length - window) / (window - MIN_OVERLAP_MM)) + 1
    step = 0.0 if count == 1 else (length - window) / (count - 1)
    return [round(low + i * step, 3) for i in range(count)]


def _clear_spot(mark: Point, along_x: bool, avoid: tuple[Hole, ...]) -> Point:
    """The mark, moved along its seam (by 2 mm steps, either way) until no hole is within
    2 mm of its circle."""
    for step in range(60):
        shift = (step + 1) // 2 * 2.0 * (1 if step % 2 else -1)
        x, y = (mark[0], mark[1] + shift) if along_x else (mark[0] + shift, mark[1])
        if all(math.dist((x, y), h.centre) > MARK_RADIUS_MM + h.diameter / 2 + 2 for h in avoid):
            return (round(x, 3), round(y, 3))
    return mark


def _layout(
    paper: str, size: tuple[float, float], extent: tuple[float, ...], avoid: tuple[Hole, ...]
) -> Sheet:
    ww, wh = window_size(size)
    x0, y0, x1, y1 = extent
    xs, ys = _starts(x0, x1, ww), _starts(y0, y1, wh)
    tiles = tuple(
        Tile(i, j, (x, y, round(x + ww, 3), round(y + wh, 3)))
        for j, y in enumerate(ys)
        for i, x in enumerate(xs)
    )
    marks: list[Point] = []
    for seams, across, span in ((xs, ys, wh), (ys, xs, ww)):
        along_x = seams is xs
        size_along = ww if along_x else wh
        for a, b in itertools.pairwise(seams):
            middle = round((b + a + size_along) / 2, 3)  # of the overlap [b, a + size]
            for start in across:
                for share in (0.25, 0.75):
                    other = round(start + share * span, 3)
                    spot = (middle, other) if along_x else (other, middle)
                    marks.append(_clear_spot(spot, along_x, avoid))
    return Sheet(paper, size, tiles, tuple(marks))


def _inside(point: Point, window: tuple[float, ...], room: float = 0.0) -> bool:
    x, y = point
    return window[0] + room <= x <= window[2] - room and window[1] + room <= y <= window[3] - room


def label_on_tile(at: Point, tile: Tile) -> bool:
    return _inside(at, tile.window, 3.0)


def hole_on_tile(hole: Hole, tile: Tile) -> bool:
    """A hole is drawn where it lies whole: the overlap is wider than any hole, so every hole
    lies whole on at least one page."""
    return _inside(hole.centre, tile.window, hole.diameter / 2)


def clip(segment: Segment, window: tuple[float, float, float, float]) -> Segment | None:
    """The part of a segment inside the window (Liang-Barsky), or None."""
    (ax, ay), (bx, by) = segment
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, ax - window[0]), (dx, window[2] - ax),
                 (-dy, ay - window[1]), (dy, window[3] - ay)):  # fmt: skip
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (ax + t0 * dx, ay + t0 * dy), (ax + t1 * dx, ay + t1 * dy)


__all__ = [
    "MARK_RADIUS_MM",
    "PAPERS",
    "Hole",
    "Sheet",
    "Template",
    "Tile",
    "clip",
    "hole_on_tile",
    "label_on_tile",
    "sheet",
    "templates",
    "window_size",
]
