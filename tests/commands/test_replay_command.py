"""`reedboard replay` as the contract fixes it: JSON Lines out, exit 2 on a bad script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from reedboard.cli import main
from reedboard.reader.move_reader import DEFAULT_KNOCK_WAIT_MS

from tests.reader.support import steps

GOOD = "@start standard\n1000 lift e2\n1400 place e3\n"


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "game.events"
    path.write_text(text)
    return str(path)


def test_effects_are_json_lines_with_event_and_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", write(tmp_path, GOOD)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(e["event"], e["t_ms"]) for e in lines] == [("touch", 1012), ("move", 1700)]
    assert lines[1]["uci"] == "e2e3" and lines[1]["san"] == "e3"
    assert lines[1]["fen"] == "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def test_options_override_the_header(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The settle time decides when e3, which could still become e4, is committed.
    assert main(["replay", write(tmp_path, GOOD), "--settle-ms", "1000"]) == 0
    move = [json.loads(line) for line in capsys.readouterr().out.splitlines()][-1]
    assert move["t_ms"] == 2400
    text = "@mode casual\n1000 lift g1\n1200 place g1\n2000 lift b1\n2400 place c3\n"
    assert main(["replay", write(tmp_path, text), "--mode", "strict"]) == 0
    events = [json.loads(line)["event"] for line in capsys.readouterr().out.splitlines()]
    assert "violation" in events and "move" not in events


@pytest.mark.parametrize("knock_wait_ms", [None, 800, 3000])
def test_the_knock_wait_option_sets_how_long_a_swapped_capture_waits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], knock_wait_ms: int | None
) -> None:
    # 1.e4 d5 2.Nf3 e6, then exd5 swapped in one motion (d5 empty for 40 ms): the victim
    # may only have been knocked, so the capture waits for knock_wait_ms of stillness.
    opening = "lift e2, +300 place e4; lift d7, +300 place d5; lift g1, +300 place f3"
    body = steps(
        f"{opening}; lift e7, +300 place e6; lift e4, +200 lift d5, +40 place d5", gap_ms=0
    )
    placed = int(body.splitlines()[-1].split()[0])
    body += f"\n{placed + 5000} lift g8\n{placed + 5300} place f6\n"
    option = [] if knock_wait_ms is None else ["--knock-wait-ms", str(knock_wait_ms)]
    assert main(["replay", write(tmp_path, "@start standard\n" + body), *option]) == 0
    effects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    capture = next(e for e in effects if e["event"] == "move" and e["uci"] == "e4d5")
    waited = DEFAULT_KNOCK_WAIT_MS if knock_wait_ms is None else knock_wait_ms
    assert capture["t_ms"] == placed + waited


@pytest.mark.parametrize(
    "text",
    ["1000 lift e4\n", "1000 lift e2\n900 place e4\n", "@start fen nonsense\n", "1000 jump e2\n"],
)
def test_a_bad_script_exits_2_with_one_line_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    assert main(["replay", write(tmp_path, text)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "line " in err


def test_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nothing.events")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1


def test_the_installed_command(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "reedboard"
    done = subprocess.run(
        [str(script), "replay", write(tmp_path, GOOD)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout.splitlines()[-1])["uci"] == "e2e3"
