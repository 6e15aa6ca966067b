"""The plan's and the section's dimension lines: each says the length it is drawn at, ends on
the feature it measures, and the sizes a maker marks out are all there, from the parameters."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from board_geometry import BoardParameters

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
SVG = "{http://www.w3.org/2000/svg}"

Line = tuple[float, float, float, float]


def _dimensions(name: str) -> tuple[ET.Element, dict[str, list[tuple[float, Line]]]]:
    """Each dimension's label (mm) and its line's ends (the drawing's units are mm), by what
    it measures."""
    root = ET.parse(HARDWARE / name).getroot()
    found: dict[str, list[tuple[float, Line]]] = {}
    for group in root.iter(f"{SVG}g"):
        if group.get("class") != "dimension":
            continue
        (line,) = [e for e in group.iter(f"{SVG}line") if e.get("class") == "dimension-line"]
        (text,) = list(group.iter(f"{SVG}text"))
        ends = tuple(float(line.get(k, "")) for k in ("x1", "y1", "x2", "y2"))
        x1, y1, x2, y2 = ends
        drawn = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
        label = float("".join(text.itertext()))
        assert label == float(group.get("data-mm", "")), name
        assert drawn == pytest.approx(label, abs=0.05), f"{name}: {group.get('data-what')}"
        found.setdefault(group.get("data-what", ""), []).append((label, (x1, y1, x2, y2)))
    return root, found


def _rect(root: ET.Element, style_part: str) -> list[tuple[float, float, float, float]]:
    return [
        tuple(float(e.get(k, "")) for k in ("x", "y", "width", "height"))  # type: ignore[misc]
        for e in root.iter(f"{SVG}rect")
        if style_part in e.get("style", "")
    ]


def test_the_plan_gives_the_board_the_frame_the_playing_area_and_a_square() -> None:
    p = BoardParameters()
    root, dims = _dimensions("board-plan.svg")
    assert [label for label, _ in dims["board"]] == [p.outer_mm, p.outer_mm]
    assert [label for label, _ in dims["frame"]] == [p.border_mm, p.border_mm]
    assert [label for label, _ in dims["playing area"]] == [p.playing_mm]
    assert [label for label, _ in dims["square"]] == [p.square_mm]
    # The lines end on what they measure: the board's outline and the playing area's edge.
    ((x, y, w, h),) = _rect(root, "fill:#e8d3b0")
    horizontal, vertical = sorted(dims["board"], key=lambda d: d[1][0] == d[1][2])
    assert sorted([horizontal[1][0], horizontal[1][2]]) == pytest.approx([x, x + w])
    assert sorted([vertical[1][1], vertical[1][3]]) == pytest.approx([y, y + h])
    ((px, _py, pw, _ph),) = _rect(root, "fill:none;stroke:black;stroke-width:0.5")
    (_label, play), = dims["playing area"]  # fmt: skip
    assert sorted([play[0], play[2]]) == pytest.approx([px, px + pw])


def test_the_section_gives_the_stack_the_pocket_and_where_reed_and_light_sit() -> None:
    p = BoardParameters()
    root, dims = _dimensions("board-section.svg")
    stack = {what: dims[what][0][0] for what in ("top", "carrier", "base", "bottom panel")}
    assert stack == {"top": p.top_mm, "carrier": p.carrier_mm, "base": p.base_depth_mm,
                     "bottom panel": p.base_panel_mm}  # fmt: skip
    assert dims["reed pocket depth"][0][0] == pytest.approx(p.reed.glass_diameter_mm + 0.5)
    assert dims["reed from centre"][0][0] == -p.reed_x_mm
    light = (p.square_mm / 2 - p.led_offset_mm) * 2**0.5
    assert dims["light pipe from centre"][0][0] == pytest.approx(light, abs=0.05)
    # The stack's lines end on the layers' faces as drawn.
    top = _rect(root, "fill:#e2c49a")[0]
    carrier, panel = _rect(root, "fill:#d2b48c;stroke:#6b4f2a")
    for what, (_x, y, _w, h) in (("top", top), ("carrier", carrier), ("bottom panel", panel)):
        ends = dims[what][0][1]
        assert sorted([ends[1], ends[3]]) == pytest.approx([y, y + h]), what
