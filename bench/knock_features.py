"""What tells a brisk real capture from a knocked neighbour, measured: the features of
both at the moment they look alike, and how the best rule built on them fares.

    python bench/knock_features.py [--seeds N] [--fit N] [--first S]

A capture whose victim's square was empty under KNOCK_MS while the capturer was in the
hand is held (knock.knocked_victim): its sensors are also those of a neighbour the piece
in the hand could take, knocked and fallen back, the piece still in the air. For every
such real capture of the human model's games (seeds S..S+N-1, all its noise) and every
knock of the knocked-neighbour family (`knock_capturable`, the same seeds), this prints
the distribution of what the sensors know when the victim's square fills again:

- vacancy: how long the victim's square read empty;
- lead: from the capturer's lift to the victim's lift;
- held: from the capturer's lift to the victim's square filled again;
- after: from then to the next change (for a knock, the carried piece set down: the
  first thing that tells it; for a capture, the opponent's hand);
- distance from the capturer's square to the victim's, and the capturer's other legal
  targets (0: the capture is its only legal move);
- slid next: the capturer's slide was sensed on the square before the victim's.

Then the rule a board could apply at settle_ms + 50 ms after the victim's square fills
(the latency goal): commit when nothing changed meanwhile and the capture is its piece's
only legal move, or its slide reached the victim, or the lead (held) time is at least a
threshold fitted on the first `--fit` seeds as the smallest that commits no knock; what it
then does on the other seeds: knocks committed (false captures sent) and real captures
still held past the goal. Figures quoted in docs/hands.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import dataclass

from accuracy import game_for_seed
from reedboard.reader.waits import DEFAULT_SETTLE_MS, KNOCK_MS
from reedboard.rules.position import Position
from reedboard.rules.squares import Square, parse_square
from reedboard.sensing.debounce import Debouncer, SquareChange
from reedboard.sim.episodes import knock_capturable
from reedboard.sim.geometry import distance, path
from reedboard.sim.human import HumanScript
from reedboard.sim.settings import HumanSettings


@dataclass(frozen=True)
class Case:
    """One capture-or-knock as the sensors show it when the victim's square fills."""

    seed: int
    knock: bool
    vacancy: int
    lead: int
    held: int
    after: int | None  # None: nothing changed after it in the game
    distance: int
    other_targets: int
    slid_next: bool


def debounced(script: HumanScript) -> list[SquareChange]:
    """The script's sensor lines as the board's debouncer reports them."""
    debouncer = Debouncer(script.start.occupied)
    changes: list[SquareChange] = []
    for t_ms, action, what in script.lines:
        if action in ("lift", "place"):
            changes += debouncer.feed_change(parse_square(what), action == "place", t_ms)
    return changes + debouncer.flush(script.end_ms + 1000)


def positions(script: HumanScript) -> list[Position]:
    """The position before each move."""
    out = [script.start]
    for uci in script.ucis:
        out.append(out[-1].play(out[-1].parse_uci(uci)))
    return out


def case_at(
    changes: list[SquareChange], index: int, origin: Square, position: Position, seed: int
) -> Case | None:
    """The case whose victim's square fills at `changes[index]`, the capturer from
    `origin` lifted before the victim: None when the changes do not show that order."""
    filled = changes[index]
    victim = filled.square
    lifts = [i for i in range(index) if changes[i].square == victim and not changes[i].occupied]
    if not lifts:
        return None
    v = lifts[-1]
    origins = [i for i in range(v) if changes[i].square == origin and not changes[i].occupied]
    if not origins or any(changes[i].square == origin for i in range(origins[-1] + 1, index)):
        return None
    o = origins[-1]
    on_path = set(path(origin, victim))
    slid_next = any(
        changes[i].occupied
        and changes[i].square in on_path
        and distance(changes[i].square, victim) == 1
        for i in range(o + 1, v)
    )
    later = changes[index + 1].t_ms - filled.t_ms if index + 1 < len(changes) else None
    return Case(
        seed=seed,
        knock=False,
        vacancy=filled.t_ms - changes[v].t_ms,
        lead=changes[v].t_ms - changes[o].t_ms,
        held=filled.t_ms - changes[o].t_ms,
        after=later,
        distance=distance(origin, victim),
        other_targets=sum(1 for m in position.legal_moves_from(origin) if m.to_square != victim),
        slid_next=slid_next,
    )


def real_captures(seed: int, settings: HumanSettings) -> list[Case]:
    """The human model's captures of game `seed` that the board holds as possible knocks."""
    script = game_for_seed(seed, settings)
    changes = debounced(script)
    cases = []
    for ply, (uci, position) in enumerate(zip(script.ucis, positions(script), strict=False)):
        move = position.parse_uci(uci)
        if not position.is_capture(move) or position.is_en_passant(move):
            continue
        decisive = script.decisive_ms[ply]
        index = next(
            (
                i
                for i, c in enumerate(changes)
                if c.t_ms == decisive and c.square == move.to_square and c.occupied
            ),
            None,
        )
        case = None if index is None else case_at(changes, index, move.from_square, position, seed)
        if case is not None and case.vacancy < KNOCK_MS:
            cases.append(case)
    return cases


