"""The drawings' words fit in them and can be read at the size the guide shows them.

Text widths are measured with the font the drawings name (DejaVu Sans) through fontTools,
which ezdxf brings; a caption running past the picture's edge is cut off in a browser.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
SVG = "{http://www.w3.org/2000/svg}"
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
GUIDE_WIDTH_PX = 880  # a README's content column: wider pictures are scaled down to it
LEGIBLE_PX = 9.0


@cache
def _font() -> tuple[dict[int, str], dict[str, tuple[int, int]], int]:
    from fontTools.ttLib import TTFont  # loaded by the process that measures, not by all

    font = TTFont(str(FONT))
    return font.getBestCmap(), font["hmtx"].metrics, font["head"].unitsPerEm


def text_width(words: str, size: float) -> float:
    cmap, metrics, per_em = _font()
    advance = sum(metrics[cmap.get(ord(ch), ".notdef")][0] for ch in words)
    return advance * size / per_em


def _texts(name: str) -> tuple[ET.Element, list[tuple[float, float, str, str]]]:
    root = ET.parse(HARDWARE / name).getroot()
    default = float(root.get("font-size", "16"))
    found = []
    for text in root.iter(f"{SVG}text"):
        words = "".join(text.itertext())
        size = float(text.get("font-size", default))
        found.append((float(text.get("x", "0")), size, text.get("text-anchor", "start"), words))
    return root, found


@pytest.mark.skipif(not FONT.exists(), reason="DejaVu Sans is not installed")
@pytest.mark.parametrize(
    "name",
    ["board-section.svg", "clock-buttons.svg", "board-plan.svg", "pcb/interface-board.svg"],
)
def test_no_words_run_past_the_pictures_edge(name: str) -> None:
    root, texts = _texts(name)
    width = float(re.split(r"[ ,]+", root.get("viewBox", ""))[2])
    for x, size, anchor, words in texts:
        w = text_width(words, size)
        left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        assert left >= 0 and left + w <= width, f"{name}: {words!r} runs past the edge"


def test_the_plans_reed_labels_are_legible_in_the_guide() -> None:
    root, texts = _texts("board-plan.svg")
    view_width = float(re.split(r"[ ,]+", root.get("viewBox", ""))[2])
    shown = min(GUIDE_WIDTH_PX, float(root.get("width", "0")))
    labels = [size for _x, size, _a, words in texts if re.fullmatch(r"R\d C\d", words)]
    assert len(labels) == 64
    assert min(labels) * shown / view_width >= LEGIBLE_PX
