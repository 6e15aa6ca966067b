"""The interface board's fabrication files: Gerber X2 (RS-274X) layers and Excellon drills.

Any PCB maker takes these: two copper layers, solder mask both sides (vias covered), the
parts' outlines on the top silkscreen, the board's edge, the plated holes (pads and vias)
and the unplated ones (mounting holes) in separate drill files. Coordinates are millimetres
written from the layout's integer micrometres, so the files never change unless the board
does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pcb_layout import MOUNTING_HOLE_DRILL, BoardOutline, Footprint, Pad
from pcb_route import BOTTOM, TOP, TRACK, VIA_DIAMETER, VIA_DRILL, RoutedNet
from pcb_text import text_strokes

MASK_EXPANSION = 50  # each side of a pad
SILK_WIDTH = 150
EDGE_WIDTH = 100
PREFIX = "interface-board"
# The files, as most makers' upload pages recognise them by their ending.
LAYER_FILES = {
    "top copper": f"{PREFIX}-F_Cu.gtl",
    "bottom copper": f"{PREFIX}-B_Cu.gbl",
    "top mask": f"{PREFIX}-F_Mask.gts",
    "bottom mask": f"{PREFIX}-B_Mask.gbs",
    "top silkscreen": f"{PREFIX}-F_Silkscreen.gto",
    "outline": f"{PREFIX}-Edge_Cuts.gm1",
}
PLATED_DRILL = f"{PREFIX}-PTH.drl"
UNPLATED_DRILL = f"{PREFIX}-NPTH.drl"
FILE_FUNCTION = {
    "top copper": "Copper,L1,Top",
    "bottom copper": "Copper,L2,Bot",
    "top mask": "Soldermask,Top",
    "bottom mask": "Soldermask,Bot",
    "top silkscreen": "Legend,Top",
    "outline": "Profile,NP",
}


@dataclass(frozen=True)
class Board:
    outline: BoardOutline
    footprints: list[Footprint]
    pads: list[Pad]
    nets: list[RoutedNet]


def _mm(um: int) -> str:
    return str(um * 1000)  # format 4.6: millimetres with six decimals, as nanometres


def _mm_text(um: int) -> str:
    return f"{um / 1000:.3f}"


class _Gerber:
    """One Gerber layer: apertures defined as they are first used, then flashes and draws."""

    def __init__(self, layer: str) -> None:
        self.layer = layer
        self.apertures: dict[str, int] = {}
        self.body: list[str] = []
        self.current = ""

    def _select(self, template: str) -> None:
        if template not in self.apertures:
            self.apertures[template] = 10 + len(self.apertures)
        if template != self.current:
            self.body.append(f"D{self.apertures[template]}*")
            self.current = template

    def flash(self, x: int, y: int, diameter: int, square: bool = False) -> None:
        size = _mm_text(diameter)
        self._select(f"R,{size}X{size}" if square else f"C,{size}")
        self.body.append(f"X{_mm(x)}Y{_mm(y)}D03*")

    def draw(self, points: Iterable[tuple[int, int]], width: int) -> None:
        self._select(f"C,{_mm_text(width)}")
        for k, (x, y) in enumerate(points):
            self.body.append(f"X{_mm(x)}Y{_mm(y)}{'D02' if k == 0 else 'D01'}*")

    def text(self) -> str:
        head = [
            "G04 #@! TF.GenerationSoftware,reedboard,hardware/build.py*",
            f"G04 #@! TF.FileFunction,{FILE_FUNCTION[self.layer]}*",
            "G04 #@! TF.FilePolarity,Positive*",
            "%FSLAX46Y46*%",
            "%MOMM*%",
            "%LPD*%",
            "G01*",
        ]
        head += [f"%ADD{code}{template}*%" for template, code in self.apertures.items()]
        return "\n".join([f"G04 reedboard interface board: {self.layer}*", *head, *self.body,
                          "M02*"]) + "\n"  # fmt: skip


def _copper(board: Board, layer: int) -> str:
    gerber = _Gerber("top copper" if layer == TOP else "bottom copper")
    for pad in board.pads:
        gerber.flash(pad.x, pad.y, pad.diameter, pad.square)
    for net in board.nets:
        for x, y in net.vias:
            gerber.flash(x, y, VIA_DIAMETER)
    for net in board.nets:
        for s in net.segments:
            if s.layer == layer:
                gerber.draw([(s.x1, s.y1), (s.x2, s.y2)], TRACK)
    return gerber.text()


def _mask(board: Board, name: str) -> str:
    gerber = _Gerber(name)
    for pad in board.pads:
        gerber.flash(pad.x, pad.y, pad.diameter + 2 * MASK_EXPANSION, pad.square)
    return gerber.text()


def _silkscreen(board: Board) -> str:
    gerber = _Gerber("top silkscreen")
    for fp in board.footprints:
        x0, y0, x1, y1 = fp.shape.outline
        corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
        gerber.draw([(fp.x + x, fp.y + y) for x, y in corners], SILK_WIDTH)
        for stroke in text_strokes(fp.ref, *fp.label_at(), 1200):
            gerber.draw(stroke, SILK_WIDTH)
        # The matrix wires' headers: each pin's line under it (R1 = ROW1, C1 = COL1).
        letter = {"J5": "R", "J6": "C"}.get(fp.ref)
        for k, (dx, dy) in enumerate(fp.shape.positions if letter else ()):
            name = f"{letter}{k + 1}"
            for stroke in text_strokes(name, fp.x + dx - 830, fp.y + dy - 2500, 1000):
                gerber.draw(stroke, SILK_WIDTH)
    return gerber.text()


def _outline(board: Board) -> str:
    gerber = _Gerber("outline")
    w, h = board.outline.width, board.outline.height
    gerber.draw([(0, 0), (w, 0), (w, h), (0, h), (0, 0)], EDGE_WIDTH)
    return gerber.text()


def _excellon(holes: list[tuple[int, int, int]], plated: bool) -> str:
    """Excellon drill file: metric, absolute, a tool per diameter, smallest first."""
    sizes = sorted({d for d, _, _ in holes})
    lines = [
        "M48",
        f"; reedboard interface board, {'plated' if plated else 'unplated'} holes",
        f"; #@! TF.FileFunction,{'Plated' if plated else 'NonPlated'},1,2,"
        f"{'PTH' if plated else 'NPTH'}",
        "FMAT,2",
        "METRIC",
    ]
    lines += [f"T{k}C{_mm_text(d)}" for k, d in enumerate(sizes, start=1)]
    lines += ["%", "G90", "G05"]
    for k, d in enumerate(sizes, start=1):
        lines.append(f"T{k}")
        lines += [f"X{_mm_text(x)}Y{_mm_text(y)}" for dd, x, y in sorted(holes) if dd == d]
    return "\n".join([*lines, "M30"]) + "\n"


def plated_holes(board: Board) -> list[tuple[int, int, int]]:
    """(diameter, x, y) of every plated hole: the pads' and the vias'."""
    holes = [(pad.drill, pad.x, pad.y) for pad in board.pads]
    return holes + [(VIA_DRILL, x, y) for net in board.nets for x, y in net.vias]


def fabrication_files(board: Board) -> dict[str, str]:
    """File name -> content: the six Gerber layers and the two drill files."""
    files = {
        LAYER_FILES["top copper"]: _copper(board, TOP),
        LAYER_FILES["bottom copper"]: _copper(board, BOTTOM),
        LAYER_FILES["top mask"]: _mask(board, "top mask"),
        LAYER_FILES["bottom mask"]: _mask(board, "bottom mask"),
        LAYER_FILES["top silkscreen"]: _silkscreen(board),
        LAYER_FILES["outline"]: _outline(board),
    }
    files[PLATED_DRILL] = _excellon(plated_holes(board), plated=True)
    unplated = [(MOUNTING_HOLE_DRILL, x, y) for x, y in board.outline.mounting_holes()]
    files[UNPLATED_DRILL] = _excellon(unplated, plated=False)
    return files


__all__ = [
    "LAYER_FILES",
    "PLATED_DRILL",
    "UNPLATED_DRILL",
    "Board",
    "fabrication_files",
    "plated_holes",
]
