"""The committed KiCad netlist agrees with the firmware: pins, matrix lines, every square.

The netlist is read with a small s-expression parser written here, and checked against the
firmware's default configuration and its scanner's square-to-matrix map, with a header
pin table of its own (not the circuit's), so a slip on either side shows up.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from reedboard.config import LED_DATA_PIN, LedConfig, MatrixConfig
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.rules.squares import square_name

NETLIST = Path(__file__).resolve().parents[2] / "hardware" / "reedboard.net"

# BCM GPIO -> physical pin on the 40-pin header (Raspberry Pi pinout).
PHYSICAL = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18,
    10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32,
    13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40,
}  # fmt: skip
GROUND_PINS = {6, 9, 14, 20, 25, 30, 34, 39}

SExpr = str | list["SExpr"]
_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))')


def parse_sexpr(text: str) -> SExpr:
    """One s-expression: lists of atoms; quoted strings lose their quotes."""
    stack: list[list[SExpr]] = [[]]
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise ValueError(f"bad s-expression at offset {pos}")
        pos = match.end()
        opening, closing, quoted, atom = match.groups()
        if opening:
            stack.append([])
        elif closing:
            finished = stack.pop()
            stack[-1].append(finished)
        elif quoted is not None:
            stack[-1].append(re.sub(r"\\(.)", r"\1", quoted))
        else:
            stack[-1].append(atom)
    if len(stack) != 1 or len(stack[0]) != 1:
        raise ValueError("unbalanced s-expression")
    return stack[0][0]


def children(node: SExpr, head: str) -> list[list[SExpr]]:
    assert isinstance(node, list)
    return [c for c in node if isinstance(c, list) and c and c[0] == head]


def value(node: SExpr, head: str) -> str:
    (child,) = children(node, head)
    assert isinstance(child[1], str)
    return child[1]


@dataclass
class Netlist:
    nets: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    net_of: dict[tuple[str, str], str] = field(default_factory=dict)
    fields: dict[str, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))
    values: dict[str, str] = field(default_factory=dict)


def read_netlist(path: Path) -> Netlist:
    tree = parse_sexpr(path.read_text(encoding="utf-8"))
    assert isinstance(tree, list) and tree[0] == "export"
    netlist = Netlist()
    (components,) = children(tree, "components")
    for comp in children(components, "comp"):
        ref = value(comp, "ref")
        netlist.values[ref] = value(comp, "value")
        for fields in children(comp, "fields"):
            for fld in children(fields, "field"):
                if len(fld) == 3:
                    netlist.fields[ref][value(fld, "name")] = str(fld[2])
    (nets,) = children(tree, "nets")
    for net in children(nets, "net"):
        name = value(net, "name")
        nodes = {(value(n, "ref"), value(n, "pin")) for n in children(net, "node")}
        netlist.nets[name] = nodes
        for node in nodes:
            assert node not in netlist.net_of, f"{node} on two nets"
            netlist.net_of[node] = name
    return netlist


@pytest.fixture(scope="module")
def netlist() -> Netlist:
    return read_netlist(NETLIST)


def test_parser_reads_nested_lists_and_strings() -> None:
    assert parse_sexpr('(a (b "c d") e "f\\"g")') == ["a", ["b", "c d"], "e", 'f"g']
    with pytest.raises(ValueError):
        parse_sexpr("(a (b)")


def test_every_row_gpio_is_wired_to_its_row_net(netlist: Netlist) -> None:
    for i, gpio in enumerate(MatrixConfig().rows):
        assert netlist.net_of[("J1", str(PHYSICAL[gpio]))] == f"ROW{i + 1}", f"GPIO{gpio}"


def test_every_column_gpio_is_wired_to_its_column_net(netlist: Netlist) -> None:
    for j, gpio in enumerate(MatrixConfig().columns):
        assert netlist.net_of[("J1", str(PHYSICAL[gpio]))] == f"COL{j + 1}", f"GPIO{gpio}"


def test_each_line_carries_eight_cells_a_header_pin_and_a_wire_pin(netlist: Netlist) -> None:
    for n in range(1, 9):
        row = sorted(ref for ref, _ in netlist.nets[f"ROW{n}"])
        assert [ref for ref in row if not ref.startswith("SW")] == ["J1", "J5"]
        assert len(row) == 10
        column = sorted(ref for ref, _ in netlist.nets[f"COL{n}"])
        assert [ref for ref in column if not ref.startswith("D")] == ["J1", "J6"]
        assert len(column) == 10


def test_each_square_switch_sits_where_the_scanner_reads_it(netlist: Netlist) -> None:
    layout = MatrixLayout(MatrixConfig().a1, MatrixConfig().rows_are)
    switch_of = {f["Square"]: ref for ref, f in netlist.fields.items() if ref.startswith("SW")}
    diode_of = {f["Square"]: ref for ref, f in netlist.fields.items() if ref.startswith("D")}
    assert len(switch_of) == len(diode_of) == 64
    for sq in range(64):
        name = square_name(sq)
        row, column = layout.cell_of(sq)
        sw, d = switch_of[name], diode_of[name]
        # Row line -> switch -> diode anode; cathode -> column line, as the scanner assumes
        # (it drives rows HIGH and reads columns pulled down).
        assert netlist.net_of[(sw, "1")] == f"ROW{row + 1}", name
        middle = netlist.net_of[(sw, "2")]
        assert netlist.nets[middle] == {(sw, "2"), (d, "2")}, name  # pin 2 = anode
        assert netlist.net_of[(d, "1")] == f"COL{column + 1}", name  # pin 1 = cathode


def test_led_data_goes_from_the_configured_pin_through_the_level_shifter(netlist: Netlist) -> None:
    data_gpio = LED_DATA_PIN[LedConfig().driver]
    assert data_gpio not in MatrixConfig().rows + MatrixConfig().columns
    data_3v3 = netlist.net_of[("J1", str(PHYSICAL[data_gpio]))]
    assert ("U1", "2") in netlist.nets[data_3v3]  # 1A
    assert netlist.values["U1"] == "74AHCT125"
    buffered = netlist.net_of[("U1", "3")]  # 1Y
    resistor = next(ref for ref, _ in netlist.nets[buffered] if ref.startswith("R"))
    din = netlist.net_of[(resistor, "2")]
    assert ("LED1", "4") in netlist.nets[din]  # DIN of the first LED
    assert netlist.net_of[("U1", "1")] == "GND"  # 1OE active low: enabled


def test_led_chain_and_supply(netlist: Netlist) -> None:
    count = LedConfig().count
    for k in range(1, count):
        assert netlist.net_of[(f"LED{k}", "2")] == netlist.net_of[(f"LED{k + 1}", "4")]
    for k in range(1, count + 1):
        assert netlist.net_of[(f"LED{k}", "1")] == "+5V"
        assert netlist.net_of[(f"LED{k}", "3")] == "GND"
    bulk = [ref for ref, v in netlist.values.items() if ref.startswith("C") and "uF" in v]
    assert bulk and {netlist.net_of[(bulk[0], "1")], netlist.net_of[(bulk[0], "2")]} == {
        "+5V",
        "GND",
    }
    assert netlist.net_of[("U1", "14")] == "+5V"


def test_pi_ground_is_common_with_the_led_supply(netlist: Netlist) -> None:
    for pin in GROUND_PINS:
        assert netlist.net_of[("J1", str(pin))] == "GND"
    assert ("J2", "2") in netlist.nets["GND"]


def test_the_header_uart_reaches_the_usb_serial_cable_crossed_over(netlist: Netlist) -> None:
    # The link to the PC on every model: the Pi's TXD (GPIO14) into the cable's RXD and the
    # cable's TXD into the Pi's RXD (GPIO15); the cable's 5 V must never reach the Pi.
    assert netlist.values["J3"] == "USB-serial 3.3V"
    pin = {"GND": "1", "CTS": "2", "VCC": "3", "TXD": "4", "RXD": "5", "RTS": "6"}
    assert netlist.net_of[("J1", str(PHYSICAL[14]))] == netlist.net_of[("J3", pin["RXD"])]
    assert netlist.net_of[("J1", str(PHYSICAL[15]))] == netlist.net_of[("J3", pin["TXD"])]
    assert netlist.net_of[("J3", pin["GND"])] == "GND"
    for free in ("VCC", "CTS", "RTS"):
        assert ("J3", pin[free]) not in netlist.net_of


def test_the_clock_buttons_are_wired_from_gpio2_and_gpio3_to_ground(netlist: Netlist) -> None:
    # hardware/README.md, section 9: White's button on GPIO2 (pin 3), Black's on GPIO3
    # (pin 5), each to ground, through J4 on the interface board.
    for gpio, j4_pin, button in ((2, "1", "BTN1"), (3, "2", "BTN2")):
        line = netlist.net_of[("J1", str(PHYSICAL[gpio]))]
        assert netlist.nets[line] == {("J1", str(PHYSICAL[gpio])), ("J4", j4_pin), (button, "1")}
        assert netlist.net_of[(button, "2")] == "GND"
    assert netlist.net_of[("J4", "3")] == "GND"
