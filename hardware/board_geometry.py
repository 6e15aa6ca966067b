"""The physical board as numbers: every position a drawing, a cutter or a test needs,
computed from a few parameters. Pure; `board_drawings.py` turns it into DXF and SVG.

Coordinates are millimetres in plan view, seen from above with White at the bottom: the
origin is the outer corner of the playing area at a1, x runs towards the h-file, y
towards rank 8. Three layers, top to bottom:

- the top (`top_mm`, birch plywood by default): the squares, and one light-pipe hole per
  square, drilled through;
- the carrier (`carrier_mm` plywood) glued under it: a pocket for each reed on its top
  face, a pocket for each LED pixel under its light pipe, grooves for the row wires
  along the ranks (top face) and the column wires along the files (bottom face), and a
  groove for the LED chain;
- the base: a frame and bottom panel, with the Pi's bay and the connectors on the h-file
  side.

Light path: a clear acrylic rod (light pipe) in a hole through the top, its end flush and
sanded matt, with the LED right under it. Chosen over a translucent inlay because it
works in any wood and thickness, needs only a drill (an inlay needs routed pockets,
casting resin and a thin top), keeps the squares' look, and puts the light where a piece
never covers it: near the square's corner, outside the largest piece's base.

Which square each reed and LED serves, and in which order the LEDs are chained, come from
the firmware (`MatrixLayout`, `StripLayout`) with their default configuration, so the
drawings, the netlist and `reedboard scan` agree by construction, and a test checks it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reed_magnet import DiscMagnet, ReedSwitch, ReedUnderSquare, Stack
from reedboard.config import LedConfig, MatrixConfig
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.lights.strip_layout import StripLayout
from reedboard.rules.squares import Square, square_file, square_name, square_rank

Point = tuple[float, float]


@dataclass(frozen=True)
class BoardParameters:
    """Everything a maker may change; the defaults are the reference build."""

    square_mm: float = 50.0  # club sets (King 95 mm, base 40 mm) need 50-57 mm
    border_mm: float = 40.0  # frame around the playing area
    top_material: str = "birch plywood"
    top_mm: float = 4.0
    carrier_mm: float = 9.0
    base_depth_mm: float = 35.0  # inside height of the base: the Pi and wiring
    largest_base_mm: float = 40.0  # the King's base: the light must stay outside it
    play_mm: float = 5.0  # how far off centre a piece is stood: the reed must close there
    light_pipe_mm: float = 5.0  # clear acrylic (PMMA) rod
    led_pixel_mm: float = 10.0  # WS2812B on its round 10 mm board
    groove_mm: float = 4.0  # wire grooves: width
    groove_depth_mm: float = 3.0  # and depth, from either face of the carrier
    frame_mm: float = 12.0  # the base's frame strips: thickness (their height is base_depth_mm)
    base_panel_mm: float = 6.0  # the base's bottom panel, plywood
    magnet: DiscMagnet = field(default_factory=DiscMagnet)
    reed: ReedSwitch = field(default_factory=ReedSwitch)
    base_skin_mm: float = 1.0  # wood or felt under the magnet in a piece's base
    reed_x_mm: float = -8.0  # the reed's centre from the square's centre, along the rank

    @property
    def playing_mm(self) -> float:
        return 8 * self.square_mm

    @property
    def outer_mm(self) -> float:
        return self.playing_mm + 2 * self.border_mm

    @property
    def led_offset_mm(self) -> float:
        """The light's distance from its square's lower-right corner along x and y: the
        pipe's edge clears the largest base by 2 mm when the piece stands in the middle."""
        half = self.square_mm / 2
        clear = self.largest_base_mm / 2 + self.light_pipe_mm / 2 + 2.0
        # Along the diagonal from the centre: distance d from the centre at offset o from
        # the corner is (half - o) * sqrt(2).
        return round(half - clear / 2**0.5, 1)

    def reed_model(self) -> ReedUnderSquare:
        return ReedUnderSquare(
            self.magnet, self.reed, Stack(self.top_mm, self.base_skin_mm), self.reed_x_mm
        )


