"""`reedboard-host`'s arguments are checked before the port is opened: what the board would
refuse is refused here, one line naming the argument, exit status 2. The board's own
refusal of an argument it cannot read gives 2 as well; its refusal of a command its game
does not allow now gives 1."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from dataclasses import dataclass

import pytest
from reedboard.command_line import CLOSED_OUTPUT, says_nothing
from reedboard.link.messages import Mark, TakeBack
from reedboard_host.cli import _status, main
from reedboard_host.connection import BoardConnection, RefusedError
from reedboard_host.usb_ports import usb_serial_ports

from tests.support.board_pair import BoardPair
from tests.support.host_on_pair import HostOnPair

NO_PORT = "/dev/no-such-port"  # were the port opened, the error would be another


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["new", "--chess960", "-5"], "argument --chess960: '-5' is not a whole number 0..959"),
        (["new", "--chess960", "960"], "argument --chess960: '960' is not a whole number 0..959"),
        (["new", "--fen", "not a position"], "argument --fen: bad FEN"),
        (["new", "--clock", "fast"], "argument --clock: time control 'fast'"),
        (["new", "--clock", "0+3"], "argument --clock: time control '0+3': a game needs some"),
        (["new", "--fen", "7k/5QQQ/8/8/8/8/8/K7 b - - 0 1"], "--fen: the game would be over"),
        (["new", "--chess960", "7", "--fen", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"], "give one"),
        (["mark", "e9"], "argument SQ: 'e9' is not a square"),
        (["mark", "e4", "--blink", "i1"], "argument --blink: 'i1' is not a square"),
        (["show", "e2-e4"], "argument uci: 'e2-e4' is not a move in UCI"),
        (["settings", "--settle-ms", "0"], "argument --settle-ms: '0' is not a whole number"),
        (["settings", "--castle-wait-ms", "70000"], "argument --castle-wait-ms: '70000'"),
        (["settings", "--knock-wait-ms", "-1"], "argument --knock-wait-ms: '-1'"),
        (["promote", "k"], "argument piece: invalid choice: 'k'"),
        (["mode", "blitz"], "argument mode: invalid choice: 'blitz'"),
        (["play", "--level", "99"], "argument --level: '99' is not a whole number 0..20"),
        (["play", "--movetime-ms", "-5"], "argument --movetime-ms: '-5' is not a whole number"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_status_2(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The command's own `main`, in this process: what it checks happens before any port
    # is opened, and each command's start as a program is tested with a board
    # (test_commands.py), a program's exit status below.
    try:
        status: object = main([*argv, "--port", NO_PORT])
    except SystemExit as exit_:  # argparse's refusal
        status = exit_.code
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1, err
    assert err.startswith(f"reedboard-host {argv[0]}: ")
    assert says in err


def test_the_whole_line_of_a_refused_argument(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["new", "--chess960", "960", "--port", NO_PORT])
    assert refused.value.code == 2
    assert capsys.readouterr().err == (
        "reedboard-host new: argument --chess960: '960' is not a whole number 0..959 (see --help)\n"
    )


def test_the_boards_refusal_of_an_argument_is_exit_status_2() -> None:
    pair = BoardPair()
    connection = BoardConnection("memory", open_port=pair.open_port, clock=pair.host_clock)
    connection.open()
    with pytest.raises(RefusedError) as bad:
        connection.request(Mark(("e9",)))
    with pytest.raises(RefusedError) as not_now:
        connection.request(TakeBack())
    assert (bad.value.code, _status(bad.value)) == ("bad_argument", 2)
    assert (not_now.value.code, _status(not_now.value)) == ("refused", 1)


@dataclass
class Port:
    device: str
    vid: int | None = None


def test_only_usb_serial_ports_may_be_a_board() -> None:
    ports = [Port("/dev/ttyS0"), Port("/dev/ttyUSB0", 0x0403), Port("/dev/ttyACM0"),
             Port("COM3", 0x2E8A), Port("COM1"), Port("/dev/ttyS1")]  # fmt: skip
    assert usb_serial_ports(lambda: ports) == ["/dev/ttyACM0", "/dev/ttyUSB0", "COM3"]
    assert usb_serial_ports(lambda: [Port("/dev/ttyS0")]) == []


@pytest.mark.skipif(bool(usb_serial_ports()), reason="a USB serial port is plugged in here")
def test_without_a_usb_serial_port_one_line_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    # `main` in this process (programs' own ends are tested below).
    assert main(["state"]) == 1
    assert capsys.readouterr().err == (
        "reedboard-host state: no USB serial port found: connect the board's USB cable or "
        "give --port\n"
    )


@pytest.mark.skipif(bool(usb_serial_ports()), reason="a USB serial port is plugged in here")
def test_ports_lists_no_builtin_serial_port(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["ports"])
    out, err = capsys.readouterr()
    assert (status, out) == (0, "")  # never ttyS0
    assert err == ("reedboard-host: no USB serial port found: is the board's USB cable in?\n")


def test_a_reader_that_goes_away_ends_the_output_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The commands that ask the board, in this process on the board pair: their stdout a
    # pipe whose reader is gone before the first line, as after `head -1`.
    host_on = HostOnPair(BoardPair(), monkeypatch, capsys)
    for argv in (["state"], ["new"]):
        read_end, write_end = os.pipe()
        os.close(read_end)
        with open(write_end, "w", encoding="utf-8") as gone:
            monkeypatch.setattr(sys, "stdout", gone)
            ran = host_on(*argv)
        assert "Traceback" not in ran.stderr and "Broken pipe" not in ran.stderr
        assert ran.returncode == CLOSED_OUTPUT, (argv, ran.stderr)
    # The programs themselves, to their exit (Python's own flush of stdout at the end).
    for argv in (["--help"], ["ports"]):
        read_end, write_end = os.pipe()
        os.close(read_end)
        try:
            result = subprocess.run(
                [sys.executable, "-m", "reedboard_host.cli", *argv],
                stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60,
            )  # fmt: skip
        finally:
            os.close(write_end)
        assert "Traceback" not in result.stderr and "Broken pipe" not in result.stderr
        assert result.returncode in (0, CLOSED_OUTPUT), (argv, result.stderr)


def commands_of(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser's subcommands by name, from the one subparsers action argparse keeps."""
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return action.choices


def host_commands() -> list[str]:
    from reedboard_host.cli import build_parser

    parser = build_parser()
    return sorted(commands_of(parser))


@pytest.mark.parametrize("name", host_commands())
def test_every_command_helps_with_defaults_and_an_example(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from reedboard_host.cli import build_parser, main

    with pytest.raises(SystemExit) as exited:
        main([name, "--help"])
    assert exited.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert f"example: reedboard-host {name}" in text
    sub = commands_of(build_parser())[name]
    for action in sub._actions:
        if says_nothing(action.default) or not action.help:
            continue
        assert f"(default: {action.default})" in text or "default" in action.help, action.dest
