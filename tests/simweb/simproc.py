"""`reedboard sim` as a child process, as a user starts it: the URL and the pty path are
read from its first two lines of stdout. It is stopped (killed if need be) when the block
ends, whatever happened in it."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

from tests.children import child


@dataclass
class Sim:
    url: str
    pty: str
    process: subprocess.Popen[str]


@contextlib.contextmanager
def running_sim(*args: str) -> Iterator[Sim]:
    with child(
        [sys.executable, "-m", "reedboard.cli", "sim", "--no-browser", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    ) as process:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        pty = process.stdout.readline().strip().removeprefix("serial: ")
        assert url.startswith("http://127.0.0.1:"), (url, process.stderr and process.stderr.read())
        yield Sim(url, pty, process)