def knocks(seed: int, settings: HumanSettings) -> list[Case]:
    """The knocked-neighbour family's knocks in game `seed` (clean hands otherwise)."""
    base = game_for_seed(seed, settings.without_noise())
    script = knock_capturable(base, random.Random(seed * 7919 + 1), settings.settle_ms)
    if script is None:
        return []
    added = Counter(script.lines) - Counter(base.lines)
    fallen = {(line.t_ms, parse_square(line.what)) for line in added if line.action == "place"}
    starts = [base.lines[s].t_ms for s in base.starts]
    before = positions(base)
    changes = debounced(script)
    cases = []
    for index, change in enumerate(changes):
        if not change.occupied or (change.t_ms, change.square) not in fallen:
            continue
        ply = max(i for i, t in enumerate(starts) if t <= change.t_ms)
        position = before[ply]
        origin = position.parse_uci(base.ucis[ply]).from_square
        case = case_at(changes, index, origin, position, seed)
        if case is not None:
            cases.append(Case(**{**case.__dict__, "knock": True}))
    return cases


def quantiles(values: list[int]) -> str:
    ordered = sorted(values)
    if not ordered:
        return "-"
    picks = [ordered[min(len(ordered) - 1, int(p * len(ordered)))] for p in (0.01, 0.5, 0.99)]
    return f"{ordered[0]:>5} {picks[0]:>5} {picks[1]:>5} {picks[2]:>5} {ordered[-1]:>5}"


def by_geometry(case: Case) -> bool:
    """The capture is its piece's only legal move, or its slide reached the victim."""
    return case.other_targets == 0 or case.slid_next


def in_air(cases: list[Case], wait_ms: int) -> list[Case]:
    """The cases with nothing changed for `wait_ms` after the victim's square filled."""
    return [c for c in cases if c.after is None or c.after > wait_ms]


def report(cases: list[Case], fit_seeds: int, first: int, wait_ms: int) -> list[str]:
    real = [c for c in cases if not c.knock]
    knocked = [c for c in cases if c.knock]
    lines = [
        f"{len(real)} real captures held as possible knocks, {len(knocked)} knocks",
        f"{'feature (ms)':<24} {'':<6} {'min':>5} {'p1':>5} {'med':>5} {'p99':>5} {'max':>5}",
    ]
    for name in ("vacancy", "lead", "held", "after", "distance", "other_targets"):
        for label, group in (("real", real), ("knock", knocked)):
            values = [v for c in group if (v := getattr(c, name)) is not None]
            lines.append(f"{name:<24} {label:<6} {quantiles(values)}")
    for label, group in (("real", real), ("knock", knocked)):
        only = sum(1 for c in group if c.other_targets == 0)
        slid = sum(1 for c in group if c.slid_next)
        lines.append(f"only legal move / slid next to the victim, {label}: {only} / {slid}")
    fit = [c for c in cases if c.seed < first + fit_seeds]
    rest = [c for c in cases if c.seed >= first + fit_seeds]
    lines.append(
        f"commit at {wait_ms} ms of stillness (fitted on {fit_seeds} seeds, tried on the rest):"
    )
    for feature in ("lead", "held"):
        air = [c for c in in_air(fit, wait_ms) if c.knock and not by_geometry(c)]
        threshold = max((getattr(c, feature) for c in air), default=0) + 1
        tried = in_air(rest, wait_ms)

        def commits(c: Case, feature: str = feature, threshold: int = threshold) -> bool:
            return by_geometry(c) or getattr(c, feature) >= threshold

        false = sum(1 for c in tried if c.knock and commits(c))
        held = sum(1 for c in tried if not c.knock and not commits(c))
        reals = sum(1 for c in tried if not c.knock)
        knocks_in_air = sum(1 for c in tried if c.knock)
        lines.append(
            f"  geometry or {feature} >= {threshold} ms: knocks committed {false} of"
            f" {knocks_in_air} still in the air; real captures held {held} of {reals}"
        )
    geometry_held = sum(1 for c in in_air(real, wait_ms) if not by_geometry(c))
    lines.append(
        f"  geometry alone: real captures held {geometry_held} of {len(in_air(real, wait_ms))}"
        " (all seeds)"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--fit", type=int, default=300, help="seeds a threshold is fitted on")
    parser.add_argument("--first", type=int, default=1)
    args = parser.parse_args(argv)
    settings = HumanSettings()
    cases: list[Case] = []
    for seed in range(args.first, args.first + args.seeds):
        cases += real_captures(seed, settings) + knocks(seed, settings)
    print("\n".join(report(cases, args.fit, args.first, DEFAULT_SETTLE_MS + 50)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
