"""Waiting until a page shows something, checked in the page each time its document
changes (a MutationObserver) rather than polled: a wait ends the moment the page shows
what it waits for, and costs nothing while the page is still. Playwright's own waits
check every animation frame (sixty times a second) or every N ms, each check late by half
its period on average: in a whole game's two waits a ply, seconds of wall time and of
Chromium's CPU."""

from __future__ import annotations

from typing import Any

from tests.simweb.page import TIMEOUT_MS

# `shown` is a JavaScript function of one argument: the wait ends once it returns a truthy
# value, which the wait returns, or fails once it throws. Any change to the document's
# nodes, text or attributes checks it again.
_WAIT = """([arg, ms]) => new Promise((resolve, reject) => {
  const shown = %s;
  const first = shown(arg);
  if (first) return resolve(first);
  const timer = setTimeout(() => {
    watch.disconnect();
    reject(new Error("not shown within " + ms + " ms"));
  }, ms);
  const watch = new MutationObserver(() => {
    let now;
    try {
      now = shown(arg);
    } catch (error) {  // a condition that cannot be checked fails the wait at once
      now = error;
    }
    if (!now) return;
    watch.disconnect();
    clearTimeout(timer);
    if (now instanceof Error) reject(now);
    else resolve(now);
  });
  watch.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
})"""


def wait_shown(page: Any, shown: str, arg: object = None, timeout_ms: int = TIMEOUT_MS) -> Any:
    """Wait until `shown` (a JavaScript function of `arg`) holds on `page`; what it
    returned then. An error once `timeout_ms` has passed without it."""
    return page.evaluate(_WAIT % shown, [arg, timeout_ms])


def wait_selector(page: Any, css: str, timeout_ms: int = TIMEOUT_MS) -> None:
    """Wait until an element matching `css` is on `page` (`:not([hidden])` for one shown)."""
    wait_shown(page, "css => document.querySelector(css) !== null", css, timeout_ms)
