"""Fixtures of the tests of the board's broker link: a real Mosquitto, and the link's
log lines as they come."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.link.board_logs import Heard, hearing_the_link
from tests.relay.broker import Broker, running_broker


@pytest.fixture
def heard() -> Iterator[Heard]:
    with hearing_the_link() as handler:
        yield handler


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running
