"""`reedboard replay SCRIPT --say LANG`: after each effect the board speaks, the sentence."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from reedboard.cli import main

SCHOLARS_MATE = """@start standard
1000 lift e2
1400 place e4
2000 lift e7
2400 place e5
3000 lift f1
3400 place c4
4000 lift b8
4400 place c6
5000 lift d1
5400 place h5
6000 lift g8
6400 place f6
7000 lift f7
7200 lift h5
7600 place f7
"""
ILLEGAL = """@start standard
1000 lift g1
1400 place g3
3000 lift g3
3400 place g1
"""
STRICT = """@start standard
@mode strict
1000 lift g1
1400 place g1
2000 lift b1
2400 place c3
"""


def replay(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str], *options: str
) -> list[dict[str, Any]]:
    path = tmp_path / "game.events"
    path.write_text(text)
    assert main(["replay", str(path), *options]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def said(lines: list[dict[str, Any]]) -> list[str]:
    return [line["text"] for line in lines if line["event"] == "say"]


def test_each_move_is_said_in_french_right_after_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = replay(tmp_path, SCHOLARS_MATE, capsys, "--say", "fr")
    assert said(lines) == [
        "Pion e2 e4.",
        "Pion e7 e5.",
        "Fou f1 c4.",
        "Cavalier b8 c6.",
        "Dame d1 h5.",
        "Cavalier g8 f6.",
        "Dame h5 prend pion f7, échec et mat.",
        "Les blancs gagnent.",
    ]
    for index, line in enumerate(lines):
        if line["event"] == "say":
            spoken_of = lines[index - 1]
            assert spoken_of["event"] in ("move", "game_over")
            assert line["t_ms"] == spoken_of["t_ms"]
            assert set(line) == {"event", "t_ms", "text"}


def test_the_effects_are_those_without_say(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = replay(tmp_path, SCHOLARS_MATE, capsys)
    with_voice = replay(tmp_path, SCHOLARS_MATE, capsys, "--say", "en")
    assert [line for line in with_voice if line["event"] != "say"] == plain
    assert not said(plain)


def test_an_illegal_board_and_its_restoring_in_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = replay(tmp_path, ILLEGAL, capsys, "--say", "en")
    assert said(lines) == ["Illegal: put the knight back on g1, from g3.", "Board restored."]


def test_strict_mode_says_the_binding_touch_and_the_article(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = replay(tmp_path, STRICT, capsys, "--say", "fr")
    assert said(lines)[:2] == [
        "Pièce touchée : il faut jouer le cavalier g1.",
        "Article 4.3a, pièce touchée : il faut jouer le cavalier g1.",
    ]


def test_casual_mode_says_no_touch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = replay(tmp_path, STRICT, capsys, "--say", "fr", "--mode", "casual")
    assert said(lines) == ["Cavalier b1 c3."]


def test_with_lights_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = replay(tmp_path, ILLEGAL, capsys, "--say", "en", "--lights")
    events = [line["event"] for line in lines]
    assert "lights" in events
    illegal = events.index("illegal")
    assert events[illegal + 1] == "say"


def test_an_unknown_language_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.events"
    path.write_text(ILLEGAL)
    with pytest.raises(SystemExit) as exit_:
        main(["replay", str(path), "--say", "de"])
    assert exit_.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "de" in captured.err


def test_the_installed_command_writes_utf8_whatever_the_locale(tmp_path: Path) -> None:
    path = tmp_path / "game.events"
    path.write_text(SCHOLARS_MATE)
    done = subprocess.run(
        [sys.executable, "-m", "reedboard.cli", "replay", str(path), "--say", "fr"],
        capture_output=True,
        check=True,
        env={"PYTHONIOENCODING": "ascii", "LC_ALL": "C", "PYTHONUTF8": "0"},
    )
    lines = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert said(lines)[-2] == "Dame h5 prend pion f7, échec et mat."
