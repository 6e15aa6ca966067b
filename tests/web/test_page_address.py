"""Where the page is served (`web.running.page_address`): `--web HOST:PORT` or `off`,
else `[web]`, a fake board on its defaults on this machine only; a wrong `--web` is one
line naming it, and exit status 2."""

from __future__ import annotations

import subprocess
import sys

import pytest
from reedboard.config import WebConfig
from reedboard.errors import ConfigError
from reedboard.web.running import page_address


def test_the_command_line_then_the_configuration() -> None:
    assert page_address("127.0.0.1:0", WebConfig(), fake=True) == ("127.0.0.1", 0)
    assert page_address("[::1]:8080", WebConfig(), fake=False) == ("::1", 8080)
    assert page_address("off", WebConfig(), fake=False) is None
    assert page_address(None, WebConfig(), fake=False) == ("0.0.0.0", 80)
    assert page_address(None, WebConfig(), fake=True) == ("127.0.0.1", 0)
    assert page_address(None, WebConfig(port=8000), fake=True) == ("0.0.0.0", 8000)
    assert page_address(None, WebConfig(enabled=False), fake=True) is None


@pytest.mark.parametrize("bad", ["8080", "localhost", ":80", "host:eighty", "host:70000"])
def test_a_wrong_address_is_refused(bad: str) -> None:
    with pytest.raises(ConfigError, match="expected HOST:PORT"):
        page_address(bad, WebConfig(), fake=True)


def test_a_wrong_address_stops_the_board_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "reedboard.cli", "run", "--fake", "--web", "nowhere"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "reedboard run: --web 'nowhere': expected HOST:PORT (127.0.0.1:8080) or off\n"
    )


def test_a_port_taken_is_said_and_the_board_plays_on() -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        board = subprocess.Popen(
            [sys.executable, "-m", "reedboard.cli", "run", "--fake", "--web", f"127.0.0.1:{port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert board.stderr is not None
            line = board.stderr.readline()
            assert line.startswith(f"reedboard run: the page cannot listen on 127.0.0.1:{port}")
            assert line.rstrip().endswith("the board plays on without it")
            assert board.poll() is None  # still running
        finally:
            board.terminate()
            board.wait(30)
