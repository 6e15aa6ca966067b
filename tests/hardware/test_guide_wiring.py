"""The wiring the maker's guide gives is the firmware's: its pin map tables are the default
`[matrix]` pins on the header pins the netlist uses, and its `[clock]` snippet, on the
netlist's button lines, is a configuration the firmware accepts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from reedboard.config import MatrixConfig, parse_config
from reedboard.errors import ConfigError

from tests.hardware.test_netlist import NETLIST, PHYSICAL, read_netlist

GUIDE = Path(__file__).resolve().parents[2] / "hardware" / "README.md"


def _table_rows(text: str, first_cell: str) -> dict[str, list[str]]:
    """The rows of the Markdown table whose header starts with `first_cell`, by first cell."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_cell} |"))
    rows = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    return rows


@pytest.mark.parametrize(
    ("kind", "pins"), [("ROW", MatrixConfig().rows), ("COL", MatrixConfig().columns)]
)
def test_the_guides_pin_map_is_the_default_matrix_on_the_netlists_header_pins(
    kind: str, pins: tuple[int, ...]
) -> None:
    # Two tables start with "| Line |": take the one whose header names this kind's lines.
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"| Line | {kind}1 |")
    table = _table_rows(text[start:], "Line")
    assert table["Line"] == [f"{kind}{n}" for n in range(1, 9)]
    assert [int(g) for g in table["GPIO (BCM)"]] == list(pins)
    assert [int(p) for p in table["header pin"]] == [PHYSICAL[g] for g in pins]
    netlist = read_netlist(NETLIST)
    for n, gpio in enumerate(pins, start=1):
        assert netlist.net_of[("J1", str(PHYSICAL[gpio]))] == f"{kind}{n}"


def _clock_snippet() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    (block,) = re.findall(r"```\n(\[clock\]\n.*?)```", text, re.S)
    return str(block)


def test_the_guides_clock_buttons_are_the_netlists_and_the_firmware_accepts_them() -> None:
    config = parse_config(_clock_snippet()).clock
    netlist = read_netlist(NETLIST)
    for button, gpio in (("BTN1", config.white_pin), ("BTN2", config.black_pin)):
        assert netlist.net_of[("J1", str(PHYSICAL[gpio]))] == netlist.net_of[(button, "1")]


def test_the_same_snippet_on_a_matrix_line_is_refused() -> None:
    # The check above would mean nothing if the configuration took any pin.
    matrix_line = MatrixConfig().rows[0]
    wrong = re.sub(r"white_pin = \d+", f"white_pin = {matrix_line}", _clock_snippet())
    with pytest.raises(ConfigError):
        parse_config(wrong)
