"""`reedboard-host publish` tells a port it cannot open through the host's log, once
however long the port stays away, as every part of the host does."""

from __future__ import annotations

import logging

import pytest
from reedboard.errors import LinkError
from reedboard.link.mqtt_client import BrokerSettings
from reedboard_host.publish import REOPEN_S, publish
from reedboard_host.transport import BoardPort

from tests.support.logged import logged


class CountedClock:
    """Waits that take no time; stops the bridge after `waits` of them."""

    def __init__(self, waits: int) -> None:
        self.left = waits
        self.t = 0.0

    def monotonic(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += seconds
        self.left -= 1


def test_a_missing_port_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "reedboard_host")  # as the command line logs it
    clock = CountedClock(waits=3)

    def no_port(url: str) -> BoardPort:
        raise LinkError(f"no port at {url}")

    # The broker is not there: its client connects in the background and never blocks.
    settings = BrokerSettings("mqtt://127.0.0.1:1", "b1")
    assert (
        publish("ser:/nowhere", settings, lambda: clock.left <= 0, opener=no_port, clock=clock) == 0
    )
    assert logged(caplog, "reedboard_host") == [
        "publishing the board on ser:/nowhere to the MQTT broker at 127.0.0.1:1 as board b1; "
        "Ctrl-C stops",  # said once at start, then the port's trouble once
        f"no port at ser:/nowhere; trying again every {REOPEN_S:g} s",
    ]
