"""The reedboard circuit as code (SKiDL): switch matrix, Pi header, LED chain and its supply.

Parts are defined here, not taken from KiCad's libraries, so the circuit builds anywhere
SKiDL installs. The matrix pins and the orientation come from the firmware's default
configuration, so the netlist and `reedboard scan` cannot drift apart unnoticed (a test
reads the committed netlist back and checks it against the firmware).

Net names the firmware relies on:
- ROW1..ROW8: row line i+1 of the matrix, on BCM pin `MatrixConfig().rows[i]`;
- COL1..COL8: column line j+1, on BCM pin `MatrixConfig().columns[j]`;
- SWn (n = square + 1, SW1 = a1 ... SW64 = h8) sits between its row line and net
  `SQ_<square>`, and diode Dn goes from there (anode) to its column line (cathode);
- CLOCK_WHITE, CLOCK_BLACK: the optional clock buttons on GPIO2 and GPIO3 (`CLOCK_PINS`,
  the pins `[clock]` is given in hardware/README.md), through J4 on the interface board,
  each button to ground.

Every part has a `Place` field: where it goes on the board (the BOM says the same).
"""

from __future__ import annotations

from typing import Any

from reedboard.config import LED_DATA_PIN, LedConfig, MatrixConfig
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import square_name
from skidl import TEMPLATE, Circuit, Net, Part, Pin

PASSIVE, INPUT, OUTPUT, TRISTATE, BIDIR, PWRIN, PWROUT = (
    Pin.types.PASSIVE,
    Pin.types.INPUT,
    Pin.types.OUTPUT,
    Pin.types.TRISTATE,
    Pin.types.BIDIR,
    Pin.types.PWRIN,
    Pin.types.PWROUT,
)

# The Raspberry Pi 40-pin header: physical pin -> (name, kind). Same on every Pi with it.
HEADER_POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}
HEADER_GROUND = (6, 9, 14, 20, 25, 30, 34, 39)
HEADER_GPIO = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24,
    19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12,
    33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
}  # fmt: skip
PHYSICAL_PIN_OF_GPIO = {gpio: physical for physical, gpio in HEADER_GPIO.items()}
# The clock buttons: the two header GPIOs the reference build leaves free; their fixed
# pull-ups hold a button's line HIGH until a press pulls it LOW.
CLOCK_PINS = {"WHITE": 2, "BLACK": 3}
UART_TXD, UART_RXD = 14, 15  # the header UART: the link to the PC (`/dev/serial0`)
# The 3.3 V USB-serial cable's 6-way socket (FTDI TTL-232R-3V3 order): pin -> name.
SERIAL_CABLE_PINS = {1: "GND", 2: "CTS", 3: "VCC", 4: "TXD", 5: "RXD", 6: "RTS"}


def _template(name: str, prefix: str, pins: list[tuple[int, str, Any]], **attrs: Any) -> Part:
    return Part(
        tool="skidl",
        name=name,
        ref_prefix=prefix,
        dest=TEMPLATE,
        pins=[Pin(num=num, name=pin_name, func=func) for num, pin_name, func in pins],
        **attrs,
    )


def _header_pins() -> list[tuple[int, str, Any]]:
    pins: list[tuple[int, str, Any]] = []
    for num in range(1, 41):
        if num in HEADER_POWER:
            pins.append((num, HEADER_POWER[num], PASSIVE))
        elif num in HEADER_GROUND:
            pins.append((num, "GND", PASSIVE))
        else:
            pins.append((num, f"GPIO{HEADER_GPIO[num]}", BIDIR))
    return pins


