"""`reed-magnet.svg`: where a piece's magnet closes the reed, from `reed_magnet`'s model.

Top: a map of the reed's square and its 8 neighbours, coloured by what a magnet centred
over each point does to the reed under the middle square: closes every reed of the AT
band, closes only the sensitive ones, or none. Bottom: the MMF along the reed's axis for
the placement rule and for the old "a third along the glass" advice. Hand-written SVG, no
plotting library, the same bytes on every run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from board_geometry import BoardParameters
from reed_magnet import (
    LEAD_KEPT_MM,
    ReedUnderSquare,
    band_margins,
    strongest_neighbour,
    weakest_own,
)

_CLOSES_ALL, _CLOSES_SOME = "#4caf50", "#ffd54f"


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class Findings:
    """The figures the README quotes, for the rule and for the old advice."""

    weakest_rule_at: float
    weakest_third_at: float
    strongest_neighbour_at: float
    dead_zone_from_centre_mm: float
    third_dead_zone_from_centre_mm: float


def third_along(p: BoardParameters) -> ReedUnderSquare:
    """The old advice: the square's centre a third of the way along the glass."""
    model = p.reed_model()
    x = -(p.reed.glass_mm / 2 - p.reed.glass_mm / 3)
    return ReedUnderSquare(model.magnet, model.reed, model.stack, x)


def findings(p: BoardParameters) -> Findings:
    model = p.reed_model()
    old = third_along(p)
    reach = p.square_mm / 2 - p.largest_base_mm / 4  # a piece pushed well off its centre
    return Findings(
        weakest_own(model, p.play_mm),
        weakest_own(old, p.play_mm),
        strongest_neighbour(model, p.square_mm, reach),
        abs(model.reed_x),
        abs(old.reed_x),
    )


def margin_lines(p: BoardParameters) -> list[str]:
    """Both margins of the BOM's band, the leads counted (the worse of with and without)."""
    reach = p.square_mm / 2 - p.largest_base_mm / 4
    band = (p.reed.pull_in_min_at, p.reed.pull_in_max_at)
    m = band_margins(p.reed_model(), band, p.square_mm, p.play_mm, reach)
    return [
        f"With {LEAD_KEPT_MM:g} mm of lead each side counted: closes with a margin of "
        f"{m.own_margin:.1f} ({m.weakest_own_at:.1f} / {band[1]:g} AT),",
        f"stays open under a neighbour with {m.neighbour_margin:.1f} "
        f"({band[0]:g} / {m.strongest_neighbour_at:.1f} AT).",
    ]


