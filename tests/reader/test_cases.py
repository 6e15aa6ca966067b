"""Recorded cases: each script in cases/ names the moves the board must find in a
`# Expected moves:` line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reader.support import kinds, moves, replay

CASES = sorted((Path(__file__).parent / "cases").glob("*.events"))


def expected_moves(text: str) -> list[str]:
    for line in text.splitlines():
        if line.startswith("# Expected moves:"):
            return line.split(":", 1)[1].split()
    raise AssertionError("the case names no expected moves")


def test_there_are_cases() -> None:
    assert CASES


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    text = path.read_text()
    assert moves(replay(text)) == expected_moves(text)


# The example scripts the docs point to.
EXAMPLES = sorted((Path(__file__).parents[2] / "docs" / "examples").glob("*.events"))


def test_the_documented_examples_are_there() -> None:
    assert EXAMPLES, "docs/examples/ holds no event script"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_documented_example(path: Path) -> None:
    """Each example's comments name its moves (`# Expected moves: ...`), or, for the
    mismatch example, the effects in order (`# Expected: illegal (...), restored, then
    move g1f3.`)."""
    text = path.read_text()
    effects = replay(text)
    if "# Expected moves:" in text:
        # The moves, then perhaps a remark in brackets.
        line = next(x for x in text.splitlines() if x.startswith("# Expected moves:"))
        assert moves(effects) == line.split(":", 1)[1].split("(")[0].split()
    else:
        line = next(x for x in text.splitlines() if x.startswith("# Expected:"))
        assert line.startswith(
            "# Expected: illegal (missing g1, extra g3), restored, then move g1f3"
        )
        assert kinds(effects) == ["illegal", "restored", "move"]
        illegal = next(e for e in effects if e["event"] == "illegal")
        assert (illegal["missing"], illegal["extra"]) == (["g1"], ["g3"])
        assert moves(effects) == ["g1f3"]
