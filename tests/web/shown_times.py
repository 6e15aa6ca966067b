"""When the page drew what the board waits for: each new text of its `#waiting` line, with
the wall time (ms, `Date.now()`) the page drew it, noted by a MutationObserver in the page
itself, so the time is the drawing's and not that of a check that came later. Shared by
the page's tests and `bench/page_from_host.py`."""

from __future__ import annotations

from typing import Any

from tests.web.page_waits import wait_shown

# Each new text, once: a state that draws the same words again notes nothing.
_WATCH = """() => {
  window.waitingDrawn = [];
  const line = document.getElementById("waiting");
  let last = line.textContent;
  new MutationObserver(() => {
    if (line.textContent === last) return;
    last = line.textContent;
    window.waitingDrawn.push([last, Date.now()]);
  }).observe(line, { childList: true, characterData: true, subtree: true });
}"""

_DRAWN = """text => {
  const hit = window.waitingDrawn.find(([words]) => words === text);
  return hit ? hit[1] : null;
}"""


def watch_waiting(page: Any) -> None:
    """Note each new text of `page`'s `#waiting` line from now on, with its time."""
    page.evaluate(_WATCH)


def forget_drawn(page: Any) -> None:
    """Forget the texts noted so far (before the next change is timed)."""
    page.evaluate("() => { window.waitingDrawn = []; }")


def drawn_ms(page: Any, text: str) -> float:
    """The wall time (ms) `page` drew `text` on its `#waiting` line, since it was last
    told to forget: waited for (as `wait_shown`) until it has."""
    return float(wait_shown(page, _DRAWN, text))


def lit_words(uci: str | None, turn: str = "White") -> str:
    """What the page says the board waits for with `uci` lit (None: nothing lit)."""
    if uci is None:
        return f"{turn} to move"
    return f"{turn} to play the move lit on the board: {uci[:2]}-{uci[2:4]}"
