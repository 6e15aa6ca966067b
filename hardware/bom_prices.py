"""What the board costs, and the tools it takes: the BOM's price column and its summary.

Each price is a typical single-unit price of the part as the BOM specifies it, from
electronics distributors' and hobby suppliers' list prices (wood, magnets, the chess set)
of 2025, in euros without VAT or shipping. A line costs its `order` (spares included) at
that price. Prices drift and vary by shop: they are there to budget with, not to pay.
"""

from __future__ import annotations

import re

from bom import BomLine

CURRENCY = "EUR"
PRICE_SOURCE = (
    "typical single-unit prices from electronics distributors' and hobby suppliers' list "
    "prices of 2025, in euros, without VAT or shipping; check them when ordering"
)
# item -> (price of one unit of its order: a piece, a metre, a set; plus a price per line).
PRICES: dict[str, tuple[float, float]] = {
    "reed switch": (1.10, 0),
    "diode": (0.06, 0),
    "magnet": (0.20, 0),
    "LED pixel": (0.30, 0),
    "light pipe": (3.00, 0),
    "level shifter": (0.60, 0),
    "decoupling capacitor": (0.10, 0),
    "resistor": (0.05, 0),
    "bulk capacitor": (0.30, 0),
    "LED supply": (14.00, 0),
    "LED supply socket": (1.00, 0),
    "fuse": (0.25, 1.50),  # the fuses, and one inline holder
    "supply terminal": (0.40, 0),
    "Raspberry Pi": (47.00, 0),
    "Pi supply": (9.00, 0),
    "Pi power socket": (6.00, 0),
    "USB-serial header": (0.20, 0),
    "USB-serial cable": (20.00, 0),
    "memory card": (6.00, 0),
    "Pi ribbon header": (1.00, 0),
    "ribbon cable": (3.00, 0),
    "interface board": (8.00, 0),  # the smallest order at a PCB maker: five boards
    "interface board stand-offs": (0.30, 0.40),  # and the eight screws
    "matrix wire headers": (0.20, 0),
    "LED data header": (0.10, 0),
    "matrix wire": (0.50, 0),
    "LED chain wire": (0.60, 0),
    "LED power wire": (1.00, 0),
    "top": (8.00, 0),
    "carrier": (10.00, 0),
    "base": (12.00, 0),
    "chess set": (60.00, 0),
    "clock buttons (optional)": (1.50, 0),
    "clock button header (optional)": (0.50, 0),
    "speaker (optional)": (10.00, 0),
}

# What a maker needs besides the parts; nothing here is bought for one board only.
TOOLS = (
    "temperature-controlled soldering iron with a fine tip, solder 0.7 mm, desoldering wick",
    "flat-nose pliers, to hold a reed's lead between the bend and the glass",
    "side cutters and a wire stripper for 0.25 mm^2 (24 AWG) wire",
    "multimeter with a continuity beeper and a diode test",
    "a CNC router or laser cutter for the plates (or a maker space's, or a cutting "
    "service, from the DXF files); by hand: a drill press with 2, 5 and 10.5 mm bits and a "
    "hand router with a 4 mm cutter for the grooves",
    "an 8 mm Forstner or flat bit, 2 mm deep, for the magnets' recesses in the pieces",
    "wood glue, clamps, sandpaper (240) for the light pipes' ends",
    "hot-melt glue gun: the reeds, diodes and LED pixels in their pockets",
    "heat-shrink tubing and a heat gun (or a lighter) for the supply wiring",
    "a computer with a microSD card reader, to write Raspberry Pi OS",
)


def order_count(order: str) -> float:
    """The number an order starts with: `71 pcs` -> 71, `15 m` -> 15, `1 set ...` -> 1."""
    match = re.match(r"\d+(?:\.\d+)?", order)
    if match is None:
        raise ValueError(f"an order without a quantity: {order!r}")
    return float(match.group())


def line_price(line: BomLine) -> float:
    """What the line's order costs, rounded to the cent."""
    if line.item not in PRICES:
        raise ValueError(f"no price for BOM item {line.item!r}")
    unit, per_line = PRICES[line.item]
    return round(order_count(line.order) * unit + per_line, 2)


def is_optional(line: BomLine) -> bool:
    return "(optional)" in line.item


def bom_summary(lines: list[BomLine]) -> str:
    """The BOM in short, as Markdown: what to order and its price, the totals, the tools."""
    out = [
        "# reedboard: what to buy and the tools",
        "",
        "Written by `python hardware/build.py` from `bom.py` and `bom_prices.py`; every "
        "part's specification is in `reedboard-bom.csv`.",
        "",
        f"Prices: {PRICE_SOURCE}. Each line costs what its order column says, spares included.",
        "",
        f"| Item | Order | Price ({CURRENCY}) |",
        "|---|---|---:|",
    ]
    out += [f"| {ln.item} | {ln.order} | {line_price(ln):.2f} |" for ln in lines]
    required = sum(line_price(ln) for ln in lines if not is_optional(ln))
    everything = sum(line_price(ln) for ln in lines)
    out += [
        f"| **total, the board** | | **{required:.2f}** |",
        f"| **total, with the optional parts** | | **{everything:.2f}** |",
        "",
        "## Tools",
        "",
        *[f"- {tool}" for tool in TOOLS],
    ]
    return "\n".join(out) + "\n"


__all__ = [
    "CURRENCY",
    "PRICES",
    "PRICE_SOURCE",
    "TOOLS",
    "bom_summary",
    "is_optional",
    "line_price",
    "order_count",
]
