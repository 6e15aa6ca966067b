"""The simulator's page in a real browser, as a player uses it: Debian's chromium driven
by Playwright (the fixtures that start and stop both are in this folder's conftest)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 30_000  # each wait ends as soon as the page shows it; generous for a loaded machine
# How often a wait checks the page. Playwright's own default is every animation frame, and
# a page asked for frames draws them: sixty a second through the browser's whole drawing
# machinery for as long as the wait lasts, a tenth of a page test's CPU.
POLL_MS = 20
DESKTOP = {"width": 1180, "height": 820}
BOARD_JS = Path(__file__).resolve().parents[2] / "firmware/reedboard/simweb/static/board.js"


def until(page: Any, expression: str, arg: Any = None) -> None:
    """Wait until the JavaScript `expression` (a function of `arg`) holds on the page,
    checked every POLL_MS; a failure after the page's timeout."""
    page.wait_for_function(expression, arg=arg, polling=POLL_MS)


def need_browser() -> None:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"no {CHROMIUM}")


@contextlib.contextmanager
def launched_chromium() -> Iterator[Any]:
    """Debian's Chromium under Playwright, closed when the block ends whatever happened in
    it. The page tests share one per test process (`tests/support/browsers.py`), each in
    contexts of their own (their own cookies and storage): a start costs more CPU than
    most of the tests, a context next to nothing."""
    need_browser()
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


class Board:
    """The simulator's page, as a player uses it."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def square(self, name: str) -> Any:
        return self.page.locator(f'.sq[data-square="{name}"]')

    def drag(self, start: str, end: str) -> None:
        self.square(start).drag_to(self.square(end))

    def expect_move(self, san: str) -> None:
        until(
            self.page,
            "san => [...document.querySelectorAll('#moves li')]"
            ".some(li => li.textContent.split(' ').includes(san))",
            arg=san,
        )

    def expect_text(self, selector: str, text: str) -> None:
        """Wait until the element's text is exactly `text`."""
        until(
            self.page,
            "([selector, text]) => document.querySelector(selector).textContent === text",
            arg=[selector, text],
        )

    def play_script(self, text: str) -> None:
        """Start a game from the page's own script box (a FEN start, for instance)."""
        self.page.click("#script-box summary")
        self.page.fill("#script", text)
        self.page.click("#play")

    def new_game(self) -> None:
        self.page.select_option("#variant", "standard")
        self.page.click("#new-game")
        until(self.page, "() => document.querySelectorAll('#moves li').length === 0")
        self.page.wait_for_selector('.sq[data-square="e2"] .piece.w')

    def type_line(self, text: str) -> None:
        """Type a move or a question in the page's text field, and Enter."""
        self.page.focus("#move-text")
        self.page.keyboard.type(text)
        self.page.keyboard.press("Enter")


def open_page(browser: Any, url: str, size: dict[str, int] = DESKTOP) -> Any:
    """A new tab on the simulator's page, once it has drawn the board; the caller closes it."""
    page = browser.new_page()
    try:
        load_page(page, url, size)
    except BaseException:
        page.close()
        raise
    return page


def load_page(page: Any, url: str, size: dict[str, int] = DESKTOP) -> None:
    """The simulator's page loaded afresh in the tab `page`, in a window of `size`, once it
    has drawn the board: a new document, with nothing of the last one's script, words or
    socket. A tab kept for the next page costs a fifth of a new one's CPU (its renderer
    process is started once)."""
    page.set_viewport_size(size)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    page.wait_for_selector('.sq[data-square="e1"] .piece')


def spoken(page: Any) -> list[str]:
    return list(page.locator("#spoken li").all_inner_texts())


def expect_said(board: Board, text: str) -> None:
    """Wait until the live region's latest sentence is `text`."""
    until(
        board.page,
        "text => { const said = document.querySelectorAll('#spoken li');"
        " return said.length && said[said.length - 1].textContent === text; }",
        arg=text,
    )


def bare_page(page: Any, markup: str) -> Any:
    """`markup` and board.js alone in a new document of the tab `page` (a blank page first:
    nothing of the last test's script, observers or writes is left)."""
    page.goto("about:blank")
    page.set_content(markup)
    page.add_script_tag(content=BOARD_JS.read_text())
    return page
