"""The browser tests' fixtures: `reedboard sim` as a child process, Debian's chromium
driven by Playwright, and a fresh game on a new tab. Each is stopped or closed whatever
happens in the tests (a module's tests share one simulator, every module one Chromium)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.simweb.page import DESKTOP, Board, need_browser, open_page
from tests.simweb.simproc import Sim, running_sim
from tests.support.browsers import on_page_turn, shared_chromium, turn


@pytest.fixture(scope="module")
def sim() -> Iterator[Sim]:
    need_browser()
    with running_sim() as running:
        yield running


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


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Iterator[Any]:
    """A module's window on the Chromium: its pages share cookies and
    storage, as one browser's tabs do."""
    with turn():
        context = chromium.new_context()
    try:
        yield context
    finally:
        with turn():
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
