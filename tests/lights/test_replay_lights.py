"""`reedboard replay --lights`, on the example scripts in docs/examples/ and a few more."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from reedboard.cli import main
from reedboard.replay.runner import LightsChange, replay_script, replay_with_lights
from reedboard.replay.script import parse_script

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
SCRIPTS = sorted(EXAMPLES.glob("*.events"))


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "firmware"))
    return subprocess.run(
        [sys.executable, "-m", "reedboard.cli", "replay", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=env,
        check=False,
    )


def lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


ITALIAN = """
1000 lift e2
1400 place e4
2500 lift e7
2900 place e5
"""


def test_lifting_a_piece_lights_its_origin_and_targets() -> None:
    out = lines(run("--lights", "-", stdin=ITALIAN).stdout)
    assert out[0]["event"] == "touch"
    assert out[1] == {
        "event": "lights",
        "t_ms": 1012,
        "lit": {"e2": "origin", "e3": "target", "e4": "target"},
    }
    # Set down, the pawn rests RELAND_MS before its move is made: meanwhile it is shown
    # as a finished move not yet made.
    assert out[2] == {
        "event": "lights",
        "t_ms": 1412,
        "lit": {"e2": "pending", "e3": "target", "e4": "pending"},
    }
    assert out[3]["event"] == "move" and out[3]["uci"] == "e2e4"
    assert out[4] == {
        "event": "lights",
        "t_ms": out[3]["t_ms"],
        "lit": {"e2": "last_move", "e4": "last_move"},
    }


def test_a_mismatch_lights_what_to_restore_until_it_is_restored() -> None:
    script = "1000 lift g1\n1400 place g3\n3000 lift g3\n3400 place g1\n"
    out = lines(run("--lights", "-", stdin=script).stdout)
    illegal = next(i for i, e in enumerate(out) if e["event"] == "illegal")
    assert out[illegal + 1]["lit"] == {"g1": "missing", "g3": "extra"}
    assert out[-1]["event"] == "lights" and out[-1]["lit"] == {}


def test_output_is_in_time_order_and_lights_only_on_change() -> None:
    script = parse_script(ITALIAN)
    items = replay_with_lights(script)
    times = [item.t_ms for item in items]
    assert times == sorted(times)
    lit = [item.lit for item in items if isinstance(item, LightsChange)]
    assert all(a != b for a, b in itertools.pairwise(lit))
    effects = [item for item in items if not isinstance(item, LightsChange)]
    assert effects == replay_script(script)


def test_the_example_scripts_are_there() -> None:
    assert SCRIPTS, "docs/examples/ holds no event script"


def replayed(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """`reedboard replay ARGS`'s output, by its `main` in this process (the program's own
    start is tested above, on its stdin)."""
    assert main(["replay", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_lights_add_lines_and_change_nothing_else(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = replayed(capsys, str(path))
    lit = replayed(capsys, str(path), "--lights")
    without = [line for line in lit.splitlines() if '"event": "lights"' not in line]
    assert without == plain.splitlines()
    events = lines(lit)
    assert any(e["event"] == "lights" for e in events)
    assert [e["t_ms"] for e in events] == sorted(e["t_ms"] for e in events)
    for event in events:
        if event["event"] == "lights":
            assert set(event) == {"event", "t_ms", "lit"}
    touches = [i for i, e in enumerate(events) if e["event"] == "touch"]
    assert any(
        events[i + 1]["event"] == "lights" and "origin" in events[i + 1]["lit"].values()
        for i in touches
    )


def test_a_clock_under_ten_seconds_lights_its_players_back_rank_when_it_falls_under() -> None:
    # 0.2 minutes (12 s) each: White moves in 1.4 s, then Black's clock runs from the
    # move's completion and falls under 10 s 2 s later, and Black's flag 10 s after that
    # (a pawn touched long after, so that the replay runs on past the flag).
    script = "@clock 0.2+0\n1000 lift e2\n1400 place e4\n20000 lift a2\n20400 place a2\n"
    items = replay_with_lights(parse_script(script))
    low = [i for i in items if isinstance(i, LightsChange) and "low_time" in i.lit.values()]
    assert low, "no back rank lit for low time"
    # The pawn set down at 1.4 s completed the move: Black's 12 s run from then.
    assert low[0].t_ms == 1_400 + 2_000 + 1  # under 10 s: 9.999 s left
    assert {sq for sq, role in low[0].lit.items() if role == "low_time"} == {
        f"{f}8" for f in "abcdefgh"
    }
    flag = next(i for i in items if not isinstance(i, LightsChange) and i.kind == "game_over")
    after = [i for i in items if isinstance(i, LightsChange) and i.t_ms >= flag.t_ms]
    assert after and "low_time" not in after[-1].lit.values()  # the game over: no more
    effects = [i for i in items if not isinstance(i, LightsChange)]
    assert effects == replay_script(parse_script(script))  # the lights change no effect


def test_a_press_told_late_keeps_the_lights_after_the_effect_they_followed() -> None:
    # White's press at 1505 waits for Black's hands on e7 and d7: it is told before the
    # touch of e7 (1512), and the lights of that touch still come after the touch.
    text = "@clock 5+2\n1000 lift e2\n1400 place e4\n1500 lift e7\n1505 press white\n"
    text += "1511 lift d7\n1515 place d7\n2000 place e5\n"
    items = replay_with_lights(parse_script(text))
    kinds = [(item.kind, item.t_ms) for item in items if 1500 < item.t_ms < 1600]
    assert kinds == [("clock", 1505), ("touch", 1512), ("lights", 1512)]
