"""What every `reedboard` command shares: a bad argument is one line naming it (exit
status 2), the output may be cut short by its reader (`| head`) without a traceback, and
`--help` shows the defaults and an example."""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from reedboard.cli import build_parser, main
from reedboard.command_line import CLOSED_OUTPUT, says_nothing
from reedboard.log_setup import LOG_LEVEL_VARIABLE, log_to_stderr

SCRIPT = "@start standard\n1000 lift e2\n1400 place e4\n2000 lift e7\n2400 place e5\n"


@pytest.mark.parametrize("speed", ["nan", "inf", "-inf", "1e308", "0", "-1", "fast"])
def test_a_bad_speed_is_one_line_naming_it(speed: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["run", "--fake", "--speed", speed])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("reedboard run: argument --speed: ")


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--fake", "--settle-ms", "0"],
        ["run", "--fake", "--settle-ms", "nan"],
        ["replay", "-", "--settle-ms", "-4"],
        ["sim", "--port", "70000"],
        ["perft", "x"],
    ],
)
def test_other_bad_numbers_are_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"reedboard {argv[0]}: argument "), err


def printing_commands(tmp_path: Path) -> list[list[str]]:
    script = tmp_path / "game.events"
    script.write_text(SCRIPT)
    return [
        ["perft", "3", "--divide"],
        ["chess960", "518"],
        ["replay", str(script), "--lights"],
        ["scan", "--fake", "--closed", "a1,b2"],
        # Without the page, which prints its URL on stderr at start.
        [
            "run",
            "--fake",
            "--script",
            str(script),
            "--speed",
            "50",
            "--until-done",
            "--print",
            "--web",
            "off",
        ],
        ["--help"],
        ["perft", "--help"],
    ]


def test_a_reader_that_goes_away_ends_the_output_quietly(tmp_path: Path) -> None:
    for argv in printing_commands(tmp_path):
        # The reader is gone before the first line: every write fails, as after `head -1`.
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            result = subprocess.run(
                [sys.executable, "-m", "reedboard.cli", *argv],
                stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120,
            )  # fmt: skip
        finally:
            os.close(write_end)
        assert result.stderr == "", (argv, result.stderr)
        assert result.returncode in (0, CLOSED_OUTPUT), argv


def subcommands() -> list[str]:
    return sorted(commands_of(build_parser()))


def commands_of(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser's subcommands by name, from the one subparsers action argparse keeps."""
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return action.choices


@pytest.mark.parametrize("name", subcommands())
def test_every_command_helps_with_defaults_and_an_example(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main([name, "--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    assert f"example:\n  reedboard {name}" in text
    sub = commands_of(build_parser())[name]
    for action in sub._actions:
        if not says_nothing(action.default) and action.help:
            assert f"(default: {action.default})" in " ".join(text.split()), action.dest


@pytest.mark.parametrize(
    ("wanted", "shown"), [("", ["info"]), ("debug", ["debug", "info"]), ("WARNING", [])]
)
def test_the_log_level_comes_from_the_environment(
    wanted: str,
    shown: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(LOG_LEVEL_VARIABLE, wanted)
    log_to_stderr("tool", packages=("log_level_test",))
    logger = logging.getLogger("log_level_test.part")
    logger.debug("debug")
    logger.info("info")
    assert capsys.readouterr().err.splitlines() == [f"tool: {line}" for line in shown]


def test_a_log_level_that_is_none_is_one_line_naming_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(LOG_LEVEL_VARIABLE, "loud")
    log_to_stderr("tool", packages=("log_level_test",))
    logging.getLogger("log_level_test").info("info")
    assert capsys.readouterr().err.splitlines() == [
        "tool: REEDBOARD_LOG=loud is not a log level (debug, info, warning): logging at info",
        "tool: info",
    ]


@pytest.mark.parametrize(("columns", "widest"), [("50", 48), ("120", 118), ("", 78)])
def test_help_fits_the_terminal_as_columns_says(
    columns: str, widest: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The width is found without shutil (start-up), as shutil would: COLUMNS, else the
    # terminal on stdout (none here), else 80; argparse keeps 2 columns spare.
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setattr(sys, "__stdout__", None)
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    text = capsys.readouterr().out
    # The options argparse wraps (the description and the example keep their own lines).
    options = text.split("\noptions:\n", 1)[1].split("\n\n", 1)[0]
    widths = [len(line) for line in options.splitlines()]
    assert max(widths) <= widest
    assert max(widths) > widest - 15  # the width given is used, not a narrower one
