"""One real browser for a module's page tests: Debian's chromium, driven by Playwright,
launched once (a launch costs seconds of CPU) and closed with the module (while it is
open, Playwright's sync API holds an asyncio loop on the main thread). Each test
opens a context of its own (`new_context`: its own cookies, storage and viewport, nothing
carried over from another test) and closes it whatever happens."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update"]  # fmt: skip
TIMEOUT_MS = 60_000


def need_chromium() -> None:
    """Skip without Debian's chromium; in CI its absence is a failure."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"no {CHROMIUM}")


@contextmanager
def launched_chromium() -> Iterator[Any]:
    """Chromium, headless, for the block; closed with its driver whatever happens."""
    need_chromium()
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()
