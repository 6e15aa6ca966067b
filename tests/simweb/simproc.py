"""`reedboard sim` as a child process, as a user starts it: the URL and the pty path are
read from its first two lines of stdout. It is stopped (killed if need be) when the block
ends, whatever happened in it."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass

from reedboard.config import BoardConfig

from tests.children import child


@dataclass
class Sim:
    url: str
    pty: str
    process: subprocess.Popen[str]


# The simulator's matrix scanned 50 times a second, not the default 200: the fake GPIO
# solves the matrix's electrics at each scan, and a simulator scanning at 200 Hz spent 8 %
# of a core doing nothing, most of its CPU in these tests. The page's gestures and the
# tests' scripts keep 150 ms and more between switches: a scan every 20 ms reads them all.
QUIET_HZ = 50
QUIET_SCAN = f"[matrix]\nscan_hz = {QUIET_HZ}\n"


def quiet_config() -> BoardConfig:
    """The simulator's settings as a user has them, scanning at QUIET_HZ: for a `SimBoard`
    the tests drive in their own process, where its scans cost the test's own CPU."""
    config = BoardConfig()
    return config._replace(matrix=config.matrix._replace(scan_hz=QUIET_HZ))


@contextlib.contextmanager
def running_sim(*args: str, quiet: bool = True) -> Iterator[Sim]:
    """The simulator; `quiet`: scanning at QUIET_SCAN's rate (False: as a user starts it)."""
    if not quiet:
        with _sim(list(args)) as sim:
            yield sim
        return
    with tempfile.TemporaryDirectory(prefix="sim-") as folder:
        config = os.path.join(folder, "board.toml")
        with open(config, "w", encoding="utf-8") as file:
            file.write(QUIET_SCAN)
        with _sim(["--config", config, *args]) as sim:
            yield sim


@contextlib.contextmanager
def _sim(args: list[str]) -> Iterator[Sim]:
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
