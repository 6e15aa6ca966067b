"""`reedboard run`'s plain command line, read without argparse, gives what argparse gives;
anything else is left to argparse (None), so that its messages stay the only ones."""

from __future__ import annotations

import argparse
import itertools
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from reedboard import __version__
from reedboard.cli import build_parser
from reedboard.commands.run import plain_command_line
from reedboard.plain_arguments import plain_values

ROOT = Path(__file__).resolve().parents[1]

# Tokens for each option: values argparse takes and values it refuses, whole and `=` forms.
FORMS = [
    [],
    ["--fake"],
    ["--fake=yes"],
    ["--config", "board.toml"],
    ["--config=a=b.toml"],
    ["--config", ""],
    ["--conf", "board.toml"],  # an abbreviation: argparse's own
    ["--journal", "-"],
    ["--journal", "j.sqlite"],
    ["--serial", "/dev/ttyGS0"],
    ["--mode", "strict"],
    ["--mode", "loose"],
    ["--settle-ms", "40"],
    ["--settle-ms=+40"],
    ["--settle-ms", "0"],
    ["--settle-ms", "-4"],
    ["--board-id", "b7"],
    ["--mqtt", "mqtt://127.0.0.1:9"],
    ["--protocol", "dgt"],
    ["--protocol=uci"],
    ["--random-game", "7", "--plies", "20"],
    ["--plies"],
    ["--speed", "2.5"],
    ["--speed", "nan"],
    ["--speed=1e3"],
    ["--until-done", "--print"],
    ["--print", "--print"],
    ["-h"],
    ["--help"],
    ["extra"],
    ["--"],
]


def argparse_values(argv: list[str]) -> dict[str, object] | None:
    """What argparse makes of `argv` (None where it refuses it or shows help)."""
    try:
        return vars(build_parser().parse_args(argv))
    except SystemExit:
        return None


def command_lines() -> list[list[str]]:
    lines = [["run", *a, *b] for a, b in itertools.combinations(FORMS, 2)]
    return [*lines, ["run"], ["--version"], ["sim", "--fake"], ["running", "--fake"]]


def test_plain_command_lines_read_as_argparse_reads_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    accepted = plain = 0
    for argv in command_lines():
        found = plain_command_line(argv)
        expected = argparse_values(argv)
        if found is not None:
            plain += 1
            assert vars(found) == expected, argv
        elif expected is not None:
            accepted += 1
            # What argparse takes and this reader leaves to it: an abbreviation, a value
            # that starts as an option does, an option given twice, and a command line
            # that is not `run`'s.
            flags = [token.partition("=")[0] for token in argv if token.startswith("--")]
            twice = len(set(flags)) < len(flags)
            assert twice or {"--conf", "-", "--version", "sim"} & set(argv), argv
    capsys.readouterr()  # argparse's messages for the refused ones
    assert plain > 100, (plain, accepted)


def test_the_services_command_line_is_plain() -> None:
    unit = (ROOT / "deploy" / "reedboard.service").read_text()
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    command = shlex.split(exec_start.removeprefix("ExecStart="))
    assert command[1:4] == ["-P", "-m", "reedboard.cli"]
    argv = command[4:]
    assert argv[0] == "run"
    found = plain_command_line(argv)
    assert found is not None
    assert vars(found) == argparse_values(argv)
    assert found.journal == "/var/lib/reedboard/journal.sqlite"


@pytest.mark.parametrize(
    "tokens",
    [
        ["--spee", "2"],  # abbreviated
        ["--speed", "2", "--speed", "3"],  # given twice
        ["--speed", "-2"],  # a value that starts as an option does
        ["--speed"],  # no value
        ["--speed", "fast"],  # refused by its type
        ["--mode", "loose"],  # not a choice
        ["--fake=1"],  # a switch takes no value
        ["--count", "2"],  # an action this reader does not know
        ["2"],  # a positional
    ],
)
def test_what_is_not_plain_is_left_to_argparse(tokens: list[str]) -> None:
    options: dict[str, dict[str, Any]] = {
        "--speed": {"type": float, "default": 1.0},
        "--mode": {"choices": ("casual", "strict")},
        "--fake": {"action": "store_true"},
        "--count": {"action": "count"},
    }
    assert plain_values(tokens, options) is None


def test_defaults_are_argparses() -> None:
    options: dict[str, dict[str, Any]] = {
        "--n": {"type": int, "default": "3"},
        "--on": {"action": "store_true"},
        "--x": {},
    }
    parser = argparse.ArgumentParser()
    for flag, settings in options.items():
        parser.add_argument(flag, **settings)
    assert (
        plain_values([], options)
        == vars(parser.parse_args([]))
        == {
            "n": 3,
            "on": False,
            "x": None,
        }
    )


def test_the_services_way_of_starting_the_board_runs_it() -> None:
    # The unit starts `python -P -m reedboard.cli`, not the `reedboard` script.
    done = subprocess.run(
        [sys.executable, "-P", "-m", "reedboard.cli", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, f"reedboard {__version__}\n"), done.stderr
