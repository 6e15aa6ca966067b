"""Routes the interface board's nets on two copper layers: a grid router (Lee's maze search).

Tracks run on a 0.635 mm grid (a quarter of the pins' 2.54 mm), horizontal ones preferably
on the top copper and vertical ones on the bottom, and change layer through vias. A grid
point is kept for one net wherever copper there would come closer than CLEARANCE to another
net's pad, track or via, or to the board's edge and its mounting holes, so the routed board
keeps the clearance by construction (the tests measure it again on the Gerber files).

Each net grows as a tree: from all of its copper so far, the cheapest path to the nearest
pad not yet reached, until every pad is. Everything is integer micrometres and the search
breaks ties by grid position, so the same netlist gives the same board, byte for byte.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from pcb_layout import MOUNTING_KEEPOUT, BoardOutline, Pad

GRID = 635
TRACK = 300  # track width
CLEARANCE = 200  # copper to copper, between nets; 0.2 mm is within every fab's standard
EDGE_CLEARANCE = 500
VIA_DIAMETER, VIA_DRILL = 800, 400
TOP, BOTTOM = 0, 1
FREE, BLOCKED = -1, -2
STEP_COST = {True: 10, False: 30}  # along the layer's preferred direction, or across it
VIA_COST = 60
REACH_CELLS = 4  # steps from a pad's centre (rounded to the grid) to its farthest grid point


class RoutingError(ValueError):
    pass


@dataclass(frozen=True)
class Segment:
    layer: int
    x1: int
    y1: int
    x2: int
    y2: int


@dataclass
class RoutedNet:
    name: str
    segments: list[Segment] = field(default_factory=list)
    vias: list[tuple[int, int]] = field(default_factory=list)


def pad_reach(pad: Pad) -> float:
    """The radius of the circle a pad's copper lies within (a square pad's corners too)."""
    return pad.diameter / 2 * (math.sqrt(2) if pad.square else 1)


class Grid:
    """Which net may use each grid point: for tracks (per layer) and for vias."""

    def __init__(self, outline: BoardOutline, pads: list[Pad], nets: list[str]) -> None:
        self.nx, self.ny = outline.width // GRID + 1, outline.height // GRID + 1
        self.net_id = {name: k for k, name in enumerate(nets)}
        size = self.nx * self.ny
        self.reserved = [FREE] * size  # pads' and holes' surroundings, both layers alike
        self.via_reserved = [FREE] * size
        self.owner = [[FREE] * size, [FREE] * size]  # tracks and vias already routed
        self.adjacent = [self.neighbours(idx) for idx in range(size)]
        self._keep_off_edges(outline)
        for x, y in outline.mounting_holes():
            self._reserve(self.reserved, x, y, _swept(MOUNTING_KEEPOUT + TRACK / 2), BLOCKED)
            self._reserve(self.via_reserved, x, y, MOUNTING_KEEPOUT + VIA_DIAMETER / 2, BLOCKED)
        for pad in pads:
            net = self.net_id.get(pad.net, BLOCKED)
            reach = pad_reach(pad) + CLEARANCE
            self._reserve(self.reserved, pad.x, pad.y, _swept(reach + TRACK / 2), net)
            self._reserve(self.via_reserved, pad.x, pad.y, reach + VIA_DIAMETER / 2, net)

    def _keep_off_edges(self, outline: BoardOutline) -> None:
        track_margin = EDGE_CLEARANCE + TRACK / 2
        via_margin = EDGE_CLEARANCE + VIA_DIAMETER / 2
        for idx in range(self.nx * self.ny):
            x, y = self.point(idx)
            edge = min(x, y, outline.width - x, outline.height - y)
            if edge < track_margin:
                self.reserved[idx] = BLOCKED
            if edge < via_margin:
                self.via_reserved[idx] = BLOCKED

    def _reserve(self, table: list[int], x: int, y: int, radius: float, net: int) -> None:
        for idx in self.within(x, y, radius):
            table[idx] = net if table[idx] in (FREE, net) else BLOCKED

    def within(self, x: int, y: int, radius: float) -> Iterable[int]:
        r = int(radius // GRID) + 1
        ci, cj = round(x / GRID), round(y / GRID)
        for j in range(max(0, cj - r), min(self.ny, cj + r + 1)):
            for i in range(max(0, ci - r), min(self.nx, ci + r + 1)):
                if math.hypot(i * GRID - x, j * GRID - y) < radius:
                    yield j * self.nx + i

    def point(self, idx: int) -> tuple[int, int]:
        return (idx % self.nx) * GRID, (idx // self.nx) * GRID

    def may_use(self, layer: int, idx: int, net: int) -> bool:
        return self.reserved[idx] in (FREE, net) and self.owner[layer][idx] in (FREE, net)

    def may_drill(self, idx: int, net: int) -> bool:
        if self.via_reserved[idx] not in (FREE, net):
            return False
        return all(
            self.may_use(layer, cell, net)
            for cell in (idx, *self.adjacent[idx])
            for layer in (TOP, BOTTOM)
        )

    def neighbours(self, idx: int) -> list[int]:
        i, j = idx % self.nx, idx // self.nx
        out = []
        if i > 0:
            out.append(idx - 1)
        if i + 1 < self.nx:
            out.append(idx + 1)
        if j > 0:
            out.append(idx - self.nx)
        if j + 1 < self.ny:
            out.append(idx + self.nx)
        return out

    def claim(self, path: list[tuple[int, int]], net: int) -> None:
        """Keep a routed path's grid points, and around each via its neighbours, for `net`."""
        for (layer, idx), (next_layer, _) in itertools.pairwise(path):
            if layer != next_layer:
                for cell in (idx, *self.neighbours(idx)):
                    self.owner[TOP][cell] = self.owner[BOTTOM][cell] = net
        for layer, idx in path:
            self.owner[layer][idx] = net


