"""The browser tests' fixtures: `reedboard sim` as a child process, Debian's chromium
driven by Playwright, and a fresh game on the page loaded afresh. Each is stopped or closed
whatever happens in the tests. The page tests of this folder that a test process runs one
after another share one simulator, one window and one tab (each test starts its own game
on the page loaded anew, and sets what it changes); every folder's page tests share the
process's Chromium. A simulator's start costs about 0.6 s of CPU, a window with its first
tab about 0.7 s: more than most page tests spend on the page."""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.simweb.page import DESKTOP, Board, load_page, need_browser
from tests.simweb.simproc import Sim, running_sim
from tests.support.browsers import on_page_turn, shared_chromium, turn


@pytest.fixture(scope="package")
def sim() -> Iterator[Sim]:
    """The simulator of the page tests, stopped when the process goes on to another folder."""
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


@pytest.fixture(scope="package")
def browser(chromium: Any) -> Iterator[Any]:
    """The page tests' window on the Chromium: its pages share cookies and storage, as one
    browser's tabs do (the simulator's page keeps none)."""
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


SETTLE_MS = "150"  # the page tests' settle time, as its control shows it


class Tab:
    """The page tests' one tab, which each test loads its page in afresh (`load_page`): a
    new tab costs a renderer process of its own, most of a page test's CPU. A tab a test
    failed on is closed, and the next test opens another: nothing of it is carried over."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.page: Any = None

    def open(self) -> Any:
        if self.page is None:
            self.page = self.browser.new_page()
        return self.page

    def close(self) -> None:
        if self.page is not None:
            page, self.page = self.page, None
            page.close()


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item,
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Whether the test failed, for the fixtures that keep a tab past it (`Tab`)."""
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


@pytest.fixture(scope="package")
def tab(browser: Any) -> Iterator[Tab]:
    """The page tests' tab, closed whatever happens."""
    kept = Tab(browser)
    try:
        yield kept
    finally:
        with turn():
            kept.close()


@pytest.fixture
def page_in_tab(tab: Tab, request: pytest.FixtureRequest) -> Iterator[Any]:
    """The page tests' tab for the test, which loads a page in it; closed after a failure."""
    try:
        yield tab.open()
    finally:
        if request.node.stash.get(FAILED, False):
            tab.close()


@pytest.fixture
def board(page_in_tab: Any, sim: Sim, request: pytest.FixtureRequest) -> Board:
    """The page on a new game, in a window of `request.param`'s size (a desktop's by
    default); modules that test the simulator without a browser define their own."""
    page = page_in_tab
    load_page(page, sim.url, getattr(request, "param", DESKTOP))
    # A shorter settle time keeps the games quick; set from the page's controls, as the
    # mode and the voice's language, where the last test on the simulator left them else.
    if page.input_value("#settle") != SETTLE_MS:
        page.fill("#settle", SETTLE_MS)
        page.click("#set-settle")
    for control, value in (("#mode", "casual"), ("#language", "en")):
        if page.input_value(control) != value:
            page.select_option(control, value)
    on_page = Board(page)
    on_page.new_game()
    return on_page
