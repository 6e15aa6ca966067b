"""One Chromium for every page test of a test process (an xdist worker), started by the
first test that needs it and closed when the last fixture that holds it ends.

A Chromium start costs about a second and a half of CPU, more than most page tests; a
context (its own cookies and storage, a fresh browser to the page) little, though its
first tab starts a renderer process (about 0.7 s). So the page tests of every folder
share one browser, each test, module or folder in contexts of its own (the simulator's
page tests load their pages afresh in one kept tab, `tests/simweb/conftest.py`).

Playwright's sync API runs its asyncio loop in a greenlet of the test's thread, and after
each of its calls marks that loop as the thread's running one: any later `asyncio.run`
in the same thread (another module's test) would fail with "cannot be called from a
running event loop". `turn()` marks it only while page code runs: a test on a page for
its whole run (`on_page_turn`), a fixture of a wider scope around its own calls."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.simweb.page import launched_chromium


class _Shared:
    """The process's Chromium, its Playwright loop, and how many fixtures hold it."""

    def __init__(self) -> None:
        self.held = 0
        self.browser: Any = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stack = contextlib.ExitStack()


_SHARED = _Shared()


@contextlib.contextmanager
def turn() -> Iterator[None]:
    """Playwright's loop as the thread's running loop for the block (its calls need it),
    and no running loop after it (an `asyncio.run` may come next)."""
    loop = _SHARED.loop
    if loop is None:
        raise RuntimeError("no shared Chromium: take it with `shared_chromium()` first")
    outer = asyncio.events._get_running_loop() is loop  # a turn within a turn
    asyncio.events._set_running_loop(loop)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop if outer else None)


@contextlib.contextmanager
def on_page_turn(request: pytest.FixtureRequest) -> Iterator[None]:
    """The test's whole run in `turn()` if it uses the shared Chromium (its fixture is
    named `chromium`), as it is otherwise: for a folder's autouse fixture."""
    if "chromium" not in request.fixturenames:
        yield
        return
    with turn():
        yield


@contextlib.contextmanager
def shared_chromium() -> Iterator[Any]:
    """The process's Chromium for the block (launched if no other block holds it), closed
    when the last block that holds it ends, whatever happened in it."""
    shared = _SHARED
    if shared.held == 0:
        shared.browser = shared.stack.enter_context(launched_chromium())
        # The loop Playwright left marked as running: its own, needed by its later calls.
        shared.loop = asyncio.events._get_running_loop()
        asyncio.events._set_running_loop(None)
    shared.held += 1
    try:
        yield shared.browser
    finally:
        shared.held -= 1
        if shared.held == 0:
            try:
                with turn():
                    shared.stack.close()
            finally:
                shared.browser, shared.loop = None, None
