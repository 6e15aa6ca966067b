"""An electrical check of Gerber and drill files, by a reader that is not ours: gerbv.

gerbv (the gEDA project's Gerber viewer) renders each copper layer and the drill file to a
picture, 20 pixels to the millimetre. The check then works on the pictures alone: the
copper touching each plated hole is numbered (its piece: the pixels joined to it side by
side, found row by row as runs of copper), a plated hole joins the
two layers' copper, and the pads of the pad list must then fall into one piece of copper
per net, never two nets into one (a short), with no copper left over that reaches no pad,
and no two nets' copper nearer than the clearance.
"""

from __future__ import annotations

import csv
import math
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

# numpy and Pillow are imported by the functions that use them: a test process that
# renders no picture (no gerbv test runs there) does not load them.
if TYPE_CHECKING:
    import numpy as np

PX_PER_MM = 20
DPI = round(PX_PER_MM * 25.4)  # 508
MARGIN_MM = 1.0


@dataclass(frozen=True)
class PadRow:
    ref: str
    pin: int
    net: str
    x: float
    y: float
    pad: float
    drill: float


@dataclass
class Findings:
    opens: list[str] = field(default_factory=list)
    shorts: list[str] = field(default_factory=list)
    too_close: list[str] = field(default_factory=list)
    stray: list[str] = field(default_factory=list)

    def clean(self) -> bool:
        return not (self.opens or self.shorts or self.too_close or self.stray)


def read_pads(path: Path) -> list[PadRow]:
    with path.open(encoding="utf-8") as handle:
        return [
            PadRow(r["ref"], int(r["pin"]), r["net"], float(r["x_mm"]), float(r["y_mm"]),
                   float(r["pad_mm"]), float(r["drill_mm"]))
            for r in csv.DictReader(handle)
        ]  # fmt: skip


def read_excellon(path: Path) -> list[tuple[float, float, float]]:
    """(diameter, x, y) of every hole in a metric Excellon file with decimal coordinates."""
    tools: dict[str, float] = {}
    holes: list[tuple[float, float, float]] = []
    current = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if m := re.fullmatch(r"(T\d+)C([\d.]+)", line):
            tools[m.group(1)] = float(m.group(2))
        elif m := re.fullmatch(r"T\d+", line):
            current = tools.get(line)
        elif m := re.fullmatch(r"X(-?[\d.]+)Y(-?[\d.]+)", line):
            assert current is not None, f"{path.name}: a hole before any tool"
            holes.append((current, float(m.group(1)), float(m.group(2))))
    return holes


