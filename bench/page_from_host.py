"""The board's page: from the host's command that lights a move on the board (`show`, over
the serial link) to the phone's page drawing it.

`reedboard run --fake --web 127.0.0.1:0 --serial PTY` with a host on the pty's other end;
Debian's Chromium opens PAGES pages on the board. The host lights a move (e2-e4, d2-d4,
...; every sixth time it clears the light), and the first page notes the wall time it
drew the words for it ("White to play the move lit on the board: e2-e4"), from a
MutationObserver in the page. Each sample is timed from just before the host writes its
command to that drawing, and from the host's reading of the board's answer to it. A
pause of 0 to 1.5 s at random between samples places the commands at every phase of the
page's own once-a-second refresh.

    python bench/page_from_host.py [--samples 40] [--pages 1] [--seed 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.*

from page import percentile
from playwright.sync_api import sync_playwright

from tests.simweb.page import CHROMIUM, FLAGS
from tests.web.board_process import running_board
from tests.web.page_waits import wait_selector
from tests.web.shown_times import drawn_ms, forget_drawn, lit_words, watch_waiting

LIT = ["e2e4", "d2d4", "g1f3", "c2c4", "b1c3", None]  # None: the light cleared


def timed(samples: int, pages: int, seed: int) -> tuple[list[float], list[float]]:
    """Each sample's time (ms) from the host's command to the page's drawing, and from the
    host's reading of the board's answer to it."""
    pause = random.Random(seed)
    from_command: list[float] = []
    from_answer: list[float] = []
    with (
        tempfile.TemporaryDirectory() as folder,
        sync_playwright() as p,
        running_board(Path(folder)) as board,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            opened: list[Any] = []
            for _ in range(pages):
                page = browser.new_page(viewport={"width": 360, "height": 740})
                page.goto(board.url)
                wait_selector(page, '.sq[data-square="e1"] .piece.w')
                opened.append(page)
            first = opened[0]
            watch_waiting(first)
            for index in range(samples):
                uci = LIT[index % len(LIT)]
                forget_drawn(first)
                sent = time.time() * 1000
                board.host.ask({"type": "show", "uci": uci})
                answered = time.time() * 1000
                drawn = drawn_ms(first, lit_words(uci))
                from_command.append(drawn - sent)
                from_answer.append(drawn - answered)
                time.sleep(pause.uniform(0.0, 1.5))
        finally:
            browser.close()
    return from_command, from_answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--pages", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    from_command, from_answer = timed(options.samples, options.pages, options.seed)
    print(f"the host's show to the page's drawing, {len(from_command)} samples,"
          f" {options.pages} page(s) open:")  # fmt: skip
    for name, values in (("from the command", from_command), ("from its answer", from_answer)):
        print(
            f"  {name}: median {statistics.median(values):.0f} ms,"
            f" p90 {percentile(values, 0.9):.0f} ms, p99 {percentile(values, 0.99):.0f} ms,"
            f" max {max(values):.0f} ms"
        )


if __name__ == "__main__":
    main()
