"""The board's page: from a move's commit on the board to the page showing it, and what the
board's process weighs with pages open.

`reedboard run --fake --random-game SEED --web 127.0.0.1:0` plays a game by the human
model at the board's real clock; Debian's Chromium opens PAGES pages on it. On the first,
each new move is timed from its commit (the board's scan that decided it, carried in the
page's state as a wall time) to the next frame the page paints after drawing it. The
board's RSS is read from /proc with the pages open, and again for the same game with the
page off (`--web off`), to give the page's own cost.

    python bench/page.py [--seed 7] [--plies 40] [--pages 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.*

from playwright.sync_api import sync_playwright

from tests.simweb.page import CHROMIUM, FLAGS
from tests.web.board_process import running_board

# On the first page: each new move's age when the frame after its drawing is painted.
WATCH = """() => {
  window.ages = [];
  let seen = state ? state.san.length : 0; // moves made before it watched are not timed
  new MutationObserver(() => {
    const plies = state ? state.san.length : 0;
    if (plies <= seen || !state.moved_at_ms) return;
    seen = plies;
    const moved = state.moved_at_ms;
    requestAnimationFrame(() => window.ages.push(Date.now() - moved));
  }).observe(document.getElementById("moves"), { childList: true, subtree: true });
  window.arrived = [];
  let heard = seen;
  const draw = socket.onmessage;
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state" && message.san.length > heard && message.moved_at_ms) {
      heard = message.san.length;
      window.arrived.push(Date.now() - message.moved_at_ms);
    }
    draw(event);
  };
}"""


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def with_pages(seed: int, plies: int, pages: int) -> tuple[list[float], float]:
    """The moves' ages on the first page (ms), and the board's RSS (MB) with `pages` open."""
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        extra = ("--random-game", str(seed), "--plies", str(plies))
        with running_board(Path(folder), None, *extra) as board:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            try:
                opened: list[Any] = []
                for _ in range(pages):
                    page = browser.new_page(viewport={"width": 360, "height": 740})
                    page.goto(board.url)
                    page.wait_for_selector('.sq[data-square="e1"] .piece')
                    opened.append(page)
                opened[0].evaluate(WATCH)
                deadline = time.monotonic() + plies * 4 + 60
                while time.monotonic() < deadline:
                    played = len(board.host.state()["moves"])
                    if played >= plies:
                        break
                    time.sleep(0.5)
                time.sleep(1.0)
                ages = [float(a) for a in opened[0].evaluate("window.ages")]
                arrived = [float(a) for a in opened[0].evaluate("window.arrived")]
                print(
                    f"  (commit to the page's socket: median {statistics.median(arrived):.0f} ms,"
                    f" p99 {percentile(arrived, 0.99):.0f} ms)"
                )
                rss = rss_mb(board.process.pid)
            finally:
                browser.close()
    return ages, rss


def without_page(seed: int, plies: int) -> float:
    """The board's RSS (MB) for the same game with the page off, at the same point."""
    import subprocess

    from tests.children import child

    args = ["--fake", "--random-game", str(seed), "--plies", str(plies), "--web", "off"]
    command = [sys.executable, "-m", "reedboard.cli", "run", *args]
    with child(command, stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        for _ in range(plies):  # each move is a line of JSON on stdout
            if not process.stdout.readline():
                break
        return rss_mb(process.pid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--pages", type=int, default=5)
    options = parser.parse_args()
    ages, rss = with_pages(options.seed, options.plies, options.pages)
    alone = without_page(options.seed, options.plies)
    if not ages:
        raise SystemExit("no move was timed")
    print(f"commit to page painted, {len(ages)} moves, {options.pages} pages open:")
    print(
        f"  median {statistics.median(ages):.0f} ms, p90 {percentile(ages, 0.9):.0f} ms,"
        f" p99 {percentile(ages, 0.99):.0f} ms, max {max(ages):.0f} ms (goal: p99 < 100 ms)"
    )
    print(f"board process RSS with {options.pages} pages open: {rss:.1f} MB")
    print(f"board process RSS with the page off:        {alone:.1f} MB")
    print(f"the page's cost: {rss - alone:.1f} MB")


if __name__ == "__main__":
    main()
