"""`reedboard-host` commands run in the test's process against a `BoardPair`: the
command's own code (its arguments, its request, the reply it prints, its exit status),
its connection on the pair's in-memory link and virtual clock instead of a serial port.
Nothing sleeps and nothing waits on the machine's load; each command keeps one test as a
real program on a real pty beside these (`tests/host/running_board.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from reedboard_host import cli, follow, watch
from reedboard_host.connection import BoardConnection
from reedboard_host.follow import Follower

from tests.support.board_pair import BoardPair


@dataclass(frozen=True)
class Ran:
    """What a command did: as `subprocess.run` tells it of a program."""

    returncode: int
    stdout: str
    stderr: str


class HostOnPair:
    def __init__(
        self,
        pair: BoardPair,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        self.pair = pair
        self.capsys = capsys

        def connection(port: str | None, **options: Any) -> BoardConnection:
            return BoardConnection(port, open_port=pair.open_port, clock=pair.host_clock, **options)

        def follower(port: str | None, **options: Any) -> Follower:
            return Follower(port, open_port=pair.open_port, clock=pair.host_clock, **options)

        # Where the commands open their link: there, the pair's end (`watch` follows the
        # board, reconnecting; the others ask once). `record` and `emulate` import the
        # follower when they run: the module's own name is the one they find.
        monkeypatch.setattr(cli, "BoardConnection", connection)
        monkeypatch.setattr(watch, "Follower", follower)
        monkeypatch.setattr(follow, "Follower", follower)

    def __call__(self, *argv: str) -> Ran:
        """`reedboard-host ARGV --port memory`, as a program would have run it."""
        self.capsys.readouterr()  # what came before is not this command's
        try:
            status = cli.main([*argv, "--port", "memory"])
        except SystemExit as exit_:  # argparse's refusal of an argument
            status = exit_.code if isinstance(exit_.code, int) else 1
        out, err = self.capsys.readouterr()
        return Ran(status, out, err)
