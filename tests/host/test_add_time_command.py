"""`reedboard-host add-time` as a real program against a running timed board on a real
pty: the board's clock grows; and in the test's process on the board pair, an untimed
game's refusal, and a bad amount refused before the port is opened."""

from __future__ import annotations

import pytest
from reedboard.board_game import Settings
from reedboard.chess_clock.time_control import parse_time_control

from tests.host.running_board import RunningBoard
from tests.host.test_commands import host, reply
from tests.support.board_pair import BoardPair
from tests.support.host_on_pair import HostOnPair

pytestmark = pytest.mark.timeout(120)


def test_add_time_grows_the_players_clock() -> None:
    settings = Settings(time_control=parse_time_control("5+0"))
    with RunningBoard(settings=settings) as board:
        answer = reply(host("add-time", "black", "2m", "--port", board.port))
        effects = list(board.effects)
    clock = answer["clock"]
    assert isinstance(clock, dict)
    assert clock["black_ms"] == 420_000 and clock["running"] == "white"
    assert clock["white_ms"] <= 300_000
    [added] = [e for e in effects if e["event"] == "clock"]
    assert added["added"] == {"color": "black", "ms": 120_000}


# The others in the test's process on the board pair (`host_on_pair`).


def test_an_untimed_game_is_refused_by_the_board(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    refused = HostOnPair(BoardPair(), monkeypatch, capsys)("add-time", "white", "30s")
    assert refused.returncode == 1
    assert "not timed" in refused.stderr and refused.stderr.count("\n") == 1


def test_a_bad_amount_is_refused_before_the_port_is_opened(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pair = BoardPair()
    refused = HostOnPair(pair, monkeypatch, capsys)("add-time", "white", "2h")
    assert pair.answered == []  # nothing was sent
    assert refused.returncode == 2
    assert refused.stderr == (
        "reedboard-host add-time: argument TIME: '2h' is not a time such as 2m, 30s or 1m30s"
        " (see --help)\n"
    )
