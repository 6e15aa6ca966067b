"""The reference's replay example (docs/reference.md) is the shipped script and what `reedboard replay` prints for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from reedboard.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "docs/examples/italian-opening.events"


def readme_example() -> tuple[str, str]:
    """The script and the output the reference shows, as the text between its two commands."""
    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    cat = f"$ cat {SCRIPT}\n"
    replay = f"$ reedboard replay {SCRIPT}\n"
    assert cat in text and replay in text, f"docs/reference.md shows no replay of {SCRIPT}"
    script = text.split(cat, 1)[1].split(replay, 1)[0]
    output = text.split(replay, 1)[1].split("```", 1)[0]
    return script, output


def test_the_readme_shows_the_shipped_script_whole() -> None:
    script, _ = readme_example()
    assert script == (ROOT / SCRIPT).read_text(encoding="utf-8")


def test_the_readme_shows_what_replay_prints_for_it(capsys: pytest.CaptureFixture[str]) -> None:
    _, shown = readme_example()
    assert main(["replay", str(ROOT / SCRIPT)]) == 0
    assert shown == capsys.readouterr().out
