"""`reedboard sim` from the command line: the URL first, then the pty, and a clean stop."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import serial

from tests.simweb.simproc import Sim, running_sim

aiohttp = pytest.importorskip("aiohttp")

# Generous for a loaded machine; a page connected used to hold the stop up for 30 s.
STOP_BOUND_S = 10


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


def test_a_bad_config_file_is_named_and_refused(tmp_path: Path) -> None:
    config = tmp_path / "board.toml"
    config.write_text("[matrix]\nscan_hz = 0\n")
    done = subprocess.run(
        [sys.executable, "-m", "reedboard.cli", "sim", "--no-browser", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("reedboard sim: ") and "scan_hz" in line


@pytest.mark.parametrize("page", ["listening", "frozen"])
def test_ctrl_c_with_a_page_connected_ends_promptly(page: str) -> None:
    """A browser tab left open must not hold the simulator up when it is stopped, even
    one that never answers the closing handshake."""

    async def connected_then_interrupted(sim: Sim) -> float:
        origin = sim.url.rstrip("/")
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(f"{origin}/ws", origin=origin)
            first = await asyncio.wait_for(ws.receive_json(), 10)
            assert first["type"] == "state"

            async def listen_until_the_end() -> int:
                if page == "listening":
                    # The page goes on listening, as an open tab does, until the server goes.
                    async for _message in ws:
                        pass
                return await asyncio.to_thread(sim.process.wait, STOP_BOUND_S)

            start = time.monotonic()
            sim.process.send_signal(signal.SIGINT)
            code = await asyncio.wait_for(listen_until_the_end(), STOP_BOUND_S)
            assert code == 0
            return time.monotonic() - start

    with running_sim() as sim:
        took = asyncio.run(connected_then_interrupted(sim))
    print(f"stopped {took:.2f} s after SIGINT with a {page} page connected")
