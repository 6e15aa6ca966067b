"""Wiring pictures for the assembly guide, drawn with schemdraw as SVG.

`matrix-cell.svg`: one square's switch and diode between its row and column line.
`header-pinout.svg`: the Pi's 40-pin header with what the default pin map puts on each pin.
Both follow the firmware's default configuration, like the netlist.
"""

from __future__ import annotations

from pathlib import Path

import schemdraw
import schemdraw.elements as elm
from circuit import CLOCK_PINS, HEADER_GPIO, HEADER_GROUND, HEADER_POWER, UART_RXD, UART_TXD
from reedboard.config import LED_DATA_PIN, LedConfig, MatrixConfig

schemdraw.use("svg")  # the plain SVG backend: no fonts or matplotlib state in the output


def draw_matrix_cell(path: Path, matrix: MatrixConfig | None = None) -> None:
    matrix = matrix or MatrixConfig()
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=11, unit=2.5, margin=2.5)
        elm.Dot(open=True).label(
            f"ROW4: GPIO{matrix.rows[3]}\n(output HIGH while\nits row is scanned)", loc="left"
        )
        elm.Line().right().length(2)
        cross = elm.Dot()
        elm.Line().right().length(2).label(
            "to the other 7\nsquares of the row", loc="right", ofst=(0.2, 0)
        )
        elm.SwitchReed().down().at(cross.end).label("reed switch\nunder e4", loc="bottom", ofst=0.3)
        elm.Diode().down().label("1N4148\n(anode to the switch)", loc="bottom", ofst=0.3)
        node = elm.Dot()
        elm.Line().left().length(4.5).label("the other 7 squares\nof the column", loc="left")
        elm.Line().right().at(node.end).length(3)
        pin = elm.Dot(open=True).label(f"COL5: GPIO{matrix.columns[4]}\n(input)", loc="right")
        elm.Resistor().down().at(pin.end).label("pull-down\ninside the Pi", loc="bottom", ofst=0.3)
        elm.Ground()
        d.save(str(path))


def _pin_labels(matrix: MatrixConfig, leds: LedConfig) -> dict[int, str]:
    roles: dict[int, str] = {}
    for i, gpio in enumerate(matrix.rows):
        roles[gpio] = f"ROW{i + 1}"
    for j, gpio in enumerate(matrix.columns):
        roles[gpio] = f"COL{j + 1}"
    roles[LED_DATA_PIN[leds.driver]] = "LED data"
    roles[UART_TXD], roles[UART_RXD] = "TXD to J3", "RXD to J3"
    for side, gpio in CLOCK_PINS.items():
        roles[gpio] = f"clock {side.capitalize()}"
    labels: dict[int, str] = {}
    for num in range(1, 41):
        if num in HEADER_POWER:
            labels[num] = f"{HEADER_POWER[num]} (n.c.)"
        elif num in HEADER_GROUND:
            labels[num] = "GND"
        else:
            gpio = HEADER_GPIO[num]
            role = roles.get(gpio)
            labels[num] = f"GPIO{gpio} {role}" if role else f"GPIO{gpio} -"
    return labels


def draw_header_pinout(
    path: Path, matrix: MatrixConfig | None = None, leds: LedConfig | None = None
) -> None:
    labels = _pin_labels(matrix or MatrixConfig(), leds or LedConfig())
    with schemdraw.Drawing(show=False) as d:
        d.config(fontsize=10, margin=3)
        elm.Header(
            rows=20,
            cols=2,
            numbering="lr",
            shownumber=False,
            pinsleft=[f"{labels[n]}  [{n}]" for n in range(1, 41, 2)],
            pinsright=[f"[{n}]  {labels[n]}" for n in range(2, 41, 2)],
            pinspacing=0.6,
        ).label(
            "Raspberry Pi 40-pin header, [physical pin]\n"
            "pin 1: square pad, the end away from the USB ports",
            loc="top",
            ofst=0.4,
        )
        d.save(str(path))


def draw_all(folder: Path) -> list[Path]:
    cell, header = folder / "matrix-cell.svg", folder / "header-pinout.svg"
    draw_matrix_cell(cell)
    draw_header_pinout(header)
    return [cell, header]