def plot_svg(p: BoardParameters | None = None) -> str:
    p = p or BoardParameters()
    model = p.reed_model()
    reed = p.reed
    s = p.square_mm
    cell = 2.0
    span = 3 * s
    scale = 3.0  # px per mm in the map
    map_px = span * scale
    margin = 40.0
    chart_h = 260.0
    width = map_px + 2 * margin
    height = map_px + chart_h + 3 * margin + 152
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="DejaVu Sans, sans-serif" '
        'font-size="12">',
        f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="white"/>',
    ]

    def mx(x: float) -> float:  # map: mm in the middle square's frame -> px
        return margin + (x + span / 2) * scale

    def my(y: float) -> float:
        return margin + 20 + (span / 2 - y) * scale

    out.append(
        f'<text x="{_n(margin)}" y="{_n(margin)}" font-size="14">Where a magnet over each '
        "point closes the middle square's reed</text>"
    )
    # Runs of equal cells per line of the map keep the file small.
    steps = int(span / cell)
    for j in range(steps):
        y = span / 2 - (j + 0.5) * cell
        run_start, run_colour = 0, ""
        for i in range(steps + 1):
            colour = ""
            if i < steps:
                x = -span / 2 + (i + 0.5) * cell
                mmf = model.mmf(x, y)
                colour = (
                    _CLOSES_ALL
                    if mmf >= reed.pull_in_max_at
                    else _CLOSES_SOME
                    if mmf >= reed.pull_in_min_at
                    else ""
                )
            if colour != run_colour or i == steps:
                if run_colour:
                    x0 = -span / 2 + run_start * cell
                    out.append(
                        f'<rect x="{_n(mx(x0))}" y="{_n(my(y + cell / 2))}" '
                        f'width="{_n((i - run_start) * cell * scale)}" height="{_n(cell * scale)}" '
                        f'fill="{run_colour}"/>'
                    )
                run_start, run_colour = i, colour
    for k in range(4):
        v = -span / 2 + k * s
        out.append(f'<line x1="{_n(mx(v))}" y1="{_n(my(span / 2))}" x2="{_n(mx(v))}" '
                   f'y2="{_n(my(-span / 2))}" stroke="#333" stroke-width="1"/>')  # fmt: skip
        out.append(f'<line x1="{_n(mx(-span / 2))}" y1="{_n(my(v))}" x2="{_n(mx(span / 2))}" '
                   f'y2="{_n(my(v))}" stroke="#333" stroke-width="1"/>')  # fmt: skip
    # The reed, its dead zone, where pieces stand.
    x0 = model.reed_x - reed.glass_mm / 2
    r = reed.glass_diameter_mm / 2
    out.append(
        f'<rect x="{_n(mx(x0))}" y="{_n(my(r))}" width="{_n(reed.glass_mm * scale)}" '
        f'height="{_n(2 * r * scale)}" fill="#bfe3f2" stroke="#1d5f7a"/>'
    )
    out.append(
        f'<line x1="{_n(mx(model.reed_x))}" y1="{_n(my(s / 2))}" x2="{_n(mx(model.reed_x))}" '
        f'y2="{_n(my(-s / 2))}" stroke="#d62728" stroke-dasharray="4 3"/>'
    )
    for cx in (-s, 0.0, s):
        for cy in (-s, 0.0, s):
            radius = p.play_mm if cx == cy == 0 else p.square_mm / 2 - p.largest_base_mm / 4
            out.append(
                f'<circle cx="{_n(mx(cx))}" cy="{_n(my(cy))}" r="{_n(radius * scale)}" '
                'fill="none" stroke="#222" stroke-dasharray="3 3"/>'
            )
    # The chart: MMF along the reed's axis, magnet moving along the rank through the centre.
    top = my(-span / 2) + margin
    left, right = margin + 30, width - margin - 10
    found = findings(p)
    old = third_along(p)
    xs = [-s / 2 + k * 0.25 for k in range(int(s / 0.25) + 1)]
    peak = max(max(model.mmf(x, 0.0) for x in xs), max(old.mmf(x, 0.0) for x in xs))
    ceiling = max(20.0, math.ceil(peak / 20) * 20)

    def cx_(x: float) -> float:
        return left + (x + s / 2) / s * (right - left)

    def cy_(v: float) -> float:
        return top + chart_h - v / ceiling * chart_h

    out.append(
        f'<rect x="{_n(cx_(-p.play_mm))}" y="{_n(top)}" width="{_n(cx_(p.play_mm) - cx_(-p.play_mm))}" '
        f'height="{_n(chart_h)}" fill="#eeeeee"/>'
    )
    for level, colour in ((reed.pull_in_min_at, _CLOSES_SOME), (reed.pull_in_max_at, _CLOSES_ALL)):
        out.append(f'<line x1="{_n(left)}" y1="{_n(cy_(level))}" x2="{_n(right)}" '
                   f'y2="{_n(cy_(level))}" stroke="{colour}" stroke-width="2"/>')  # fmt: skip
        out.append(
            f'<text x="{_n(right + 2)}" y="{_n(cy_(level) + (4 if level > 12 else 12))}" '
            f'font-size="10">{level:g}</text>'
        )
    for curve, colour, label in (
        (model, "#1d5f7a", f"rule: glass middle {abs(model.reed_x):g} mm off centre"),
        (old, "#d62728", f"old advice, a third along: {abs(old.reed_x):.1f} mm off centre"),
    ):
        points = " ".join(f"{_n(cx_(x))},{_n(cy_(curve.mmf(x, 0.0)))}" for x in xs)
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.append(
            f'<text x="{_n(left + 8)}" y="{_n(top + 16 + (0 if curve is model else 16))}" '
            f'fill="{colour}">{label}</text>'
        )
    out.append(f'<line x1="{_n(left)}" y1="{_n(top + chart_h)}" x2="{_n(right)}" '
               f'y2="{_n(top + chart_h)}" stroke="black"/>')  # fmt: skip
    out.append(f'<line x1="{_n(left)}" y1="{_n(top)}" x2="{_n(left)}" '
               f'y2="{_n(top + chart_h)}" stroke="black"/>')  # fmt: skip
    for v in range(0, int(ceiling) + 1, int(ceiling // 4)):
        out.append(f'<text x="{_n(left - 6)}" y="{_n(cy_(v) + 4)}" text-anchor="end">{v}</text>')
    for x in (-s / 2, -s / 4, 0.0, s / 4, s / 2):
        out.append(f'<text x="{_n(cx_(x))}" y="{_n(top + chart_h + 16)}" text-anchor="middle">'
                   f"{x:g}</text>")  # fmt: skip
    lines = [
        "MMF on the reed (AT) as the magnet moves along the rank through the square's",
        f"centre (mm); grey: within {p.play_mm:g} mm of the centre, where pieces stand.",
        f"Magnet {p.magnet.diameter_mm:g} x {p.magnet.thickness_mm:g} mm {p.magnet.grade}, "
        f"{model.height_mm:g} mm above a {reed.glass_mm:g} mm reed of "
        f"{reed.pull_in_min_at:g}-{reed.pull_in_max_at:g} AT.",
        "Map: green closes every reed of the band, yellow only the sensitive ones;",
        "dashed circles: where pieces stand; red dashes: the dead zone.",
        f"Weakest pull where pieces stand: {found.weakest_rule_at:.0f} AT (a third along: "
        f"{found.weakest_third_at:.1f} AT);",
        f"strongest from a piece on a neighbouring square: {found.strongest_neighbour_at:.1f} AT.",
        *margin_lines(p),
    ]
    for k, words in enumerate(lines):
        y = top + chart_h + 36 + k * 16
        out.append(f'<text x="{_n(margin)}" y="{_n(y)}" font-size="11.5">{words}</text>')
    return "\n".join(out) + "\n</svg>\n"


if __name__ == "__main__":
    f = findings(BoardParameters())
    print(f)
