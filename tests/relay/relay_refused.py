"""`reedboard-relay` refusing its command line at start (exit status 2, one line on
stderr, nothing on stdout), as a process or in the test's own process.

A setting refused at start is read before the relay serves or opens any connection: the
command's `run` says it and returns its status. Run in the test's process it costs no
Python start; each kind of test still runs the command as a process at least once, which
is what checks the status the program exits with."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from reedboard_relay.cli import parser, run

BIN = Path(sys.executable).parent


def relay_refused(
    argv: list[str], capsys: pytest.CaptureFixture[str], *, as_process: bool
) -> tuple[int, str, str]:
    """`reedboard-relay ARGV` run to its refusal: (exit status, stderr, stdout)."""
    if as_process:
        done = subprocess.run([str(BIN / "reedboard-relay"), *argv],
                              capture_output=True, text=True, timeout=60)  # fmt: skip
        return done.returncode, done.stderr, done.stdout
    capsys.readouterr()  # what the test said before
    status = run(parser().parse_args(argv))
    said = capsys.readouterr()
    return status, said.err, said.out
