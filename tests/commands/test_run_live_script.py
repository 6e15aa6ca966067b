"""`reedboard run --fake --script -`: the event script read from stdin as it comes, a line
that cannot be read said on stderr and skipped, the board done at the end of the input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def run(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    command = [str(BIN / "reedboard"), "run", "--fake", "--script", "-", "--web", "off", *args]
    return subprocess.run(
        command, input=stdin, capture_output=True, text=True, timeout=120, check=False
    )


def test_stdins_lines_are_played_and_a_bad_one_is_skipped() -> None:
    lines = "@mode strict\n\n+100 lift e2\n+300 place e4\n+0 lift e5\n+200 lift e7\n+300 place e5\n"
    # At 20 times the speed: the board's clock runs on 10 s after the input's end (what is
    # pending decided) before it is done; half a second so. The lines' own times are the
    # board's clock's too.
    done = run(lines, "--until-done", "--speed", "20")
    assert done.returncode == 0, done.stderr
    moves = [json.loads(line)["uci"] for line in done.stdout.splitlines() if '"move"' in line]
    assert moves == ["e2e4", "e7e5"]
    said = done.stderr.strip().splitlines()
    assert said == [
        "reedboard run: stdin: line 5: lift e5, but the sensor on e5 already reads empty (skipped)"
    ]


def test_a_bad_header_on_stdin_stops_the_board_at_start() -> None:
    refused = run("@start nowhere\n")
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        "reedboard run: stdin: line 1: @start is 'standard', 'chess960 <N>' or 'fen <FEN>'"
    )