@dataclass(frozen=True)
class Reed:
    square: Square
    centre: Point
    start: Point  # the glass's ends, along the rank
    end: Point
    row: int  # matrix lines, 0..7 (ROW1 = 0)
    column: int


@dataclass(frozen=True)
class Led:
    chain: int  # 0 = the first LED after the data input
    square: Square
    centre: Point


@dataclass(frozen=True)
class Channel:
    """A wire groove: a polyline, what it carries, on which face of the carrier."""

    name: str
    points: tuple[Point, ...]
    face: str  # "top" or "bottom"


@dataclass(frozen=True)
class Rect:
    name: str
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class BoardGeometry:
    parameters: BoardParameters
    reeds: tuple[Reed, ...]
    leds: tuple[Led, ...]
    channels: tuple[Channel, ...]
    pi: Rect
    connectors: tuple[Rect, ...]  # the sockets in the frame's right strip, in plan
    interface: Rect  # the interface board, in the base
    notches: tuple[Rect, ...] = ()  # per reed: its pocket to its row groove (top face)
    down_holes: tuple[Point, ...] = ()  # per row groove: where its wire goes down

    @property
    def inside(self) -> Rect:
        """The base inside the frame strips: what the Pi and the interface board may use."""
        p = self.parameters
        low, high = -p.border_mm + p.frame_mm, p.playing_mm + p.border_mm - p.frame_mm
        return Rect("inside the frame", low, low, high - low, high - low)

    def square_centre(self, sq: Square) -> Point:
        return square_centre(self.parameters, sq)


def square_centre(p: BoardParameters, sq: Square) -> Point:
    return ((square_file(sq) + 0.5) * p.square_mm, (square_rank(sq) + 0.5) * p.square_mm)


def build_geometry(
    p: BoardParameters | None = None,
    matrix: MatrixConfig | None = None,
    leds: LedConfig | None = None,
) -> BoardGeometry:
    """Every position on the board from its parameters and the firmware's configuration."""
    p = p or BoardParameters()
    matrix = matrix or MatrixConfig()
    leds = leds or LedConfig()
    layout = MatrixLayout(matrix.a1, matrix.rows_are)
    strip = StripLayout.of_chain(leds.layout, leds.first, leds.along, leds.count)
    half_glass = p.reed.glass_mm / 2
    reeds = []
    for sq in range(64):
        cx, cy = square_centre(p, sq)
        x = cx + p.reed_x_mm
        row, column = layout.cell_of(sq)
        reeds.append(Reed(sq, (x, cy), (x - half_glass, cy), (x + half_glass, cy), row, column))
    lights = []
    half = p.square_mm / 2
    for index, sources in enumerate(strip.sources):
        if len(sources) != 1:
            continue
        sq = sources[0]
        cx, cy = square_centre(p, sq)
        lights.append(Led(index, sq, (cx + half - p.led_offset_mm, cy - half + p.led_offset_mm)))
    channels = _channels(p, reeds, lights)
    pi, connectors, interface = _bay(p)
    return BoardGeometry(
        p, tuple(reeds), tuple(lights), channels, pi, connectors, interface,
        _notches(p, reeds, channels),
        tuple(c.points[-1] for c in channels if c.face == "top"),
    )  # fmt: skip


def _notches(
    p: BoardParameters, reeds: list[Reed], channels: tuple[Channel, ...]
) -> tuple[Rect, ...]:
    """A 2 mm notch, as deep as the reed pocket, from each reed's a-file lead to its row
    groove: the lead is bent into it and soldered to the row wire there."""
    rows = {c.name: c for c in channels if c.face == "top"}
    notches = []
    for reed in reeds:
        groove = rows[f"ROW{reed.row + 1}"].points
        x, y = reed.start[0] - 4.0, reed.centre[1]
        if groove[0][1] == groove[-1][1]:  # along the rank: below the pocket
            gy = groove[0][1]
            notches.append(Rect(f"notch {reed.square}", x, gy, 2.0, y - gy))
        else:  # along the file: the groove passes the pocket's far end; join them there
            gx = groove[0][0]
            notches.append(Rect(f"notch {reed.square}", gx - 1.0, y - 1.0, 2.0, 2.0))
    return tuple(notches)


