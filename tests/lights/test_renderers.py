"""Renderers for people without the hardware: terminal text and SVG pictures."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from reedboard.lights.frame import DARK, Frame
from reedboard.lights.gallery import SCENES, write_gallery
from reedboard.lights.palette import PALETTE
from reedboard.lights.render_svg import render_svg
from reedboard.lights.render_terminal import render_terminal
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.squares import parse_square as sq

FRAME = Frame.from_roles({sq("e2"): "origin", sq("e4"): "target", sq("d5"): "capture"})


def test_terminal_plain_brackets_lit_squares_and_names_roles() -> None:
    text = render_terminal(STARTING_FEN, FRAME, colour=False)
    lines = text.splitlines()
    assert lines[0] == "8  r  n  b  q  k  b  n  r "
    assert lines[6] == "2  P  P  P  P [P] P  P  P "
    assert lines[4] == "4             [ ]         "
    assert "capture (blink): d5" in lines
    assert "\x1b" not in text


def test_terminal_colour_paints_the_led_colours_and_marks_effects() -> None:
    text = render_terminal(STARTING_FEN, FRAME)
    red, green, blue = PALETTE["capture"].colour
    assert f"\x1b[48;2;{red};{green};{blue}m" in text
    assert "*. " in text  # d5 blinks
    assert render_terminal(STARTING_FEN, DARK, legend=False).count("\n") == 9


def test_svg_is_well_formed_with_pieces_lights_and_legend() -> None:
    svg = render_svg(STARTING_FEN, FRAME, title="A & B")
    root = ET.fromstring(svg)
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert sum(t in "\u265a\u265b\u265c\u265d\u265e\u265f" for t in texts if t) == 32
    assert "A & B" in texts
    assert "capture (blink): d5" in texts
    assert 'stroke-dasharray="12 6"' in svg  # blink drawn dashed
    assert "<animate" in svg
    assert "<animate" not in render_svg(STARTING_FEN, FRAME, animate=False)


def test_the_gallery_draws_every_scene(tmp_path: Path) -> None:
    written = write_gallery(tmp_path)
    assert [p.stem for p in written] == list(SCENES)
    for path in written:
        ET.fromstring(path.read_text(encoding="utf-8"))
    lifted = (tmp_path / "lifted.svg").read_text(encoding="utf-8")
    assert "en_passant (blink): d6" in lifted
