"""Regenerate the hardware files from the circuit source: `python hardware/build.py`.

Writes, next to this script (or into `--out DIR`):
- `reedboard.net`: the KiCad netlist (import it into KiCad's PCB editor, or read it);
- `reedboard-bom.csv`: the bill of materials: every part to order, the netlist's and the
  rest (`bom.py`), with quantities from the circuit and the board's parameters, and what
  each line costs (`bom_prices.py`); `reedboard-bom.md`, its summary with the totals and
  the tools;
- `matrix-cell.svg`, `header-pinout.svg`: the wiring pictures of the assembly guide;
- `pcb/`: the interface board's printed circuit, placed and routed from the netlist:
  Gerber layers, drill files and its pad list (`pcb_build.py`);
- the physical board from `board_geometry.py`'s parameters: `top-plate.dxf`,
  `carrier-plate.dxf`, `base-plate.dxf`, `frame-strip.dxf` for the cutter, `board-plan.svg` and
  `board-section.svg` for the README, `reed-magnet.svg`, the reed and magnet model, and
  `drill-template-a4.pdf` and `drill-template-letter.pdf`, the plates 1:1 to print and tape
  on (`drill_template.py`).

The electrical rules check runs first; if it finds any error nothing is written and the
exit status is 1. The output is deterministic (no dates, no random tags), so the committed
files show exactly what a change to the circuit changes.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
NETLIST = "reedboard.net"
PCB = "pcb"
BOM = "reedboard-bom.csv"
BOM_SUMMARY = "reedboard-bom.md"

# SKiDL looks for KiCad's symbol libraries at import time; the parts here are all defined in
# code, so point it at nothing in particular rather than have it warn.
for _version in ("", "6", "7", "8", "9", "10"):
    os.environ.setdefault(f"KICAD{_version}_SYMBOL_DIR", str(HERE))

from circuit import build_circuit  # noqa: E402
from skidl import Circuit  # noqa: E402
from skidl.logger import erc_logger, rt_logger  # noqa: E402


def run_erc(circuit: Circuit) -> int:
    """Run SKiDL's electrical rules check; the number of errors it found."""
    circuit.ERC()
    return int(erc_logger.error.count)


def netlist_text(circuit: Circuit) -> str:
    """The KiCad netlist, made reproducible: no date, source named relative to the repo."""
    text = str(
        circuit.generate_netlist(
            tool="kicad8", do_backup=False, track_src=False, track_abs_path=False
        )
    )
    text = re.sub(r'\(date "[^"]*"\)', '(date "")', text)
    text = re.sub(r'\(source "[^"]*"\)', '(source "hardware/build.py")', text)
    return text.rstrip() + "\n"


def _natural(ref: str) -> tuple[str, int]:
    match = re.fullmatch(r"([A-Za-z]+)(\d+)", ref)
    return (match.group(1), int(match.group(2))) if match else (ref, 0)


def _ref_ranges(refs: list[str]) -> str:
    """SW1..SW64 instead of 64 names; single refs stay as they are."""
    ordered = sorted(refs, key=_natural)
    out: list[str] = []
    start = previous = ordered[0]
    for ref in [*ordered[1:], None]:
        if ref is not None:
            prefix, number = _natural(ref)
            if prefix == _natural(previous)[0] and number == _natural(previous)[1] + 1:
                previous = ref
                continue
        out.append(start if start == previous else f"{start}-{previous}")
        if ref is not None:
            start = previous = ref
    return " ".join(out)


def bom_texts(circuit: Circuit) -> tuple[str, str]:
    """The bill of materials as CSV (the netlist's parts grouped by kind, and the rest), and
    its summary with the prices, the totals and the tools (Markdown)."""
    from board_geometry import build_geometry
    from bom import CircuitPart, bom_csv, bom_lines
    from bom_prices import bom_summary, line_price

    groups: dict[tuple[str, str, str], list[str]] = {}
    for part in circuit.parts:
        key = (str(part.value), str(part.footprint), str(part.fields["Place"]))
        groups.setdefault(key, []).append(str(part.ref))
    parts = {
        value: CircuitPart(_ref_ranges(refs), len(refs), value, footprint, place)
        for (value, footprint, place), refs in groups.items()
    }
    lines = bom_lines(build_geometry(), parts)
    prices = {line.item: line_price(line) for line in lines}
    return bom_csv(lines, prices), bom_summary(lines)


def draw_everything(folder: Path) -> list[Path]:
    """Every drawing: the wiring pictures, the board's plates and views, the reed model, the
    drilling templates."""
    from board_drawings import draw_board
    from board_geometry import build_geometry
    from drawings import draw_all
    from drill_template import write_templates
    from reed_plot import plot_svg

    written = draw_all(folder) + draw_board(folder)
    reed = folder / "reed-magnet.svg"
    reed.write_text(plot_svg(), encoding="utf-8", newline="\n")
    return [*written, reed, *write_templates(folder, build_geometry())]


def write_pcb(circuit: Circuit, folder: Path) -> list[Path]:
    """The interface board's fabrication files and pad list, into `folder`."""
    from pcb_build import pcb_files

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in pcb_files(circuit).items():
        path = folder / name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write into")
    parser.add_argument("--no-drawings", action="store_true", help="skip the SVG pictures")
    parser.add_argument("--no-pcb", action="store_true", help="skip the interface board's PCB")
    args = parser.parse_args(argv)

    rt_logger.setLevel(logging.ERROR)  # SKiDL's chatter about absent KiCad footprint tables
    circuit = build_circuit()
    errors = run_erc(circuit)
    if errors:
        print(f"build.py: the electrical rules check found {errors} error(s)", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    written = [args.out / NETLIST, args.out / BOM, args.out / BOM_SUMMARY]
    written[0].write_text(netlist_text(circuit), encoding="utf-8")
    for path, text in zip(written[1:], bom_texts(circuit), strict=True):
        path.write_text(text, encoding="utf-8")
    if not args.no_drawings:
        written += draw_everything(args.out)
    if not args.no_pcb:
        written += write_pcb(circuit, args.out / PCB)
    print(f"ERC passed; {len(circuit.parts)} parts, {len(circuit.get_nets())} nets")
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