INTERFACE_BOARD = "interface board"
FIRST_LED = "at the first LED (a1), across its 5 V and GND"
UNDER_SQUARES = "under the squares"
IN_THE_FRAME = "in the frame"
PLACES = {
    "J1": INTERFACE_BOARD, "J2": INTERFACE_BOARD, "J3": INTERFACE_BOARD,
    "J4": INTERFACE_BOARD, "U1": INTERFACE_BOARD, "R1": INTERFACE_BOARD,
    "C2": INTERFACE_BOARD, "J5": INTERFACE_BOARD, "J6": INTERFACE_BOARD,
    "J7": INTERFACE_BOARD, "C1": FIRST_LED, "BTN1": IN_THE_FRAME, "BTN2": IN_THE_FRAME,
}  # fmt: skip


def place_of(ref: str) -> str:
    """Where part `ref` goes: the interface board, the frame, by the first LED, or under
    the squares (the reeds, diodes and LEDs)."""
    return PLACES.get(ref, UNDER_SQUARES)


def build_circuit(matrix: MatrixConfig | None = None, leds: LedConfig | None = None) -> Circuit:
    """The whole board as a SKiDL circuit (nothing is written to disk)."""
    matrix = matrix or MatrixConfig()
    leds = leds or LedConfig()
    layout = MatrixLayout(matrix.a1, matrix.rows_are)
    circuit = Circuit()
    circuit.no_files = True

    with circuit:
        reed = _template(
            "Reed_NO", "SW", [(1, "1", PASSIVE), (2, "2", PASSIVE)],
            value="Reed NO",
            description="reed switch, normally open, glass 2x14 mm (e.g. MKA-14103)",
            footprint="Resistor_THT:R_Axial_DIN0617_L17.0mm_D6.0mm_P20.32mm_Horizontal",
        )  # fmt: skip
        diode = _template(
            "1N4148", "D", [(1, "K", PASSIVE), (2, "A", PASSIVE)],
            value="1N4148",
            description="small-signal diode: blocks ghost paths in the matrix",
            footprint="Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
        )  # fmt: skip
        header = _template(
            "RPi_GPIO_2x20", "J", _header_pins(),
            value="Raspberry Pi 40-pin header",
            description=(
                "2x20 shrouded box header, male, keyed: the ribbon from the Pi's header "
                "plugs in (any 40-pin Pi: 3, 4, 5, Zero 2 W)"
            ),
            footprint="Connector_IDC:IDC-Header_2x20_P2.54mm_Vertical",
        )  # fmt: skip
        power_in = _template(
            "Power_5V", "J", [(1, "+5V", PWROUT), (2, "GND", PWROUT)],
            value="5V 4A in",
            description="LED supply input, 5 V, at least 4 A (screw terminal)",
            footprint="TerminalBlock:TerminalBlock_bornier-2_P5.08mm",
        )  # fmt: skip
        shifter = _template(
            "74AHCT125", "U",
            [
                (1, "1OE", INPUT), (2, "1A", INPUT), (3, "1Y", TRISTATE),
                (4, "2OE", INPUT), (5, "2A", INPUT), (6, "2Y", TRISTATE), (7, "GND", PWRIN),
                (8, "3Y", TRISTATE), (9, "3A", INPUT), (10, "3OE", INPUT),
                (11, "4Y", TRISTATE), (12, "4A", INPUT), (13, "4OE", INPUT), (14, "VCC", PWRIN),
            ],
            value="74AHCT125",
            description="quad buffer, TTL inputs at 5 V: lifts the Pi's 3.3 V data to 5 V",
            footprint="Package_DIP:DIP-14_W7.62mm",
        )  # fmt: skip
        resistor = _template(
            "R", "R", [(1, "1", PASSIVE), (2, "2", PASSIVE)],
            value="330",
            description="series resistor on the LED data line: damps ringing, protects DIN",
            footprint="Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
        )  # fmt: skip
        capacitor = _template(
            "C", "C", [(1, "1", PASSIVE), (2, "2", PASSIVE)],
            footprint="Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm",
        )  # fmt: skip
        pixel = _template(
            "WS2812B", "LED",
            [(1, "VDD", PWRIN), (2, "DOUT", OUTPUT), (3, "VSS", PWRIN), (4, "DIN", INPUT)],
            value={"ws2812": "WS2812B", "sk6812": "SK6812"}[leds.type],
            description="addressable RGB LED (strip segment), one under each square",
            footprint="LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
        )  # fmt: skip

        serial_cable = _template(
            "Serial_Cable_1x6", "J",
            [(n, name, PASSIVE) for n, name in SERIAL_CABLE_PINS.items()],
            value="USB-serial 3.3V",
            description=(
                "1x6 male pin header: the 3.3 V USB-serial cable's socket plugs in (GND, the "
                "black wire, at pin 1); the link to the PC"
            ),
            footprint="Connector_PinHeader_2.54mm:PinHeader_1x06_P2.54mm_Vertical",
        )  # fmt: skip

        clock_header = _template(
            "Clock_1x3", "J", [(1, "WHITE", PASSIVE), (2, "BLACK", PASSIVE), (3, "GND", PASSIVE)],
            value="Clock buttons",
            description="1x3 male pin header: the clock buttons' wires (optional)",
            footprint="Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical",
        )  # fmt: skip
        button = _template(
            "Button_NO", "BTN", [(1, "1", PASSIVE), (2, "2", PASSIVE)],
            value="Push button 16mm",
            description="momentary push button, normally open, 16 mm panel (optional)",
            footprint="Connector_Wire:SolderWire-0.5sqmm_1x02_P4.6mm_D0.9mm_OD2.1mm",
        )  # fmt: skip

        # Where the wires from under the squares land on the interface board: the row
        # lines, the column lines, and the LED chain's data with its ground reference.
        matrix_wires = _template(
            "Wires_1x8", "J", [(n, str(n), PASSIVE) for n in range(1, 9)],
            footprint="Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical",
            description="1x8 male pin header, or the wires soldered straight into its holes",
        )  # fmt: skip
        chain_out = _template(
            "LED_Out_1x2", "J", [(1, "DIN", PASSIVE), (2, "GND", PASSIVE)],
            value="LED data out",
            description="1x2 male pin header: the LED chain's data wire and its ground",
            footprint="Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical",
        )  # fmt: skip

        gnd, v5 = Net("GND"), Net("+5V")
        rows = [Net(f"ROW{i + 1}") for i in range(8)]
        columns = [Net(f"COL{j + 1}") for j in range(8)]

        j1 = header(ref="J1", tag="J1")
        for num in HEADER_GROUND:
            gnd += j1[num]  # common ground between the Pi and the LED supply
        for num in HEADER_POWER:
            j1[num] += circuit.NC  # the Pi has its own supply; the LEDs never load its rails
        used = {PHYSICAL_PIN_OF_GPIO[pin] for pin in (*matrix.rows, *matrix.columns)}
        for i, pin in enumerate(matrix.rows):
            rows[i] += j1[PHYSICAL_PIN_OF_GPIO[pin]]
        for j, pin in enumerate(matrix.columns):
            columns[j] += j1[PHYSICAL_PIN_OF_GPIO[pin]]
        j5 = matrix_wires(ref="J5", tag="J5", value="Matrix rows")
        j6 = matrix_wires(ref="J6", tag="J6", value="Matrix columns")
        for k in range(8):
            rows[k] += j5[k + 1]
            columns[k] += j6[k + 1]

        # The matrix: row -> switch -> diode (anode to cathode) -> column.
        for sq in range(64):
            row, column = layout.cell_of(sq)
            name = square_name(sq)
            sw = reed(ref=f"SW{sq + 1}", tag=f"SW{sq + 1}")
            sw.fields["Square"] = name
            d = diode(ref=f"D{sq + 1}", tag=f"D{sq + 1}")
            d.fields["Square"] = name
            middle = Net(f"SQ_{name}")
            rows[row] += sw[1]
            middle += sw[2], d["A"]
            columns[column] += d["K"]

        # The link to the PC: the Pi's TXD to the cable's RXD and back; the cable's own 5 V
        # (VCC) and its handshake lines stay unconnected.
        j3 = serial_cable(ref="J3", tag="J3")
        pi_tx, pi_rx = Net("UART_PI_TX"), Net("UART_PI_RX")
        pi_tx += j1[PHYSICAL_PIN_OF_GPIO[UART_TXD]], j3["RXD"]
        pi_rx += j1[PHYSICAL_PIN_OF_GPIO[UART_RXD]], j3["TXD"]
        gnd += j3["GND"]
        for name in ("CTS", "VCC", "RTS"):
            j3[name] += circuit.NC
        used |= {PHYSICAL_PIN_OF_GPIO[UART_TXD], PHYSICAL_PIN_OF_GPIO[UART_RXD]}

        # The clock buttons: each between its GPIO (fixed pull-up on GPIO2/3) and ground,
        # wired to the frame from J4.
        j4 = clock_header(ref="J4", tag="J4")
        gnd += j4["GND"]
        for k, (side, pin) in enumerate(CLOCK_PINS.items()):
            line = Net(f"CLOCK_{side}")
            btn = button(ref=f"BTN{k + 1}", tag=f"BTN{k + 1}")
            line += j1[PHYSICAL_PIN_OF_GPIO[pin]], j4[side], btn[1]
            gnd += btn[2]
            used.add(PHYSICAL_PIN_OF_GPIO[pin])

        # LED data: Pi GPIO (3.3 V) -> 74AHCT125 -> 330 ohm -> first LED's DIN.
        data_pin = LED_DATA_PIN[leds.driver]
        used.add(PHYSICAL_PIN_OF_GPIO[data_pin])
        data_3v3, data_5v, din = Net("LED_DATA_3V3"), Net("LED_DATA_5V"), Net("LED_DIN")
        data_3v3 += j1[PHYSICAL_PIN_OF_GPIO[data_pin]]
        u1 = shifter(ref="U1", tag="U1")
        v5 += u1["VCC"]
        gnd += u1["GND"], u1["1OE"]  # OE is active low: the first buffer always drives
        data_3v3 += u1["1A"]
        data_5v += u1["1Y"]
        for gate in "234":
            v5 += u1[f"{gate}OE"]  # unused buffers off, inputs tied so they cannot float
            gnd += u1[f"{gate}A"]
            u1[f"{gate}Y"] += circuit.NC
        for num in HEADER_GPIO:
            if num not in used:
                j1[num] += circuit.NC
        r1 = resistor(ref="R1", tag="R1")
        data_5v += r1[1]
        din += r1[2]
        j7 = chain_out(ref="J7", tag="J7")
        din += j7["DIN"]
        gnd += j7["GND"]

        c1 = capacitor(ref="C1", tag="C1", value="1000uF 10V")
        c1.description = "bulk capacitor at the strip's supply input: absorbs inrush"
        c1.footprint = "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm"
        c2 = capacitor(ref="C2", tag="C2", value="100nF")
        c2.description = "decoupling for U1"
        v5 += c1[1], c2[1]
        gnd += c1[2], c2[2]

        j2 = power_in(ref="J2", tag="J2")
        v5 += j2["+5V"]
        gnd += j2["GND"]

        # The chain: DOUT of each LED feeds DIN of the next.
        previous = din
        for k in range(leds.count):
            led = pixel(ref=f"LED{k + 1}", tag=f"LED{k + 1}")
            v5 += led["VDD"]
            gnd += led["VSS"]
            previous += led["DIN"]
            if k + 1 < leds.count:
                previous = Net(f"LED_CHAIN_{k + 1}")
                previous += led["DOUT"]
            else:
                led["DOUT"] += circuit.NC
        for part in circuit.parts:
            part.fields["Place"] = place_of(str(part.ref))
    return circuit