def _channels(p: BoardParameters, reeds: list[Reed], lights: list[Led]) -> tuple[Channel, ...]:
    """Row wires run along the reeds' line on the top face, column wires across on the
    bottom face (the diode goes down through a hole at the reed's far end), and the LED
    chain from pixel to pixel; all leave the playing area at the h-file side."""
    exit_x = p.playing_mm + p.border_mm / 2
    channels = []
    for row in range(8):
        members = [r for r in reeds if r.row == row]
        ys = {r.centre[1] for r in members}
        if len(ys) == 1:  # a row line along a rank: one straight groove
            y = ys.pop() - 5.0
            channels.append(Channel(f"ROW{row + 1}", ((0.0, y), (exit_x, y)), "top"))
        else:  # a row line along a file: groove up the file, then out along rank 1's edge
            x = members[0].end[0] + 3.0
            channels.append(Channel(f"ROW{row + 1}", ((x, p.playing_mm), (x, 0.0)), "top"))
    for column in range(8):
        members = [r for r in reeds if r.column == column]
        xs = {r.end[0] for r in members}
        if len(xs) == 1:  # a column line along a file
            x = xs.pop() + 2.0
            below = -0.7 * p.border_mm
            points = ((x, p.playing_mm), (x, below), (exit_x, below))
            channels.append(Channel(f"COL{column + 1}", points, "bottom"))
        else:
            y = members[0].centre[1] + 5.0
            channels.append(Channel(f"COL{column + 1}", ((0.0, y), (exit_x, y)), "bottom"))
    # The data input comes from the interface board in the base, along rank 1's edge.
    first = lights[0].centre
    chain = [(exit_x, -p.border_mm / 4), (first[0], -p.border_mm / 4)] + [
        led.centre for led in lights
    ]
    channels.append(Channel("LED chain", tuple(chain), "bottom"))
    return tuple(channels)


def _bay(p: BoardParameters) -> tuple[Rect, tuple[Rect, ...], Rect]:
    """The Pi in the base under g1-h2 (85 x 56 mm, its USB and power towards the board's
    right edge, 2 mm clear of the frame strip), the interface board beside it, and the
    sockets in the frame's right strip."""
    right = p.playing_mm + p.border_mm
    pi = Rect(
        "Raspberry Pi (under the carrier, in the base)", right - p.frame_mm - 2 - 85, 20, 85, 56
    )
    connectors = (
        Rect("USB-C: the Pi's supply (panel socket)", right - p.frame_mm, 30, p.frame_mm, 12),
        Rect(
            "PC link: the USB-serial cable's exit (grommet)", right - p.frame_mm, 50, p.frame_mm, 18
        ),
        Rect(
            "DC jack: LED supply 5 V 4 A (5.5/2.1 mm, fuse behind it)",
            right - p.frame_mm,
            90,
            p.frame_mm,
            8,
        ),
    )
    interface = Rect(
        "interface board: J1 (male box header, ribbon to the Pi), J2-J7, U1, R1, C2",
        pi.x - 75,
        20,
        70,  # a 2x20 box header is 58 mm long: room for it and its ribbon's latch
        56,
    )
    return pi, connectors, interface


# The sockets' holes in the right frame strip, from the bottom panel up: (width, height)
# seen from outside; the strip's own length runs along y. Check them against your parts.
SOCKET_HOLES = {
    "USB-C": (12.0, 7.0),  # a panel USB-C extension's body; its screw holes as it comes
    "PC link": (18.0, 10.0),  # the USB-serial cable's USB-A plug passes, then a grommet
    "DC jack": (8.0, 8.0),  # a round 8 mm hole for the panel jack's thread
}


def reed_label(reed: Reed) -> str:
    return f"{square_name(reed.square)} ROW{reed.row + 1} COL{reed.column + 1}"


__all__ = [
    "BoardGeometry",
    "BoardParameters",
    "Channel",
    "Led",
    "Rect",
    "Reed",
    "build_geometry",
    "reed_label",
    "square_centre",
]
