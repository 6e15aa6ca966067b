"""What the relay's tests share: a store's path and the boards kept in it, and the
worker's one browser for the page tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

from tests.relay.browser import launched_chromium


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "relay.sqlite"


@pytest.fixture
def boards(path: Path) -> Iterator[Boards]:
    """The relay's boards on a fresh store, closed whatever happens."""
    made = Boards(RelayStore(str(path)))
    try:
        yield made
    finally:
        made.store.close()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """The worker's one Chromium (tests/relay/browser.py), launched at its first page test."""
    with launched_chromium() as browser:
        yield browser
