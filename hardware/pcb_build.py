"""The interface board from the netlist: placed, routed, and written as fabrication files.

`python hardware/build.py` writes them into `pcb/`: the Gerber layers and drill files a PCB
maker asks for, `interface-board-pads.csv`, every pad with its part, pin, net and position
(for checking the board against the netlist, or a continuity test), and
`interface-board.svg`, the board's picture for the guide.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from board_geometry import build_geometry
from pcb_drawing import interface_board_svg
from pcb_gerber import Board, fabrication_files
from pcb_layout import Pad, interface_parts, outline_of, place
from pcb_route import route

PADS = "interface-board-pads.csv"
PICTURE = "interface-board.svg"


def interface_board(circuit: Any) -> Board:
    """Place and route the interface board's parts of `circuit` (a SKiDL circuit)."""
    footprints, pads = place(interface_parts(circuit))
    outline = outline_of(build_geometry())
    return Board(outline, footprints, pads, route(outline, pads))


def pads_csv(pads: list[Pad]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["ref", "pin", "net", "x_mm", "y_mm", "pad_mm", "drill_mm"])
    for p in pads:
        writer.writerow([
            p.ref, p.pin, p.net, f"{p.x / 1000:.3f}", f"{p.y / 1000:.3f}",
            f"{p.diameter / 1000:.3f}", f"{p.drill / 1000:.3f}",
        ])  # fmt: skip
    return buffer.getvalue()


def pcb_files(circuit: Any) -> dict[str, str]:
    """File name -> content: the fabrication files and the pad list."""
    board = interface_board(circuit)
    return {
        **fabrication_files(board),
        PADS: pads_csv(board.pads),
        PICTURE: interface_board_svg(board),
    }


__all__ = ["PADS", "PICTURE", "interface_board", "pads_csv", "pcb_files"]
