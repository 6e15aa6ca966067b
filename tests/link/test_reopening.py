"""The one reconnect loop: a link that fails is opened again at once, then every `every_s`
while it cannot be; the log says when the wait begins and when the link is back, once
each, however long the wait. On a clock the test moves."""

from __future__ import annotations

import logging

import pytest
from reedboard.errors import LinkError
from reedboard.link.reopening import Reopening

from tests.support.logged import logged

LOGGER = "reedboard.test_reopening"


class Ports:
    """Opens ports numbered from 1 while `present`; counts the tries, and what closed."""

    def __init__(self) -> None:
        self.present = False
        self.tries: list[float] = []
        self.closed: list[int] = []
        self.t = 0.0
        self.opened = 0

    def open(self) -> int:
        self.tries.append(self.t)
        if not self.present:
            raise LinkError("no port here")
        self.opened += 1
        return self.opened


def kept(ports: Ports, *, port: int | None = None) -> Reopening[int]:
    return Reopening(
        ports.open, ports.closed.append, every_s=1.0, now_s=lambda: ports.t,
        logger=logging.getLogger(LOGGER), port=port, back_line="the port is back",
    )  # fmt: skip


def test_an_absent_port_is_tried_every_interval_and_said_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, LOGGER)
    ports = Ports()
    link = kept(ports)
    for step in range(31):  # three seconds in turns of 0.1 s
        ports.t = step / 10
        assert link.get() is None
    assert ports.tries == [0.0, 1.0, 2.0, 3.0]
    assert link.wait_s() == pytest.approx(1.0)
    ports.present = True
    ports.t = 3.5
    assert link.get() is None  # not due yet
    ports.t = 4.0
    assert link.get() == 1
    assert logged(caplog, LOGGER) == ["no port here; trying again every 1 s", "the port is back"]


def test_a_lost_port_is_closed_and_tried_again_at_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, LOGGER)
    ports = Ports()
    ports.present = True
    link = kept(ports, port=7)
    assert link.get() == 7 and ports.tries == []
    ports.t = 5.0
    link.lost(LinkError("cable pulled"), "lost it: ")
    assert ports.closed == [7]
    assert link.get() == 1 and ports.tries == [5.0]  # at once: put back already
    link.lost(LinkError("pulled again"))
    ports.present = False
    assert link.get() is None
    link.lost(LinkError("said nothing: nothing was open"))
    assert ports.closed == [7, 1]
    assert logged(caplog, LOGGER) == [
        "lost it: cable pulled; trying again every 1 s",
        "the port is back",
        "pulled again; trying again every 1 s",
    ]


def test_without_an_opener_a_lost_port_stays_down() -> None:
    ports = Ports()
    link: Reopening[int] = Reopening(
        None, ports.closed.append, every_s=1.0, now_s=lambda: ports.t,
        logger=logging.getLogger(LOGGER), port=3,
    )  # fmt: skip
    link.lost(LinkError("gone"))
    ports.t = 10.0
    assert link.get() is None and ports.tries == [] and ports.closed == [3]


def test_close_closes_the_open_port_once() -> None:
    ports = Ports()
    link = kept(ports, port=2)
    link.close()
    link.close()
    assert ports.closed == [2] and link.port is None
