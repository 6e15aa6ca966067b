"""At `REEDBOARD_LOG=debug` the board says what it tells the host, one line a numbered
message (its type, number and the move), to set beside the host's own reads when a link
misbehaves; at the usual level it says none of it."""

from __future__ import annotations

import logging

import pytest
from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.hal.clock import VirtualClock
from reedboard.link.frame import FrameDecoder
from reedboard.link.host import HostEndpoint
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game

from tests.app.wire_link import WireLink

SCRIPT = "@start standard\n1000 lift e2\n1400 place e4\n"


def played(level: int, caplog: pytest.LogCaptureFixture) -> tuple[list[str], list[int]]:
    """The board's log lines while a host says hello and 1. e4 is played; and the numbers
    of the messages it wrote on the link."""
    caplog.set_level(level, logger="reedboard")
    script = parse_script(SCRIPT)
    board = scripted_board(script)
    link = WireLink()
    app = App(
        Sensing(board, source=board),
        VirtualClock(),
        link=HostLink(link),
        game=GameSetup(start=Game(script.start)),
    )
    host = HostEndpoint()
    host.hello()
    app.step(0, host.data_to_send())
    for now in range(5, 3000, 5):
        app.step(now)
    wrote = FrameDecoder().feed(bytes(link.written))
    lines = [r.getMessage() for r in caplog.records if r.name == "reedboard.app"]
    return lines, sorted({int(m["seq"]) for m in wrote if m.get("type") != "alive"})


def test_each_message_for_the_host_is_one_debug_line(caplog: pytest.LogCaptureFixture) -> None:
    lines, numbers = played(logging.DEBUG, caplog)
    told = [line for line in lines if "the host" in line]
    assert told[:2] == [
        "started: told the host: hello 1",
        "answered the host's hello (id 1): hello 2",
    ]
    assert "told the host: effect 4 move e2e4" in told, told
    # One line for each numbered message on the link (a short one goes out twice).
    assert [int(line.split(": ")[-1].split()[1]) for line in told] == numbers


def test_the_usual_level_says_none_of_it(caplog: pytest.LogCaptureFixture) -> None:
    lines, numbers = played(logging.INFO, caplog)
    assert numbers and not [line for line in lines if "the host" in line]
