"""`reedboard sim` from the command line: the URL first, then the pty, and a clean stop."""

from __future__ import annotations

import socket
import subprocess
import sys
import urllib.request

import serial

from tests.simweb.simproc import running_sim


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_the_url_comes_first_and_the_pty_opens_like_a_serial_port() -> None:
    port = _free_port()
    with running_sim("--port", str(port)) as sim:
        assert sim.url == f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(sim.url, timeout=5) as answer:
            assert b'id="board"' in answer.read()
        link = serial.Serial(sim.pty, timeout=2)
        try:
            assert link.read(1)  # the board greets (hello, then alive) on its own
        finally:
            link.close()
    assert sim.process.returncode == 0


def test_a_bad_port_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "reedboard.cli", "sim", "--no-browser", "--port", "70000"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 2 and "--port" in done.stderr
