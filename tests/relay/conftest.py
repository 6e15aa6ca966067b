"""What the relay's tests share: a store's path and the boards kept in it, and one
browser for a module's page tests."""

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


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One Chromium for a module's page tests (tests/relay/browser.py). Not for the whole
    session: Playwright's sync API runs an asyncio loop on the main thread while it is
    open, and every later test's `asyncio.run` there would fail."""
    with launched_chromium() as browser:
        yield browser
