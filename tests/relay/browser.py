"""The relay's page tests share the test process's one Chromium (tests/support/browsers.py,
by the `chromium` fixture in this folder's conftest): a launch costs seconds of CPU. Each
test opens a context of its own (`new_context`: its own cookies, storage and viewport,
nothing carried over from another test) and closes it whatever happens."""

from __future__ import annotations

from tests.simweb.page import need_browser

__all__ = ["TIMEOUT_MS", "need_browser"]

# The relay's pages wait on a relay, a broker and boards that a loaded machine slows.
TIMEOUT_MS = 60_000
