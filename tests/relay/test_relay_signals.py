"""The relay as a process, ended by SIGTERM the moment it says where it serves: it stops
cleanly (status 0). The handlers used to be installed only after the URLs were printed
and the boards' side started, and a supervisor that stopped it then killed it (-15)."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.children import child, stop
from tests.relay.broker import Broker, running_broker
from tests.relay.test_relay_end_to_end import relay_command


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path) as running:
        yield running


@pytest.mark.parametrize("attempt", range(3))
def test_sigterm_as_soon_as_the_url_is_printed_ends_it_cleanly(
    broker: Broker, tmp_path: Path, attempt: int
) -> None:
    command = relay_command(broker, tmp_path / f"relay{attempt}.sqlite")
    with child(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as relay:
        assert relay.stdout is not None
        assert relay.stdout.readline().startswith("http://")
        status = stop(relay, signal.SIGTERM, grace_s=30)
    assert status == 0
