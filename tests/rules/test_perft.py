"""Perft: the number of leaf nodes of the legal move tree, checked against published counts.

Perft exercises every rule of move generation at once (pins, checks, en passant,
promotion, Chess960 castling), and its counts are facts agreed on by many independent
engines, so a single wrong or missing move anywhere in the tree changes a number.

The data are the `.perft` files in `perft/` beside this test (its README says where each
count comes from): every position of every file is counted. The default run keeps to the
depths that fit the suite's time budget; `pytest -m slow` counts deeper.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from reedboard.rules.position import Position, perft, perft_counts

DATA = Path(__file__).parent / "perft"
FILES = ("cpw_perft_results", "tricky", "chess960", "chess960_startpos")

# The small suites (a few dozen hand-picked hard positions) are counted deep: every depth
# whose tree stays below this many nodes in the default run, below the second in the slow one.
SMALL_SUITES = ("cpw_perft_results", "tricky")
DEFAULT_NODE_LIMIT = 1_000_000
SLOW_NODE_LIMIT = 200_000_000
# The 1,920 Chess960 positions: every one to depth 2 (every castling right is tried, with
# the replies to it), every Nth to depth 3 and every Mth to depth 4, by default. The slow
# run adds depth 3 and 4 for the rest and depth 5 for every Kth. (Every position at depth 3
# and every 24th at depth 4 was 55 of the default run's 77 million nodes, some 70 % of its
# CPU; the sample keeps about 8 million, spread over both files.)
ALL_DEPTH = 2
DEPTH_3_STRIDE = 8
DEPTH_4_STRIDE = 192
SLOW_DEEP_STRIDE = 96
# The Chess960 positions are counted in runs of this many, one test each (see `_params`):
# 40 tests, each run of the default holding one position counted to depth 4.
CHESS960_RUN = 48


@dataclass(frozen=True)
class PerftCase:
    suite: str
    name: str
    epd: str
    counts: dict[int, int]  # depth -> nodes

    @property
    def index(self) -> int:
        """The position's place in its file, for picking a spread-out sample."""
        return int(self.name) if self.name.isdigit() else 0


def read_suite(path: Path) -> list[PerftCase]:
    """Read one `.perft` file: `id NAME`, `epd ...`, `perft DEPTH NODES`, `#` comments."""
    cases: list[PerftCase] = []
    name: str | None = None
    epd: str | None = None
    counts: dict[int, int] = {}

    def close() -> None:
        if name is not None:
            assert epd is not None, f"{path.name}: position {name} has no epd line"
            assert counts, f"{path.name}: position {name} has no perft line"
            cases.append(PerftCase(path.stem, name, epd, dict(counts)))

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        keyword, _, value = line.partition(" ")
        if keyword == "id":
            close()
            name, epd, counts = value.strip(), None, {}
        elif keyword == "epd" and name is not None:
            epd = value.strip()
        elif keyword == "perft" and name is not None:
            depth, nodes = value.split()
            counts[int(depth)] = int(nodes)
        else:
            raise AssertionError(f"{path.name}:{number}: unreadable line {raw!r}")
    close()
    return cases


def _load() -> tuple[list[PerftCase], str | None]:
    if not DATA.is_dir():
        return [], f"the perft data folder {DATA} is missing; the perft tests need it"
    missing = [name for name in FILES if not (DATA / f"{name}.perft").is_file()]
    if missing:
        return [], f"perft data files missing from {DATA}: {', '.join(missing)}"
    return [case for name in FILES for case in read_suite(DATA / f"{name}.perft")], None


CASES, DATA_ERROR = _load()


def default_depths(case: PerftCase) -> list[int]:
    if case.suite in SMALL_SUITES:
        return [d for d, n in sorted(case.counts.items()) if d <= 3 or n <= DEFAULT_NODE_LIMIT]
    limit = ALL_DEPTH
    if case.index % DEPTH_3_STRIDE == 0:
        limit = 3
    if case.index % DEPTH_4_STRIDE == 0:
        limit = 4
    return [d for d in sorted(case.counts) if d <= limit]


def slow_depths(case: PerftCase) -> list[int]:
    """The depths of the slow run: those the default run leaves out."""
    if case.suite in SMALL_SUITES:
        wanted = [d for d, n in sorted(case.counts.items()) if n <= SLOW_NODE_LIMIT]
    else:
        limit = 5 if case.index % SLOW_DEEP_STRIDE == 0 else 4
        wanted = [d for d in sorted(case.counts) if d <= limit]
    done = set(default_depths(case))
    return [d for d in wanted if d not in done]


