"""What the relay's tests share: a store's path and the boards kept in it, and the test
process's Chromium for the page tests (`tests/support/browsers.py`, as the board's and
the simulator's page tests have it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

from tests.support.browsers import on_page_turn, shared_chromium


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "relay.sqlite"


@pytest.fixture
def store(path: Path) -> Iterator[RelayStore]:
    """A fresh relay store, closed whatever happens."""
    made = RelayStore(str(path))
    try:
        yield made
    finally:
        made.close()


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
    """The test process's Chromium, for every page test (`shared_chromium`): launched by
    the first that needs it, each test in contexts of its own."""
    with shared_chromium() as browser:
        yield browser


@pytest.fixture(autouse=True)
def page_turn(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test on a page runs on Playwright's loop (`on_page_turn`); others on none, so
    their `asyncio.run` works after a page test in the same process."""
    with on_page_turn(request):
        yield
