"""The interface board's printed circuit: its footprints, where each part sits, its pads.

Every length is an integer number of micrometres, so the routed board and the files written
from it are the same on every machine. The board is seen from above (the parts' side), x to
the right and y up, its lower left corner at (0, 0), as Gerber files have it.

The footprints keep the pad numbering and spacing of the KiCad footprints the netlist names
(pin 1 square), so the board can also be re-made in KiCad from the same netlist.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from board_geometry import BoardGeometry

PITCH = 2540  # 0.1 inch


@dataclass(frozen=True)
class PadShape:
    """The pads of one footprint: positions (pin 1 at the origin), diameter and hole."""

    positions: tuple[tuple[int, int], ...]  # pin n at positions[n - 1]
    diameter: int
    drill: int
    outline: tuple[int, int, int, int]  # the body on the silkscreen: x0, y0, x1, y1


def _row(count: int, pitch: int = PITCH) -> tuple[tuple[int, int], ...]:
    return tuple((k * pitch, 0) for k in range(count))


def _header(count: int) -> PadShape:
    return PadShape(_row(count), 1700, 1000, (-1270, -1270, (count - 1) * PITCH + 1270, 1270))


# The positions are already turned so that a row of pins runs along x: the 2x20 box header
# has its odd pins (1, 3 ... 39) on y = 0 and the even ones above; the DIP has pins 1-7 along
# the bottom, 8-14 back along the top (a DIP seen from above, its notch on the left).
FOOTPRINTS = {
    "Connector_IDC:IDC-Header_2x20_P2.54mm_Vertical": PadShape(
        tuple(((n - 1) // 2 * PITCH, (n - 1) % 2 * PITCH) for n in range(1, 41)),
        1700, 1000, (-4800, -3180, 19 * PITCH + 4800, PITCH + 3180),
    ),
    "Package_DIP:DIP-14_W7.62mm": PadShape(
        tuple(((n - 1) * PITCH, 0) if n <= 7 else ((14 - n) * PITCH, 7620) for n in range(1, 15)),
        1600, 800, (-1270, 1000, 6 * PITCH + 1270, 6620),
    ),
    "TerminalBlock:TerminalBlock_bornier-2_P5.08mm": PadShape(
        _row(2, 5080), 2600, 1300, (-2540, -4200, 7620, 4200)
    ),
    "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal": PadShape(
        _row(2, 10160), 1600, 800, (1930, -1250, 8230, 1250)
    ),
    "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm": PadShape(
        _row(2, 5000), 1600, 800, (1050, -1250, 3950, 1250)
    ),
    **{
        f"Connector_PinHeader_2.54mm:PinHeader_1x{n:02d}_P2.54mm_Vertical": _header(n)
        for n in (2, 3, 6, 8)
    },
}  # fmt: skip

# Where each part's pin 1 sits on the board (micrometres; every part upright). J1 runs
# along the top edge with room for its shroud, the wires from the squares land along the
# bottom edge (J5 the rows, J6 the columns, J7 the LED chain), the cable headers J3 and J4
# on the left, the LED supply's terminal J2 on the right, the level shifter in the middle.
PLACEMENT = {
    "J1": (10795, 48895),
    "J3": (5080, 35560),
    "J4": (5080, 26670),
    "U1": (24130, 27305),
    "R1": (43815, 19685),
    "C2": (24130, 20320),
    "J2": (57150, 30480),
    "J5": (6985, 6350),
    "J6": (33655, 6350),
    "J7": (57785, 6350),
}
# Where a part's reference is written: from pin 1, the lower left corner of the text; by
# default just above the part's outline. J1's goes inside its shroud, under the pins.
LABELS = {"J1": (-3000, -2800), "U1": (-4200, 3200)}
MOUNTING_HOLE_DRILL = 2700  # M2.5 screws onto stand-offs
MOUNTING_HOLE_INSET = 3000  # from each edge
# No copper under a screw's head or a stand-off's hexagon (5 mm across its corners, say),
# where a scratched solder mask would short it to the screw.
MOUNTING_KEEPOUT = 2750  # radius


@dataclass(frozen=True)
class Pad:
    ref: str
    pin: int
    net: str  # "" where the pin is left unconnected
    x: int
    y: int
    diameter: int
    drill: int
    square: bool


@dataclass(frozen=True)
class Footprint:
    ref: str
    name: str
    x: int
    y: int
    shape: PadShape

    def label_at(self) -> tuple[int, int]:
        x0, _, _, y1 = self.shape.outline
        dx, dy = LABELS.get(self.ref, (x0, y1 + 500))
        return self.x + dx, self.y + dy


@dataclass(frozen=True)
class BoardOutline:
    width: int
    height: int

    def mounting_holes(self) -> tuple[tuple[int, int], ...]:
        i = MOUNTING_HOLE_INSET
        return (
            (i, i),
            (self.width - i, i),
            (i, self.height - i),
            (self.width - i, self.height - i),
        )


def outline_of(geometry: BoardGeometry) -> BoardOutline:
    """The board's size: the interface board's place in the base (board_geometry.py)."""
    rect = geometry.interface
    return BoardOutline(round(rect.width * 1000), round(rect.height * 1000))


def interface_parts(circuit: Any) -> dict[str, tuple[str, dict[int, str]]]:
    """The netlist's parts placed on the interface board: ref -> (footprint, pin -> net)."""
    parts: dict[str, tuple[str, dict[int, str]]] = {}
    for part in circuit.parts:
        if part.fields.get("Place") != "interface board":
            continue
        nets = {}
        for pin in part.pins:
            name = str(pin.net.name) if pin.net is not None else ""
            nets[int(pin.num)] = "" if name.startswith("__NOCONNECT") else name
        parts[str(part.ref)] = (str(part.footprint), nets)
    return parts


def place(parts: dict[str, tuple[str, dict[int, str]]]) -> tuple[list[Footprint], list[Pad]]:
    """The footprints where PLACEMENT puts them, and every pad with its net."""
    missing = sorted(set(parts) ^ set(PLACEMENT))
    if missing:
        raise ValueError(f"the interface board's placement and its parts differ: {missing}")
    footprints: list[Footprint] = []
    pads: list[Pad] = []
    for ref in sorted(parts):
        name, nets = parts[ref]
        shape = FOOTPRINTS[name]
        x0, y0 = PLACEMENT[ref]
        footprints.append(Footprint(ref, name, x0, y0, shape))
        if len(shape.positions) != len(nets):
            raise ValueError(
                f"{ref}: {len(nets)} pins, footprint {name} has {len(shape.positions)}"
            )
        for pin, (dx, dy) in enumerate(shape.positions, start=1):
            pads.append(
                Pad(ref, pin, nets[pin], x0 + dx, y0 + dy, shape.diameter, shape.drill, pin == 1)
            )
    return footprints, pads


__all__ = [
    "FOOTPRINTS",
    "LABELS",
    "MOUNTING_HOLE_DRILL",
    "MOUNTING_KEEPOUT",
    "PLACEMENT",
    "BoardOutline",
    "Footprint",
    "Pad",
    "PadShape",
    "interface_parts",
    "outline_of",
    "place",
]
