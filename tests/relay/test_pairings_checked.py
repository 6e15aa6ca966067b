"""`reedboard-relay --pairings FILE` checks the file: one that cannot be read or is
malformed is refused at start (one line, exit status 2); one broken later is said at once,
in one line naming the file, line and column, whether a page asks or not, and the relay
goes on with the last good pairings. Real programs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.children import child
from tests.relay.broker import Broker, free_port, running_broker
from tests.relay.relay_refused import relay_refused
from tests.support.said_lines import SaidLines

BIN = Path(sys.executable).parent
GOOD = "board,round,board_number,white,black,white_elo\nb1,1,1,Ann,Bob,2100\n"
BAD_RATING = GOOD.replace("2100", "28x0")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


def relay(url: str, tmp_path: Path, pairings: Path) -> list[str]:
    return [str(BIN / "reedboard-relay"), "--mqtt", url, "--db", str(tmp_path / "relay.sqlite"),
            "--pairings", str(pairings)]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "said", "as_process"),
    [
        (BAD_RATING, "line 2, column white_elo: '28x0' is not a rating (a whole number)", False),
        ("board,round\nb1,1\n", "line 1: no column white or black", False),
        (None, "No such file or directory", True),
    ],
)
def test_a_bad_pairings_file_is_refused_at_start(
    text: str | None,
    said: str,
    as_process: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pairings = tmp_path / "round.csv"
    if text is not None:
        pairings.write_text(text)
    argv = relay(f"mqtt://127.0.0.1:{free_port()}", tmp_path, pairings)[1:]
    status, err, out = relay_refused(argv, capsys, as_process=as_process)
    assert status == 2
    assert err == f"reedboard-relay: cannot read the pairings {pairings}: {said}\n"
    assert out == ""


def test_a_file_broken_later_is_said_at_once_and_the_last_pairings_kept(
    broker: Broker, tmp_path: Path
) -> None:
    pairings = tmp_path / "round.csv"
    pairings.write_text(GOOD)
    with child(relay(broker.url, tmp_path, pairings), stdout=subprocess.PIPE,
               stderr=subprocess.PIPE, text=True) as running:  # fmt: skip
        assert running.stdout is not None and running.stderr is not None
        said = SaidLines(running.stderr)
        assert running.stdout.readline().startswith("http://")  # started, the file read
        pairings.write_text(BAD_RATING)
        os.utime(pairings, (1, 1))  # a different time, however fast the test wrote it
        # No page is asked: the relay reads the file again on its own.
        line = said.wait_for("cannot read the pairings")
        assert line == (
            f"reedboard-relay: cannot read the pairings {pairings}: line 2, column white_elo: "
            "'28x0' is not a rating (a whole number) (the pairings stay as they were)"
        )
        pairings.unlink()
        said.wait_for("No such file or directory")
        pairings.write_text(GOOD)
        said.wait_for(f"pairings {pairings} read again")
        assert len(said.with_part("cannot read the pairings")) == 2, said.lines
