"""What the page's browser tests share: a phone, a fresh Chromium at a phone's size."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.simweb.page import CHROMIUM, FLAGS, TIMEOUT_MS, need_browser

PHONE = {"width": 360, "height": 740}  # the smallest phone the page is made for


@pytest.fixture
def phone() -> Iterator[Any]:
    """A page in Debian's Chromium at a phone's size, closed whatever happens."""
    need_browser()
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            page = browser.new_context(viewport=PHONE).new_page()
            page.set_default_timeout(TIMEOUT_MS)
            yield page
        finally:
            browser.close()
