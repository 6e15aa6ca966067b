"""One real browser for a module's page tests: Debian's chromium, driven by Playwright,
launched once (a launch costs seconds of CPU) and closed with the module (while it is
open, Playwright's sync API holds an asyncio loop on the main thread). Each test
opens a context of its own (`new_context`: its own cookies, storage and viewport, nothing
carried over from another test) and closes it whatever happens. The launch is the
simulator page tests' own, so every page test runs the same browser the same way."""

from __future__ import annotations

from tests.simweb.page import launched_chromium, need_browser

__all__ = ["TIMEOUT_MS", "launched_chromium", "need_browser"]

# The relay's pages wait on a relay, a broker and boards that a loaded machine slows.
TIMEOUT_MS = 60_000
