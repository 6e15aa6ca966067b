"""The bill of materials agrees with the board's parameters, the circuit and the
firmware's LED power cap."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

import pytest
from board_geometry import BoardParameters, build_geometry
from bom import (
    CHAIN_WIRE_A,
    FUSE_DERATING,
    LED_SUPPLY_A,
    PIECES,
    SPARE_QUEENS,
    fuse_rating_a,
    led_supply_current_a,
)
from reedboard.config import LedConfig
from reedboard.hal.led_power import CHANNEL_MA, DEFAULT_BUDGET_MA

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
BOM = HARDWARE / "reedboard-bom.csv"
NETLIST = HARDWARE / "reedboard.net"


@pytest.fixture(scope="module")
def rows() -> dict[str, dict[str, str]]:
    with BOM.open(encoding="utf-8") as handle:
        return {row["item"]: row for row in csv.DictReader(handle)}


def _number(text: str) -> float:
    match = re.match(r"[\d.]+", text)
    assert match, text
    return float(match.group())


def test_one_reed_diode_and_led_per_square_and_a_magnet_per_piece(
    rows: dict[str, dict[str, str]],
) -> None:
    geometry = build_geometry()
    assert int(rows["reed switch"]["quantity"]) == len(geometry.reeds) == 64
    assert int(rows["diode"]["quantity"]) == 64
    assert int(rows["LED pixel"]["quantity"]) == len(geometry.leds) == LedConfig().count
    assert int(rows["magnet"]["quantity"]) == PIECES + SPARE_QUEENS == 34
    for item in ("reed switch", "diode", "LED pixel", "magnet"):
        assert _number(rows[item]["order"]) > _number(rows[item]["quantity"])  # spares


def test_specifications_follow_the_parameters(rows: dict[str, dict[str, str]]) -> None:
    p = BoardParameters()
    assert f"{p.reed.pull_in_min_at:g}-{p.reed.pull_in_max_at:g} AT" in rows["reed switch"]["part"]
    magnet = rows["magnet"]["part"]
    assert f"{p.magnet.diameter_mm:g} x {p.magnet.thickness_mm:g} mm" in magnet
    assert p.magnet.grade in magnet
    assert f"{p.light_pipe_mm:g} mm" in rows["light pipe"]["part"]
    # Enough rod for 64 pieces as long as the top is thick, saw cuts included.
    assert _number(rows["light pipe"]["order"]) * 1000 >= 64 * (p.top_mm + 3)
    assert f"{p.top_mm:g} mm, {p.outer_mm:g} x {p.outer_mm:g} mm" in rows["top"]["part"]


def test_the_led_supply_is_sized_from_the_firmware_cap(rows: dict[str, dict[str, str]]) -> None:
    need = led_supply_current_a(64)
    assert need == pytest.approx((DEFAULT_BUDGET_MA + 64) * 1.5 / 1000)
    assert need <= LED_SUPPLY_A
    # Full white on every LED (the cap off) would want nearly all of it.
    assert 64 * 3 * CHANNEL_MA / 1000 <= LED_SUPPLY_A
    assert f"5 V {LED_SUPPLY_A:g} A" in rows["LED supply"]["part"]
    assert f"{DEFAULT_BUDGET_MA / 1000:g} A" in rows["LED supply"]["purpose"]
    # The fuse carries the capped load for good, yet protects: it must blow before the
    # supply's own limit (above its rating) steps in, and before the chain's wire
    # overheats. A fuse at or above the supply's rating would protect nothing.
    fuse = _number(rows["fuse"]["part"])
    load = (DEFAULT_BUDGET_MA + 64) / 1000
    assert fuse == fuse_rating_a(load) == 3.15
    assert fuse * FUSE_DERATING >= load
    assert fuse < LED_SUPPLY_A and fuse <= CHAIN_WIRE_A
    assert f"{fuse:g} A time-lag" in rows["fuse"]["part"]


def test_every_part_a_maker_orders_is_listed(rows: dict[str, dict[str, str]]) -> None:
    wanted = {
        "reed switch", "diode", "magnet", "LED pixel", "level shifter", "decoupling capacitor",
        "resistor", "bulk capacitor", "Raspberry Pi", "Pi supply", "LED supply", "fuse",
        "Pi ribbon header", "LED supply socket", "matrix wire", "LED chain wire",
        "LED power wire", "top", "carrier", "base", "light pipe",
        "clock buttons (optional)", "speaker (optional)",
    }  # fmt: skip
    assert wanted <= set(rows)


def test_the_pi_header_on_the_interface_board_mates_with_the_ribbon(
    rows: dict[str, dict[str, str]],
) -> None:
    # The ribbon is female at both ends (IDC sockets); the Pi's header is male, so J1 must be
    # male too: a socket on J1 would leave two female ends facing each other.
    assert "female (IDC socket) both ends" in rows["ribbon cable"]["part"]
    header = rows["Pi ribbon header"]
    assert header["references"] == "J1"
    assert "male" in header["part"]
    assert "female" not in header["part"] and "socket" not in header["part"].lower()
    assert "PinSocket" not in header["footprint"]
    assert header["footprint"].startswith(("Connector_IDC:IDC-Header", "Connector_PinHeader"))
    netlist = NETLIST.read_text(encoding="utf-8")
    j1 = netlist[netlist.index('(ref "J1")') :]
    j1 = j1[: j1.index("(comp")]
    assert f'(footprint "{header["footprint"]}")' in j1  # the netlist says the same
    assert "female" not in j1


def test_every_pi_model_has_a_link_to_the_pc_made_of_bom_parts(
    rows: dict[str, dict[str, str]],
) -> None:
    from reedboard.config import SerialConfig

    # The default link is the header UART; the BOM carries the 3.3 V cable it needs, and no
    # USB-A socket (the Pi's USB-A ports are hosts, they cannot reach a PC).
    assert SerialConfig().port == "/dev/serial0"
    cable = rows["USB-serial cable"]["part"]
    assert "3.3 V" in cable and "USB-A plug" in cable
    assert rows["USB-serial header"]["references"] == "J3"
    assert not any("USB-A" in row["part"] and "socket" in item for item, row in rows.items())
    # Each model's row in both tables names its link.
    docs = HARDWARE.parent / "docs" / "building.md"
    for text in (
        (HARDWARE / "README.md").read_text(encoding="utf-8"),
        docs.read_text(encoding="utf-8"),
    ):
        for model in ("Pi 3 B / B+", "Pi 4 B", "Pi 5", "Zero 2 W"):
            (line,) = [
                x for x in text.splitlines() if x.startswith(f"| {model} ") and "header UART" in x
            ]
            assert "header UART" in line and "/dev/serial0" in line, line


def test_every_part_goes_where_the_netlist_and_the_bom_both_say(
    rows: dict[str, dict[str, str]],
) -> None:
    # The netlist's Place field and the BOM's purpose agree, and the interface board's line
    # lists exactly the parts placed on it.
    netlist = NETLIST.read_text(encoding="utf-8")
    place = dict(
        re.findall(r'\(ref "(\w+)"\)(?:(?!\(comp).)*?\(name "Place"\) "([^"]*)"', netlist, re.S)
    )
    assert place["C1"].startswith("at the first LED") and place["R1"] == "interface board"
    on_board = {ref for ref, where in place.items() if where == "interface board"}
    assert on_board == {"J1", "J2", "J3", "J4", "J5", "J6", "J7", "U1", "R1", "C2"}
    board = build_geometry().interface  # the size the base's drawing marks
    assert f"{board.width:g} x {board.height:g} mm" in rows["interface board"]["part"]
    listed = rows["interface board"]["purpose"]
    assert set(re.findall(r"\b[A-Z]+\d+\b", listed)) == on_board
    for row in rows.values():
        for ref in row["references"].split():
            where = place[ref.split("-")[0]]
            if where == "under the squares":
                continue  # the reeds, diodes and LEDs: one under each square
            words = "the first LED" if where.startswith("at the first LED") else where
            assert words in row["purpose"], (ref, row["purpose"])


def test_every_model_has_a_speaker_path_clear_of_the_boards_pins(
    rows: dict[str, dict[str, str]],
) -> None:
    from bom import I2S_PINS, SPEAKER_PATHS
    from reedboard.config import MatrixConfig

    # I2S would take matrix lines: the BOM and the guide never offer it.
    matrix = set(MatrixConfig().rows) | set(MatrixConfig().columns)
    assert set(I2S_PINS) & matrix
    speaker = rows["speaker (optional)"]
    assert "I2S" not in speaker["part"]
    guide = (HARDWARE / "README.md").read_text(encoding="utf-8")
    for model, path in SPEAKER_PATHS.items():
        assert f"{model}: {path}" in speaker["purpose"]
        (line,) = [
            x
            for x in guide.splitlines()
            if x.startswith(f"| {model} |") and "speaker" in x and "header UART" not in x
        ]
        assert ("3.5 mm" in line) == ("3.5 mm" in path) and ("USB" in line) == ("USB" in path)
    # The jack's PWM audio and the pwm LED driver share a block: the jack paths keep spi.
    assert all('"spi"' in p for p in SPEAKER_PATHS.values() if "in the Pi's headphone jack" in p)


def test_every_line_has_a_price_and_the_summary_adds_them_up(
    rows: dict[str, dict[str, str]],
) -> None:
    prices = {item: float(row["price_eur"]) for item, row in rows.items()}
    assert all(price > 0 for price in prices.values()), prices
    summary = (HARDWARE / "reedboard-bom.md").read_text(encoding="utf-8")
    # The summary lists each line with the CSV's price, then the two totals.
    for item, price in prices.items():
        assert f"| {item} | {rows[item]['order']} | {price:.2f} |" in summary, item
    board = sum(p for item, p in prices.items() if "(optional)" not in item)
    totals = re.findall(r"\*\*total, [^*]+\*\* \| \| \*\*([\d.]+)\*\*", summary)
    assert [float(t) for t in totals] == [round(board, 2), round(sum(prices.values()), 2)]
    # The price's source, date and currency are said; a few of the figures are checked.
    assert "2025" in summary and "euros" in summary and "without VAT" in summary
    assert prices["reed switch"] == pytest.approx(_number(rows["reed switch"]["order"]) * 1.10)
    assert "## Tools" in summary and "soldering iron" in summary


def test_an_order_without_a_number_or_an_item_without_a_price_is_refused() -> None:
    from bom import BomLine
    from bom_prices import line_price

    with pytest.raises(ValueError, match="without a quantity"):
        line_price(BomLine("diode", 1, "pcs", "some", "1N4148", "x"))
    with pytest.raises(ValueError, match="no price for BOM item 'gizmo'"):
        line_price(BomLine("gizmo", 1, "pcs", "1 pcs", "x", "x"))


def test_the_guide_quotes_the_summarys_totals() -> None:
    summary = (HARDWARE / "reedboard-bom.md").read_text(encoding="utf-8")
    board, everything = (
        float(t) for t in re.findall(r"\*\*total, [^*]+\*\* \| \| \*\*([\d.]+)\*\*", summary)
    )
    guide = " ".join((HARDWARE / "README.md").read_text(encoding="utf-8").split())
    assert f"about {round(board)} EUR for the board, {round(everything)} EUR with" in guide


def test_the_guide_starts_with_the_coupon_and_names_only_its_own_sections() -> None:
    guide = (HARDWARE / "README.md").read_text(encoding="utf-8")
    headings = re.findall(r"(?m)^## (\d+)\. (.*)$", guide)
    assert [int(n) for n, _ in headings] == list(range(1, len(headings) + 1))
    titles = [t for _, t in headings]
    assert "test coupon" in titles[0]
    # A maker's order: buy, cut, fit the reeds, the interface board, wire, check, run.
    for earlier, later in [
        ("What to buy", "Cutting and drilling"),
        ("Cutting and drilling", "Reeds and magnets"),
        ("The interface board", "Wiring the matrix"),
        ("Wiring the matrix", "The first `reedboard scan --check`"),
        ("The first `reedboard scan --check`", "The service"),
    ]:
        assert titles.index(earlier) < titles.index(later)
    for number in re.findall(r"sections? (\d+)", guide):
        assert 1 <= int(number) <= len(titles), number


def test_each_frame_socket_in_the_bom_names_the_hole_the_frame_strip_cuts(
    rows: dict[str, dict[str, str]],
) -> None:
    from ezdxf.filemanagement import readfile

    geometry = build_geometry()
    p = geometry.parameters
    strip = readfile(str(HARDWARE / "frame-strip.dxf")).modelspace()
    holes = [
        (float(c.dxf.center.x), 2 * float(c.dxf.radius), 2 * float(c.dxf.radius))
        for c in strip.query("CIRCLE[layer=='CUT_SOCKET_HOLES_THROUGH']")
    ]
    for e in strip.query("LWPOLYLINE[layer=='CUT_SOCKET_HOLES_THROUGH']"):
        corners: Any = e.get_points()  # type: ignore[attr-defined]
        xs = [float(x) for x, *_ in corners]
        ys = [float(y) for _, y, *_ in corners]
        holes.append(((min(xs) + max(xs)) / 2, max(xs) - min(xs), max(ys) - min(ys)))
    bom_item = {"USB-C": "Pi power socket", "PC link": "USB-serial cable",
                "DC jack": "LED supply socket"}  # fmt: skip
    for socket in geometry.connectors:
        along = socket.y + p.border_mm + socket.height / 2  # the strip runs from rank 1's end
        ((_, width, height),) = [h for h in holes if abs(h[0] - along) < 0.01]
        size = f"{width:g} mm round hole" if width == height else f"{width:g} x {height:g} mm hole"
        purpose = rows[bom_item[socket.name.split(":")[0]]]["purpose"]
        assert f"frame strip's {size}" in purpose, (socket.name, purpose)
