"""The browser tests' fixtures: `reedboard sim` as a child process, Debian's chromium
driven by Playwright, and a fresh game on a new tab. Each is stopped or closed whatever
happens in the tests (a module's tests share one simulator and one Chromium)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.simweb.page import DESKTOP, Board, launched_chromium, need_browser, open_page
from tests.simweb.simproc import Sim, running_sim


@pytest.fixture(scope="module")
def sim() -> Iterator[Sim]:
    need_browser()
    with running_sim() as running:
        yield running


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A module's Chromium, for all its tests (`launched_chromium`)."""
    with launched_chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Iterator[Any]:
    """A module's window on its Chromium: its pages share cookies and
    storage, as one browser's tabs do."""
    context = chromium.new_context()
    try:
        yield context
    finally:
        context.close()


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots are kept (REEDBOARD_ARTEFACTS names the folder)."""
    folder = Path(os.environ.get("REEDBOARD_ARTEFACTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def board(browser: Any, sim: Sim, request: pytest.FixtureRequest) -> Iterator[Board]:
    """The page on a new game, in a window of `request.param`'s size (a desktop's by
    default); modules that test the simulator without a browser define their own."""
    page = open_page(browser, sim.url, getattr(request, "param", DESKTOP))
    try:
        # A shorter settle time keeps the games quick; set from the page's control.
        page.fill("#settle", "150")
        page.click("#set-settle")
        page.select_option("#mode", "casual")
        on_page = Board(page)
        on_page.new_game()
        yield on_page
    finally:
        page.close()
