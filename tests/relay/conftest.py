"""What the relay's store-level tests share: a store's path and the boards kept in it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore


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
