"""The bill of materials: every part a maker orders, with a part number or a precise
specification, the quantity and what it is for. Pure.

Quantities come from the board's parameters, its geometry and the circuit: the reeds,
diodes and LEDs from the netlist's parts, the magnets from the pieces, wire from the
grooves' lengths, plywood from the board's size, the LED supply from the firmware's power
cap (`reedboard.hal.led_power`). `order` adds spares where parts break or get lost.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
from dataclasses import dataclass

from board_geometry import SOCKET_HOLES, BoardGeometry, BoardParameters
from reedboard.hal.led_power import DEFAULT_BUDGET_MA

PIECES = 32
SPARE_QUEENS = 2  # promotions: one extra queen per side
IDLE_MA_PER_LED = 1.0  # a dark WS2812B still draws about 1 mA
SUPPLY_HEADROOM = 1.5  # the LED supply runs at two thirds of its rating at most
LED_SUPPLY_A = 4.0
# A time-lag 5 x 20 mm fuse carries 75 % of its rating for good; the standard ratings.
FUSE_DERATING = 0.75
FUSE_RATINGS_A = (1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3)
# What the thinnest wire behind the fuse carries for good: the LED chain's 0.25 mm^2
# (24 AWG) cores, as chassis wiring.
CHAIN_WIRE_A = 3.5


# The board's voice, per Pi model: a speaker path that uses none of the pins the board takes.
# I2S (GPIO18-21) is out: GPIO19-21 are matrix lines; so is PWM audio remapped to GPIO12/13.
I2S_PINS = (18, 19, 20, 21)
SPEAKER_PATHS = {
    "Pi 3 B / B+": "a powered speaker with a 3.5 mm plug in the Pi's headphone jack; keep "
    'leds.driver = "spi": the jack\'s audio uses the PWM block the "pwm" driver takes',
    "Pi 4 B": "a powered speaker with a 3.5 mm plug in the Pi's headphone jack; keep "
    'leds.driver = "spi" (as on a Pi 3)',
    "Pi 5": "a USB speaker in one of its USB-A ports (it has no headphone jack)",
    "Zero 2 W": "a USB speaker on its USB (data) port through a micro-USB OTG adapter; the "
    "link stays on the header UART, so gadget mode and a speaker exclude each other",
}


def fuse_rating_a(load_a: float) -> float:
    """The smallest standard time-lag rating that carries `load_a` for good."""
    return next(r for r in FUSE_RATINGS_A if r * FUSE_DERATING >= load_a)


@dataclass(frozen=True)
class BomLine:
    item: str
    quantity: float
    unit: str
    order: str  # what to order, spares included
    part: str  # part number, or a precise specification
    purpose: str
    references: str = ""  # on the netlist
    footprint: str = ""


@dataclass(frozen=True)
class CircuitPart:
    """One kind of part on the netlist: its references, count, value and footprint."""

    references: str
    count: int
    value: str
    footprint: str
    place: str  # where it goes: the interface board, the frame, ...


def led_supply_current_a(led_count: int, budget_ma: float = DEFAULT_BUDGET_MA) -> float:
    """What the LED supply must deliver: the firmware's cap plus the chain's idle current,
    with headroom."""
    return (budget_ma + led_count * IDLE_MA_PER_LED) * SUPPLY_HEADROOM / 1000


def _spare(count: int, share: float, minimum: int) -> int:
    return count + max(minimum, math.ceil(count * share))


def _metres(mm: float) -> float:
    return math.ceil(mm / 100) / 10  # to the next 10 cm


def frame_hole(socket: str) -> str:
    """How the BOM names a socket's hole in the frame strip (`SOCKET_HOLES`, as
    frame-strip.dxf cuts it), so the maker can check the part against it."""
    width, height = SOCKET_HOLES[socket]
    return f"{width:g} mm round hole" if width == height else f"{width:g} x {height:g} mm hole"


def _base_screw_mm(panel_mm: float) -> float:
    """The shortest stock M2.5 screw that goes through the base's panel and holds 4 mm of
    thread in a stand-off."""
    return next(length for length in (6, 8, 10, 12, 16, 20, 25) if length >= panel_mm + 4)


def _polyline_mm(points: tuple[tuple[float, float], ...]) -> float:
    return sum(math.dist(a, b) for a, b in itertools.pairwise(points))


def bom_lines(g: BoardGeometry, circuit: dict[str, CircuitPart]) -> list[BomLine]:
    """Every line of the BOM. `circuit` maps a netlist value (`1N4148`, `WS2812B`, ...) to
    its parts on the netlist."""
    p: BoardParameters = g.parameters
    reeds, diodes, leds = circuit["Reed NO"], circuit["1N4148"], circuit["WS2812B"]
    magnets = PIECES + SPARE_QUEENS
    grooves = {c.name: _polyline_mm(c.points) for c in g.channels}
    matrix_mm = sum(v for k, v in grooves.items() if k.startswith(("ROW", "COL")))
    # Each line runs from its groove's far end to the interface board in the base.
    matrix_mm += 16 * (p.base_depth_mm + 150)
    chain_mm = grooves["LED chain"] + 150
    size = p.outer_mm
    need_a = led_supply_current_a(len(g.leds))
    on_board = " ".join(c.references for c in circuit.values() if c.place == "interface board")
    load_a = led_supply_current_a(len(g.leds)) / SUPPLY_HEADROOM
    fuse_a = fuse_rating_a(load_a)
    lines = [
        BomLine(
            "reed switch", reeds.count, "pcs", f"{_spare(reeds.count, 0.1, 4)} pcs",
            f"Form A (SPST-NO) glass reed, glass {p.reed.glass_diameter_mm:g} x "
            f"{p.reed.glass_mm:g} mm, pull-in band {p.reed.pull_in_min_at:g}-"
            f"{p.reed.pull_in_max_at:g} AT (e.g. MKA-14103 in that band)",
            "one under each square, along the rank; spares: the glass breaks if a lead is "
            "bent at the seal",
            reeds.references, reeds.footprint,
        ),
        BomLine(
            "diode", diodes.count, "pcs", f"{_spare(diodes.count, 0.1, 4)} pcs",
            "1N4148, DO-35 (e.g. onsemi 1N4148TR)",
            "in series with each reed, band to the column line: no ghosts",
            diodes.references, diodes.footprint,
        ),
        BomLine(
            "magnet", magnets, "pcs", f"{_spare(magnets, 0.15, 4)} pcs",
            f"neodymium disc {p.magnet.diameter_mm:g} x {p.magnet.thickness_mm:g} mm, grade "
            f"{p.magnet.grade}, magnetised axially (through the thickness)",
            f"one in the base of each of the {PIECES} pieces and of the {SPARE_QUEENS} spare "
            f"queens, north pole down, under {p.base_skin_mm:g} mm of wood or felt",
        ),
        BomLine(
            "LED pixel", leds.count, "pcs", f"{_spare(leds.count, 0.1, 4)} pcs",
            f"WS2812B (5050) on a round {p.led_pixel_mm:g} mm board with 5V, GND, DIN and "
            "DOUT pads",
            "one under each square's light pipe, chained in the firmware's order",
            leds.references, leds.footprint,
        ),
        BomLine(
            "light pipe", _metres(len(g.leds) * (p.top_mm + 6)), "m",
            f"{max(1.0, _metres(len(g.leds) * (p.top_mm + 6))):g} m",
            f"clear acrylic (PMMA) round rod, {p.light_pipe_mm:g} mm",
            f"cut into {len(g.leds)} pieces {p.top_mm:g} mm long (the top's thickness), "
            "glued in the top's holes, the upper end sanded matt",
        ),
        BomLine(
            "level shifter", 1, "pcs", "1 pcs", "74AHCT125, DIP-14 (e.g. TI SN74AHCT125N)",
            "on the interface board: lifts the Pi's 3.3 V LED data to 5 V",
            circuit["74AHCT125"].references,
            circuit["74AHCT125"].footprint,
        ),
        BomLine(
            "decoupling capacitor", 1, "pcs", "1 pcs", "100 nF ceramic, 50 V, 5 mm pitch",
            "on the interface board, across U1's supply pins (7 and 14)",
            circuit["100nF"].references,
            circuit["100nF"].footprint,
        ),
        BomLine(
            "resistor", 1, "pcs", "1 pcs", "330 ohm, 1/4 W, 5 %",
            "on the interface board, in the LED data line at U1's output (1Y, pin 3): damps "
            "ringing on the long wire to the first LED",
            circuit["330"].references, circuit["330"].footprint,
        ),
        BomLine(
            "bulk capacitor", 1, "pcs", "1 pcs", "1000 uF, 10 V or more, electrolytic, 10 mm",
            "at the first LED (a1), across its 5 V and GND: absorbs the switch-on surge where "
            "the chain draws it",
            circuit["1000uF 10V"].references, circuit["1000uF 10V"].footprint,
        ),
        BomLine(
            "LED supply", 1, "pcs", "1 pcs",
            f"5 V {LED_SUPPLY_A:g} A (20 W) adapter, 5.5/2.1 mm plug (e.g. Mean Well "
            "GST25E05-P1J)",
            f"the LEDs alone: the firmware caps them at {DEFAULT_BUDGET_MA / 1000:g} A, plus "
            f"{len(g.leds) * IDLE_MA_PER_LED:g} mA idle, x{SUPPLY_HEADROOM:g} headroom = "
            f"{need_a:.1f} A",
        ),
        BomLine(
            "LED supply socket", 1, "pcs", "1 pcs", "panel DC jack 5.5/2.1 mm, 5 A",
            f"in the frame strip's {frame_hole('DC jack')}: the LED supply's plug", "", "",
        ),
        BomLine(
            "fuse", 1, "pcs", "2 pcs", f"{fuse_a:g} A time-lag (T) 5 x 20 mm, with an "
            "inline holder for 0.75 mm^2 wire",
            "in the LED supply's +5 V lead, after the jack: carries the capped LEDs' "
            f"{load_a:.2f} A (at most {FUSE_DERATING:.0%} of its rating), blows before the "
            f"{LED_SUPPLY_A:g} A supply limits and before the chain's 0.25 mm^2 wire "
            f"({CHAIN_WIRE_A:g} A) overheats",
        ),
        BomLine(
            "supply terminal", 1, "pcs", "1 pcs", "2-way screw terminal, 5.08 mm pitch",
            "the LED supply on the interface board", circuit["5V 4A in"].references,
            circuit["5V 4A in"].footprint,
        ),
        BomLine(
            "Raspberry Pi", 1, "pcs", "1 pcs",
            "Raspberry Pi 4 Model B, 2 GB (a 3, 5 or Zero 2 W works too)",
            "scans the matrix, drives the LEDs, talks to the PC",
        ),
        BomLine(
            "Pi supply", 1, "pcs", "1 pcs",
            "Raspberry Pi 15.3 W USB-C power supply (5.1 V 3 A; SC0218 family); a Pi 3 or "
            "Zero 2 W: the 12.75 W micro-USB supply (5.1 V 2.5 A)",
            "the Pi's own supply: the LEDs never load the Pi's 5 V",
        ),
        BomLine(
            "Pi power socket", 1, "pcs", "1 pcs",
            "panel-mount USB-C extension, female to male, 0.3 m (micro-USB for a Pi 3 or "
            "Zero 2 W)",
            f"in the frame strip's {frame_hole('USB-C')}: the Pi's supply", "", "",
        ),
        BomLine(
            "USB-serial header", 1, "pcs", "1 pcs", "1 x 6 male pin header, 2.54 mm, straight",
            "J3 on the interface board: the USB-serial cable's socket plugs in, black wire "
            "(GND) at pin 1", circuit["USB-serial 3.3V"].references,
            circuit["USB-serial 3.3V"].footprint,
        ),
        BomLine(
            "USB-serial cable", 1, "pcs", "1 pcs",
            "USB to 3.3 V TTL serial cable, USB-A plug to 6-way 2.54 mm socket, 1.8 m (e.g. "
            "FTDI TTL-232R-3V3; a 5 V cable would harm the Pi)",
            "the link to the PC on every Pi model: the header UART (GPIO14/15, "
            f"/dev/serial0), out through the frame strip's {frame_hole('PC link')} to the "
            "PC's USB port",
        ),
        BomLine("memory card", 1, "pcs", "1 pcs", "microSD, 16 GB, A1", "Raspberry Pi OS"),
        BomLine(
            "Pi ribbon header", 1, "pcs", "1 pcs",
            "2 x 20 shrouded box header, male, 2.54 mm, straight, keyed (e.g. Wurth "
            "61204021621)",
            "J1 on the interface board: the ribbon's second socket plugs in, the key makes "
            "it go one way only", circuit["Raspberry Pi 40-pin header"].references,
            circuit["Raspberry Pi 40-pin header"].footprint,
        ),
        BomLine(
            "ribbon cable", 1, "pcs", "1 pcs",
            "40-way 2.54 mm IDC ribbon, female (IDC socket) both ends, keyed, 150 mm",
            "the Pi's male header to J1's male box header; the red wire is pin 1 at both ends",
        ),
        BomLine(
            "interface board", 1, "pcs", "1 pcs",
            f"printed circuit board, 2 layers, FR-4 1.6 mm, {g.interface.width:g} x "
            f"{g.interface.height:g} mm, from the Gerber and drill files in pcb/ (or "
            "stripboard, wired from the netlist)",
            f"carries {on_board}",
        ),
        BomLine(
            "interface board stand-offs", 4, "pcs", "4 pcs",
            "M2.5 x 10 mm stand-off, female-female, with 4 M2.5 x 6 mm screws (the board) "
            f"and 4 M2.5 x {_base_screw_mm(p.base_panel_mm):g} mm (through the "
            f"{p.base_panel_mm:g} mm base)",
            "hold the interface board over the base: its four mounting holes, and the base "
            "plate's DRILL_INTERFACE_STANDOFFS_2.7MM_THROUGH",
        ),
        BomLine(
            "matrix wire headers", 2, "pcs", "2 pcs", "1 x 8 male pin header, 2.54 mm, "
            "straight (or solder the wires into the holes)",
            "J5 (rows, pin n = ROWn) and J6 (columns, pin n = COLn) on the interface board: "
            "the 16 matrix wires land here",
            " ".join(circuit[v].references for v in ("Matrix rows", "Matrix columns")),
            circuit["Matrix rows"].footprint,
        ),
        BomLine(
            "LED data header", 1, "pcs", "1 pcs", "1 x 2 male pin header, 2.54 mm, straight",
            "J7 on the interface board: the LED chain's data wire (pin 1) and its ground "
            "(pin 2)", circuit["LED data out"].references, circuit["LED data out"].footprint,
        ),
        BomLine(
            "matrix wire", _metres(matrix_mm), "m", f"{_metres(matrix_mm * 1.3):g} m",
            "hook-up wire 0.25 mm^2 (24 AWG), two colours",
            "the 8 row lines along the ranks, the 8 column lines along the files, and down "
            "to the interface board",
        ),
        BomLine(
            "LED chain wire", _metres(chain_mm), "m", f"{_metres(chain_mm * 1.3):g} m",
            "3-core flat cable 0.25 mm^2 (or three hook-up wires)",
            "5 V, data and GND from pixel to pixel along the serpentine",
        ),
        BomLine(
            "LED power wire", 2.0, "m", "2 m", "red and black 0.75 mm^2 (18 AWG) stranded",
            "5 V and GND from the jack to both ends of the chain",
        ),
        BomLine(
            "top", 1, "pcs", "1 pcs",
            f"{p.top_material}, {p.top_mm:g} mm, {size:g} x {size:g} mm",
            "the playing surface: squares engraved or veneered, light-pipe holes drilled "
            "(top-plate.dxf)",
        ),
        BomLine(
            "carrier", 1, "pcs", "1 pcs", f"plywood, {p.carrier_mm:g} mm, {size:g} x {size:g} mm",
            "under the top: reed and LED pockets, wire grooves (carrier-plate.dxf)",
        ),
        BomLine(
            "base", 1, "pcs", "1 pcs",
            f"plywood, {p.base_panel_mm:g} mm, {size:g} x {size:g} mm, and a frame of "
            f"{p.frame_mm:g} x "
            f"{p.base_depth_mm:g} mm strips, {4 * size / 1000:g} m",
            "holds the Pi, the interface board and the sockets (base-plate.dxf)",
        ),
        BomLine(
            "chess set", PIECES + SPARE_QUEENS, "pieces", "1 set with 2 extra queens",
            f"Staunton, King about 95 mm, bases no wider than {p.largest_base_mm:g} mm, felted",
            "the pieces; each base drilled for its magnet",
        ),
        BomLine(
            "clock buttons (optional)", 2, "pcs", "2 pcs", "16 mm momentary push button, "
            "normally open, panel mount",
            "in the frame, one each side: the players' clock, pressed as FIDE 6 has it: "
            "GPIO2 and GPIO3 to ground, [clock] in the board's TOML file (hardware/README.md, "
            "section 9)", circuit["Push button 16mm"].references,
            circuit["Push button 16mm"].footprint,
        ),
        BomLine(
            "clock button header (optional)", 1, "pcs", "1 pcs",
            "1 x 3 male pin header, 2.54 mm, and a 3-way 2.54 mm socket with leads",
            "J4 on the interface board: White's button (pin 1, GPIO2), Black's (pin 2, "
            "GPIO3), ground (pin 3)", circuit["Clock buttons"].references,
            circuit["Clock buttons"].footprint,
        ),
        BomLine(
            "speaker (optional)", 1, "pcs", "1 pcs",
            "powered speaker with a 3.5 mm plug (Pi 3, 4), or a USB speaker (Pi 5; Zero 2 W "
            "with a micro-USB OTG adapter, USB-A female)",
            "the board's voice (espeak-ng), [voice] in the board's TOML file: "
            + "; ".join(f"{model}: {path}" for model, path in SPEAKER_PATHS.items()),
        ),
    ]  # fmt: skip
    return lines


def bom_csv(lines: list[BomLine], prices: dict[str, float]) -> str:
    """The BOM as CSV; `prices` maps an item to what its order costs (euros)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([
        "item", "quantity", "unit", "order", "price_eur", "part", "purpose", "references",
        "footprint",
    ])  # fmt: skip
    for line in lines:
        writer.writerow([
            line.item, f"{line.quantity:g}", line.unit, line.order, f"{prices[line.item]:.2f}",
            line.part, line.purpose, line.references, line.footprint,
        ])  # fmt: skip
    return buffer.getvalue()


__all__ = [
    "CHAIN_WIRE_A",
    "FUSE_DERATING",
    "I2S_PINS",
    "LED_SUPPLY_A",
    "PIECES",
    "SPARE_QUEENS",
    "SPEAKER_PATHS",
    "BomLine",
    "CircuitPart",
    "bom_csv",
    "bom_lines",
    "fuse_rating_a",
    "led_supply_current_a",
]