def _params(select: Callable[[PerftCase], list[int]]) -> list[object]:
    """The positions to count, with their depths: each of the small suites' positions a
    test of its own, the Chess960 files' in runs of `CHESS960_RUN` (each test of the
    suite carries pytest's and pytest-xdist's own cost, some 2 ms: a test per position
    cost about 4 s of CPU over the 1,920, more than half of what counting them costs)."""
    if DATA_ERROR is not None:
        # One failing test rather than an empty, silently green parametrization.
        return [pytest.param([], id="perft-data-missing")]
    params: list[object] = []
    runs: dict[str, list[tuple[PerftCase, list[int]]]] = {}
    for case in CASES:
        depths = select(case)
        if not depths:
            continue
        if case.suite in SMALL_SUITES:
            params.append(pytest.param([(case, depths)], id=f"{case.suite}-{case.name}"))
            continue
        run = runs.setdefault(case.suite, [])
        run.append((case, depths))
        if len(run) == CHESS960_RUN:
            params.append(_run_param(run))
            runs[case.suite] = []
    params += [_run_param(run) for run in runs.values() if run]
    return params


def _run_param(run: list[tuple[PerftCase, list[int]]]) -> object:
    first, last = run[0][0], run[-1][0]
    return pytest.param(list(run), id=f"{first.suite}-{first.name}-{last.name}")


def check(cases: list[tuple[PerftCase, list[int]]]) -> None:
    """Count each position to the deepest of its depths and compare every depth; every
    wrong count of the run is named, not only the first."""
    if not cases:
        pytest.fail(DATA_ERROR or "no perft data")
    wrong = []
    for case, depths in cases:
        position = Position.from_fen(case.epd, chess960=True)
        # Every depth asked for from one walk to the deepest: the same trees, each node once.
        counted = perft_counts(position, max(depths))
        differ = {
            depth: (counted[depth], case.counts[depth])
            for depth in depths
            if counted[depth] != case.counts[depth]
        }
        if differ:
            wrong.append(f"{case.suite} {case.name} ({case.epd}): {differ}")
    assert not wrong, "depth -> (counted, expected):\n" + "\n".join(wrong)


def test_every_data_file_is_read() -> None:
    if DATA_ERROR is not None:
        pytest.fail(DATA_ERROR)
    by_suite: dict[str, list[PerftCase]] = {name: [] for name in FILES}
    for case in CASES:
        by_suite[case.suite].append(case)
    for name, cases in by_suite.items():
        assert cases, f"{name}.perft holds no position"
        assert all(1 in case.counts for case in cases), f"{name}.perft: a position lacks depth 1"
    # The Chess960 files hold one position per Scharnagl number / per index, 0..959.
    for name in ("chess960", "chess960_startpos"):
        assert sorted(case.index for case in by_suite[name]) == list(range(960)), name


def test_every_position_gets_counted() -> None:
    if DATA_ERROR is not None:
        pytest.fail(DATA_ERROR)
    assert all(default_depths(case) for case in CASES)
    assert {d for case in CASES for d in default_depths(case)} >= {1, 2, 3, 4}


@pytest.mark.parametrize("cases", _params(default_depths))
def test_perft(cases: list[tuple[PerftCase, list[int]]]) -> None:
    check(cases)


@pytest.mark.slow
@pytest.mark.timeout(3600)  # the deepest trees take many minutes in pure Python
@pytest.mark.parametrize("cases", _params(slow_depths))
def test_perft_deep(cases: list[tuple[PerftCase, list[int]]]) -> None:
    check(cases)


def test_startpos_file_matches_the_scharnagl_numbering() -> None:
    """`id` of chess960_startpos is the Scharnagl number: our numbering must agree, or
    the board would set up a different position than the one a player asked for."""
    if DATA_ERROR is not None:
        pytest.fail(DATA_ERROR)
    for case in CASES:
        if case.suite == "chess960_startpos":
            ours = Position.chess960_start(case.index)
            theirs = Position.from_fen(case.epd, chess960=True)
            assert ours.board_fen() == theirs.board_fen(), case.name
            assert ours.castling == theirs.castling, case.name


def test_one_walk_counts_what_perft_counts_at_each_depth() -> None:
    """`perft_counts`, which the tests above use, against `perft` itself (the benchmarks'
    count) at every depth of a few positions with castling, en passant and promotions."""
    if DATA_ERROR is not None:
        pytest.fail(DATA_ERROR)
    for case in CASES[:6]:
        position = Position.from_fen(case.epd, chess960=True)
        assert perft_counts(position, 3) == [perft(position, depth) for depth in range(4)]
    assert perft_counts(Position.standard(), 0) == [1]
