"""What the page's browser tests share: a phone, a fresh window at a phone's size on the
test process's Chromium (its own cookies: not paired)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.simweb.page import TIMEOUT_MS
from tests.support.browsers import on_page_turn, shared_chromium

PHONE = {"width": 360, "height": 740}  # the smallest phone the page is made for


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """The test process's Chromium, for every page test (`shared_chromium`)."""
    with shared_chromium() as browser:
        yield browser


@pytest.fixture(autouse=True)
def page_turn(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test on a page runs on Playwright's loop (`on_page_turn`); others on none."""
    with on_page_turn(request):
        yield


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
