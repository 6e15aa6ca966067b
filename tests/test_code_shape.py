"""The code keeps its promised shape: small modules, no tangled functions.

No product module over 500 lines (the rules core's position.py aside: the board's one hot
path, kept whole for speed), no function, method or class that radon ranks D or worse
for cyclomatic complexity, and fewer than 25 untyped `dict[str, Any]` (they belong at the
edges, JSON in and out; a message or a shape the code reads has a type). Each fails naming
the offenders, so a change that grows past one is split or typed rather than let through.
"""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    ROOT / "firmware" / "reedboard",
    ROOT / "host" / "reedboard_host",
    ROOT / "host" / "reedboard_relay",
)
MAX_LINES = 500
LONG_ALLOWED = {ROOT / "firmware" / "reedboard" / "rules" / "position.py"}
WORST_RANK = "C"  # radon's ranks run A (simplest) to F; D and worse are too tangled
MAX_UNTYPED = 24
UNTYPED = "dict[str, Any]"


def product_modules() -> list[Path]:
    return sorted(path for package in PACKAGES for path in package.rglob("*.py"))


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def too_long(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Each module over `MAX_LINES` lines but the allowed ones, named from `root`, with its
    length."""
    return [
        f"{path.relative_to(root)}: {lines} lines"
        for path in paths
        if path not in LONG_ALLOWED and (lines := line_count(path)) > MAX_LINES
    ]


def too_complex(source: str, name: str) -> list[str]:
    """Each block (function, method, class) of `source` ranked worse than `WORST_RANK`,
    with its line, rank and complexity."""
    found: list[str] = []
    for block in cc_visit(source):
        rank: str = cc_rank(block.complexity)
        if rank > WORST_RANK:
            found.append(f"{name}:{block.lineno} {block.fullname} - {rank} ({block.complexity})")
    return found


def test_the_packages_hold_modules() -> None:
    # A moved folder would make both checks below pass on nothing.
    modules = product_modules()
    assert any(path.name == "app.py" for path in modules)
    assert any(path.parent.name == "reedboard_host" for path in modules)
    assert set(modules) >= LONG_ALLOWED


def test_no_module_is_over_500_lines() -> None:
    offenders = too_long(product_modules())
    assert not offenders, "modules over 500 lines, split them along their ideas:\n" + "\n".join(
        offenders
    )


def test_no_function_is_ranked_d_or_worse() -> None:
    offenders = [
        problem
        for path in product_modules()
        for problem in too_complex(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert not offenders, "blocks radon ranks D or worse:\n" + "\n".join(offenders)


def untyped_places(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Each line that spells out `dict[str, Any]`, as `path:line`."""
    return [
        f"{path.relative_to(root)}:{number}"
        for path in paths
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if UNTYPED in line
    ]


def test_fewer_than_25_untyped_dicts() -> None:
    places = untyped_places(product_modules())
    assert len(places) <= MAX_UNTYPED, f"{len(places)} places of {UNTYPED}:\n" + "\n".join(places)


def test_the_checks_catch_what_they_are_for(tmp_path: Path) -> None:
    # A long module and a tangled function are named; a short, plain one is not.
    long_module = tmp_path / "long.py"
    long_module.write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    short_module = tmp_path / "short.py"
    short_module.write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    assert too_long([long_module, short_module], tmp_path) == [f"long.py: {MAX_LINES + 1} lines"]
    branches = "".join(f"    if x == {n}:\n        return {n}\n" for n in range(21))
    tangled = f"def tangled(x: int) -> int:\n{branches}    return -1\n"
    assert too_complex(tangled, "t.py") == ["t.py:1 tangled - D (22)"]
    assert too_complex("def plain(x: int) -> int:\n    return x\n", "p.py") == []
    json_edge = tmp_path / "edge.py"
    json_edge.write_text(f"a: int = 1\nb: {UNTYPED} = {{}}\n", encoding="utf-8")
    assert untyped_places([json_edge, short_module], tmp_path) == ["edge.py:2"]
