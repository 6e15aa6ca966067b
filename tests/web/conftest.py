"""What the page's browser tests share: a phone, a fresh window at a phone's size on the
module's Chromium (its own cookies: not paired)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.simweb.page import TIMEOUT_MS, launched_chromium

PHONE = {"width": 360, "height": 740}  # the smallest phone the page is made for


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A module's Chromium, for all its tests (`launched_chromium`)."""
    with launched_chromium() as browser:
        yield browser


@pytest.fixture
def phone(chromium: Any) -> Iterator[Any]:
    """A page at a phone's size in a new context of its own, closed whatever happens."""
    context = chromium.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        yield page
    finally:
        context.close()
