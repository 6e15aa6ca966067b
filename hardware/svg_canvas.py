"""Just enough SVG for the board's drawings, written by hand so that every run gives the same
bytes: shapes in the board's own millimetres (y up), and dimension lines a maker can measure
from.

One user unit is one millimetre of the board (or of the section's cut); `scale` only sets
the picture's size on screen.
"""

from __future__ import annotations

from collections.abc import Iterable

Point = tuple[float, float]
DIMENSION_COLOUR = "#203a80"


def svg_number(value: float) -> str:
    """A coordinate as the SVG gets it: at most 2 decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def dimension_label(length_mm: float) -> str:
    """How a dimension line reads: millimetres, one decimal where the length has one."""
    return f"{round(length_mm, 1):g}"


class Svg:
    """An SVG with y flipped, so the drawing uses the board's coordinates (y up)."""

    def __init__(self, x0: float, y0: float, width: float, height: float, scale: float) -> None:
        self.x0, self.top, self.width, self.height = x0, y0 + height, width, height
        self.scale = scale
        self.parts: list[str] = []

    def x(self, x: float) -> str:
        return svg_number(x - self.x0)

    def y(self, y: float) -> str:
        return svg_number(self.top - y)

    def add(self, text: str) -> None:
        self.parts.append(text)

    def rect(self, x: float, y: float, w: float, h: float, style: str, extra: str = "") -> None:
        self.add(
            f'<rect x="{self.x(x)}" y="{self.y(y + h)}" width="{svg_number(w)}" '
            f'height="{svg_number(h)}" style="{style}"{extra}/>'
        )

    def line(self, a: Point, b: Point, style: str, extra: str = "") -> None:
        self.add(
            f'<line x1="{self.x(a[0])}" y1="{self.y(a[1])}" x2="{self.x(b[0])}" '
            f'y2="{self.y(b[1])}" style="{style}"{extra}/>'
        )

    def polyline(self, points: Iterable[Point], style: str, extra: str = "") -> None:
        coords = " ".join(f"{self.x(x)},{self.y(y)}" for x, y in points)
        self.add(f'<polyline points="{coords}" style="fill:none;{style}"{extra}/>')

    def circle(self, c: Point, r: float, style: str, extra: str = "") -> None:
        self.add(
            f'<circle cx="{self.x(c[0])}" cy="{self.y(c[1])}" r="{svg_number(r)}" '
            f'style="{style}"{extra}/>'
        )

    def text(self, at: Point, words: str, size: float, extra: str = "") -> None:
        words = words.replace("&", "&amp;").replace("<", "&lt;")
        self.add(
            f'<text x="{self.x(at[0])}" y="{self.y(at[1])}" font-size="{svg_number(size)}"'
            f"{extra}>{words}</text>"
        )

    def dimension(
        self,
        a: Point,
        b: Point,
        at: float,
        size: float,
        label_side: str = "middle",
        what: str = "",
    ) -> None:
        """A dimension line between two feature points `a` and `b`, along x when they share
        a y (or along y when they share an x), drawn at `at` (the y, or the x) with
        extension lines from the features, arrowheads at both ends and the length in mm.

        The label sits above a horizontal line (centred, or `label_side` "start"/"end" past
        the line's left or right end where the line is short) and beside a vertical one
        ("end": left of it, "start": right of it). `what` names the feature for a reader
        of the file (a test checks that each dimension's label is its drawn length)."""
        horizontal = a[1] == b[1]
        if horizontal:
            p, q = (a[0], at), (b[0], at)
            length = abs(b[0] - a[0])
        else:
            p, q = (at, a[1]), (at, b[1])
            length = abs(b[1] - a[1])
        label = dimension_label(length)
        thin = f"stroke:{DIMENSION_COLOUR};stroke-width:{svg_number(size / 20)}"
        self.add(f'<g class="dimension" data-mm="{label}" data-what="{what}">')
        for feature, end in ((a, p), (b, q)):
            if feature != end:
                self.line(feature, _past(feature, end, size / 3), f"{thin};stroke-opacity:0.6")
        self.line(
            p, q, thin, ' class="dimension-line" marker-start="url(#dim)" marker-end="url(#dim)"'
        )
        fill = f' fill="{DIMENSION_COLOUR}"'
        if horizontal:
            lo, hi = min(p[0], q[0]), max(p[0], q[0])
            x = {"middle": (lo + hi) / 2, "start": hi + size / 3, "end": lo - size / 3}[label_side]
            anchor = {"middle": "middle", "start": "start", "end": "end"}[label_side]
            self.text((x, at + size / 4), label, size, f' text-anchor="{anchor}"{fill}')
        else:
            mid = (p[1] + q[1]) / 2 - size / 3
            dx = -size / 4 if label_side == "end" else size / 4
            anchor = "end" if label_side == "end" else "start"
            self.text((at + dx, mid), label, size, f' text-anchor="{anchor}"{fill}')
        self.add("</g>")

    def text_svg(self) -> str:
        w, h = self.width, self.height
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{svg_number(w * self.scale)}" '
            f'height="{svg_number(h * self.scale)}" viewBox="0 0 {svg_number(w)} '
            f'{svg_number(h)}" font-family="DejaVu Sans, sans-serif">\n'
            '<defs><marker id="arrow" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="4" '
            'markerHeight="4" orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="#d0306a"/>'
            "</marker>"
            '<marker id="dim" viewBox="0 0 10 6" refX="10" refY="3" markerWidth="8" '
            'markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,3 L0,6 z" '
            f'fill="{DIMENSION_COLOUR}"/></marker></defs>\n'
            f'<rect x="0" y="0" width="{svg_number(w)}" height="{svg_number(h)}" fill="white"/>\n'
        )
        return head + "\n".join(self.parts) + "\n</svg>\n"


def _past(start: Point, end: Point, extra: float) -> Point:
    """`end`, moved `extra` further along the line from `start` (an extension line runs a
    little past its dimension line)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = (dx * dx + dy * dy) ** 0.5
    return (end[0] + dx / length * extra, end[1] + dy / length * extra)


__all__ = ["Point", "Svg", "dimension_label", "svg_number"]