def _swept(radius: float) -> float:
    """How far a grid point must be from a round obstacle so that a track between two such
    neighbouring points stays clear of it too (its middle passes closer than its ends)."""
    return math.hypot(radius, GRID / 2)


def _terminals(grid: Grid, pad: Pad, net: int) -> list[tuple[int, int]]:
    cells = [c for c in grid.within(pad.x, pad.y, pad.diameter / 2) if grid.may_use(TOP, c, net)]
    if not cells:
        raise RoutingError(f"{pad.ref} pin {pad.pin}: no room to reach the pad")
    return [(layer, c) for c in cells for layer in (TOP, BOTTOM)]


def _search(
    grid: Grid,
    sources: set[tuple[int, int]],
    goals: dict[tuple[int, int], int],
    net: int,
    aims: list[tuple[int, int]],
) -> list[tuple[int, int]] | None:
    """The cheapest path from any source state to any goal state (A*: Dijkstra guided by
    the grid distance to the nearest pad still to reach, `aims`, which never overestimates:
    a pad's own grid points lie within REACH_CELLS of its centre)."""
    lower: dict[int, int] = {}

    def estimate(idx: int) -> int:
        if idx not in lower:
            i, j = idx % grid.nx, idx // grid.nx
            cells = min(abs(i - ai) + abs(j - aj) for ai, aj in aims)
            lower[idx] = STEP_COST[True] * max(0, cells - REACH_CELLS)
        return lower[idx]

    best: dict[tuple[int, int], int] = dict.fromkeys(sources, 0)
    previous: dict[tuple[int, int], tuple[int, int]] = {}
    queue = [(estimate(idx), 0, layer, idx) for layer, idx in sorted(sources)]
    heapq.heapify(queue)
    while queue:
        _, cost, layer, idx = heapq.heappop(queue)
        state = (layer, idx)
        if cost > best.get(state, cost):
            continue
        if state in goals:
            path = [state]
            while path[-1] in previous:
                path.append(previous[path[-1]])
            return path[::-1]
        for nxt, step in _moves(grid, layer, idx, net):
            total = cost + step
            if total < best.get(nxt, total + 1):
                best[nxt] = total
                previous[nxt] = state
                heapq.heappush(queue, (total + estimate(nxt[1]), total, *nxt))
    return None


def _moves(grid: Grid, layer: int, idx: int, net: int) -> Iterable[tuple[tuple[int, int], int]]:
    for cell in grid.adjacent[idx]:
        if grid.may_use(layer, cell, net):
            horizontal = abs(cell - idx) == 1
            yield (layer, cell), STEP_COST[horizontal == (layer == TOP)]
    if grid.may_drill(idx, net):
        yield (1 - layer, idx), VIA_COST


def _copper(grid: Grid, path: list[tuple[int, int]], routed: RoutedNet) -> None:
    """Add a path's tracks (straight runs merged) and vias to the net's copper."""
    runs = [[path[0]]]
    for before, state in itertools.pairwise(path):
        if state[0] != before[0]:
            routed.vias.append(grid.point(state[1]))
            runs.append([state])
        else:
            runs[-1].append(state)
    for run in runs:
        bends = [
            b for a, b, c in zip(run, run[1:], run[2:], strict=False) if b[1] - a[1] != c[1] - b[1]
        ]
        for (layer, start), (_, end) in itertools.pairwise([run[0], *bends, run[-1]]):
            if start != end:
                routed.segments.append(Segment(layer, *grid.point(start), *grid.point(end)))


def route_net(grid: Grid, name: str, pads: list[Pad]) -> RoutedNet:
    net = grid.net_id[name]
    routed = RoutedNet(name)
    # Each pad's terminal states; a pad's own grid points join it to the tree.
    waiting = {k: _terminals(grid, pad, net) for k, pad in enumerate(pads)}
    tree = set(waiting.pop(0))
    while waiting:
        goals = {state: k for k, states in waiting.items() for state in states}
        aims = [(round(pads[k].x / GRID), round(pads[k].y / GRID)) for k in sorted(waiting)]
        path = _search(grid, tree, goals, net, aims)
        if path is None:
            missing = ", ".join(f"{pads[k].ref}.{pads[k].pin}" for k in sorted(waiting))
            raise RoutingError(f"net {name}: no route to {missing}")
        reached = goals[path[-1]]
        grid.claim(path, net)
        _copper(grid, path, routed)
        tree.update(path)
        tree.update(waiting.pop(reached))
    return routed


def routing_order(pads: list[Pad]) -> list[str]:
    """Short signal nets first, the supply and ground (many pads, long reach) last."""
    by_net: dict[str, list[Pad]] = {}
    for pad in pads:
        if pad.net:
            by_net.setdefault(pad.net, []).append(pad)

    def span(name: str) -> tuple[int, int, str]:
        xs = [p.x for p in by_net[name]]
        ys = [p.y for p in by_net[name]]
        return len(by_net[name]), max(xs) - min(xs) + max(ys) - min(ys), name

    return sorted((n for n in by_net if len(by_net[n]) > 1), key=span)


def route(outline: BoardOutline, pads: list[Pad]) -> list[RoutedNet]:
    """Every net with two pads or more, routed; RoutingError names the first that fails."""
    order = routing_order(pads)
    grid = Grid(outline, pads, order)
    return [route_net(grid, name, [p for p in pads if p.net == name]) for name in order]


__all__ = [
    "BOTTOM",
    "CLEARANCE",
    "GRID",
    "TOP",
    "TRACK",
    "VIA_DIAMETER",
    "VIA_DRILL",
    "RoutedNet",
    "RoutingError",
    "Segment",
    "route",
    "routing_order",
]