def render(files: list[Path], out: Path, width_mm: float, height_mm: float) -> np.ndarray:
    """gerbv's picture of `files` over the board and a margin: True where something is."""
    command = [
        "gerbv", "--export=png", f"--dpi={DPI}", "--border=0", "--background=#000000",
        f"--origin={-MARGIN_MM / 25.4:.6f}x{-MARGIN_MM / 25.4:.6f}",
        f"--window_inch={(width_mm + 2 * MARGIN_MM) / 25.4:.6f}x"
        f"{(height_mm + 2 * MARGIN_MM) / 25.4:.6f}",
        f"--output={out}",
    ]  # fmt: skip
    import numpy as np
    from PIL import Image

    for path in files:
        command += ["--foreground=#ffffff", str(path)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    problems = [ln for ln in result.stderr.splitlines() if "CRITICAL" in ln or "rror" in ln]
    assert result.returncode == 0 and not problems, result.stderr
    return np.array(Image.open(out).convert("L")) > 127


class Picture:
    """A rendered layer and the mapping from board millimetres to its pixels."""

    def __init__(self, lit: np.ndarray) -> None:
        self.lit = lit
        self.height = lit.shape[0]

    def pixel(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        column = math.floor((x_mm + MARGIN_MM) * PX_PER_MM)
        row = self.height - 1 - math.floor((y_mm + MARGIN_MM) * PX_PER_MM)
        return column, row


def _label(
    picture: Picture, holes: list[tuple[float, float, float]]
) -> tuple[np.ndarray, list[int | None]]:
    """Number the copper at each hole: its piece gets a number of its own (2, 3, ... in the
    holes' order), copper no hole touches 1, no copper 0; the number at each hole (None
    where the hole has no copper around it)."""
    import numpy as np

    pieces, count = _pieces(picture.lit)
    numbers = np.ones(count + 1, dtype=np.int32)  # a piece's number: 1 until a hole reaches it
    numbers[0] = 0
    labels: list[int | None] = []
    next_label = 2
    for _, x, y in holes:
        column, row = picture.pixel(x, y)
        assert 0 <= row < pieces.shape[0] and 0 <= column < pieces.shape[1], (x, y)
        piece = int(pieces[row, column])
        if piece and numbers[piece] == 1:
            numbers[piece] = next_label
            next_label += 1
        labels.append(int(numbers[piece]) or None)
    return numbers[pieces], labels


def _pieces(lit: np.ndarray) -> tuple[np.ndarray, int]:
    """The pieces of `lit`, pixels joined side by side (not corner to corner): each lit
    pixel's piece number, 1 to the count, and 0 elsewhere; and the count. Each row's runs
    of lit pixels are found by numpy, and a run joins the runs it overlaps in the row
    above (union-find over runs: some ten thousand, where a pixel-by-pixel fill visits a
    million pixels in Python)."""
    import numpy as np

    height, width = lit.shape
    padded = np.zeros((height, width + 2), dtype=np.int8)
    padded[:, 1:-1] = lit
    steps = np.diff(padded, axis=1)
    run_rows, starts = np.nonzero(steps == 1)  # row-major: the runs in order, row by row
    _, ends = np.nonzero(steps == -1)  # each run's end (exclusive), in the same order
    first = np.searchsorted(run_rows, np.arange(height + 1)).tolist()
    start, end = starts.tolist(), ends.tolist()
    parent = list(range(len(start)))

    def root(run: int) -> int:
        while parent[run] != run:
            parent[run] = parent[parent[run]]
            run = parent[run]
        return run

    for row in range(1, height):
        above, here, stop_above, stop_here = first[row - 1], first[row], first[row], first[row + 1]
        while above < stop_above and here < stop_here:
            if start[above] < end[here] and start[here] < end[above]:
                parent[root(above)] = root(here)
            if end[above] < end[here]:
                above += 1
            else:
                here += 1
    roots = [root(run) for run in range(len(start))]
    number = {r: n for n, r in enumerate(dict.fromkeys(roots), start=1)}
    pieces = np.zeros((height, width), dtype=np.int32)
    for run, r in enumerate(roots):
        pieces[run_rows[run], start[run] : end[run]] = number[r]
    return pieces, len(number)


Node = tuple[str, int | None]
if TYPE_CHECKING:
    Layers = dict[str, tuple[np.ndarray, list[int | None]]]


class _Joins:
    """Union-find over (layer, copper number): a plated hole joins its two layers' copper."""

    def __init__(self) -> None:
        self.parent: dict[Node, Node] = {}

    def find(self, node: Node) -> Node:
        while self.parent.setdefault(node, node) != node:
            node = self.parent[node]
        return node

    def join(self, a: Node, b: Node) -> None:
        self.parent[self.find(a)] = self.find(b)


def check(folder: Path, prefix: str, size_mm: tuple[float, float], clearance_mm: float) -> Findings:
    """Check the copper layers against the pad list; what is wrong, by kind."""
    import numpy as np

    pads = read_pads(folder / f"{prefix}-pads.csv")
    holes = read_excellon(folder / f"{prefix}-PTH.drl")
    findings = Findings()
    layers = _layers(folder, prefix, size_mm, holes, findings)
    if findings.opens:
        return findings
    joins = _Joins()
    for k in range(len(holes)):
        joins.join(("top", layers["top"][1][k]), ("bottom", layers["bottom"][1][k]))
    pad_root = {}
    for pad in pads:
        k = next(i for i, h in enumerate(holes) if math.dist(h[1:], (pad.x, pad.y)) < 0.01)
        pad_root[pad] = joins.find(("top", layers["top"][1][k]))
    _nets_and_shorts(pads, pad_root, findings)
    net_of_root = {root: pad.net or f"{pad.ref}.{pad.pin}" for pad, root in pad_root.items()}
    for layer, (labelled, labels) in layers.items():
        net_of_label = np.zeros(int(labelled.max()) + 1, dtype=np.int32)  # 0: no net
        names = sorted(set(net_of_root.values()))
        for label in {lb for lb in labels if lb}:
            root = joins.find((layer, label))
            if root not in net_of_root:
                findings.stray.append(f"{layer}: copper joined to no pad")
                continue
            net_of_label[label] = names.index(net_of_root[root]) + 1
        nets = net_of_label[labelled]
        for a, b in _closer_than(nets, clearance_mm * PX_PER_MM):
            findings.too_close.append(
                f"{layer}: {names[a - 1]} and {names[b - 1]} closer than {clearance_mm} mm"
            )
    return findings


def _layers(
    folder: Path,
    prefix: str,
    size_mm: tuple[float, float],
    holes: list[tuple[float, float, float]],
    findings: Findings,
) -> Layers:
    """Each copper layer rendered and filled from the holes: its copper numbers and the
    number at each hole."""
    layers: Layers = {}
    for layer, ending in (("top", "F_Cu.gtl"), ("bottom", "B_Cu.gbl")):
        lit = render([folder / f"{prefix}-{ending}"], folder / f"{layer}.png", *size_mm)
        labelled, labels = _label(Picture(lit), holes)
        stray = int((labelled == 1).sum())
        if stray:
            findings.stray.append(f"{layer}: {stray} pixels of copper reach no hole")
        for (d, x, y), label in zip(holes, labels, strict=True):
            if label is None:
                findings.opens.append(f"{layer}: no copper around the {d} mm hole at {x}, {y}")
        layers[layer] = (labelled, labels)
    return layers


def _nets_and_shorts(pads: list[PadRow], pad_root: dict[PadRow, Node], findings: Findings) -> None:
    by_net: dict[str, set[Node]] = {}
    by_root: dict[Node, set[str]] = {}
    for pad in pads:
        name = pad.net or f"(unconnected {pad.ref}.{pad.pin})"
        by_net.setdefault(name, set()).add(pad_root[pad])
        by_root.setdefault(pad_root[pad], set()).add(name)
    for name, roots in sorted(by_net.items()):
        if len(roots) > 1:
            findings.opens.append(f"net {name} is in {len(roots)} separate pieces")
    for names in by_root.values():
        if len(names) > 1:
            findings.shorts.append("joined: " + ", ".join(sorted(names)))


def _closer_than(nets: np.ndarray, reach: float) -> list[tuple[int, int]]:
    """The pairs of different nets with pixels no further apart than `reach` pixels."""
    h, w = nets.shape
    r = math.ceil(reach)
    pairs: set[tuple[int, int]] = set()
    for dx in range(r + 1):
        for dy in range(-r, r + 1):
            if (dx, dy) <= (0, 0) or math.hypot(dx, dy) > reach:
                continue
            y0, y1 = max(0, -dy), h - max(0, dy)
            a = nets[y0:y1, 0 : w - dx]
            b = nets[y0 + dy : y1 + dy, dx:w]
            clash = (a > 0) & (b > 0) & (a != b)
            for p, q in zip(a[clash].tolist(), b[clash].tolist(), strict=True):
                pairs.add((min(p, q), max(p, q)))
    return sorted(pairs)
