"""End to end in a real browser: the simulator's page played with the mouse.

Debian's chromium, driven by Playwright. A short game by clicks: a capture (the piece
taken is put beside the board) and a castling, the legal targets lit while a piece is
lifted, the move list at the end; the screenshot is kept as a test artefact
(REEDBOARD_ARTEFACTS names its folder).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.simweb.simproc import running_sim

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
TIMEOUT_MS = 10_000

playwright_api = pytest.importorskip("playwright.sync_api")


def _need_browser() -> None:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"no {CHROMIUM}")


def test_a_short_game_by_clicking(tmp_path: Path) -> None:
    _need_browser()
    artefacts = Path(os.environ.get("REEDBOARD_ARTEFACTS") or tmp_path)
    artefacts.mkdir(parents=True, exist_ok=True)
    with running_sim() as sim, playwright_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            viewport={"width": 1180, "height": 820},
        )
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(sim.url)
            square = lambda name: page.locator(f'.sq[data-square="{name}"]')  # noqa: E731
            page.wait_for_selector('.sq[data-square="e1"] .piece.w')
            # A shorter settle time keeps the game quick; set from the page's control.
            page.fill("#settle", "150")
            page.click("#set-settle")

            def move(start: str, end: str, san: str) -> None:
                square(start).click()
                square(end).click()
                expect_move(san)

            def expect_move(san: str) -> None:
                page.wait_for_function(
                    "san => [...document.querySelectorAll('#moves li')]"
                    ".some(li => li.textContent.split(' ').includes(san))",
                    arg=san,
                )

            # While the knight is lifted its legal targets are lit, in the strip's colours.
            square("g1").click()
            for target in ("f3", "h3"):
                page.wait_for_selector(f'.sq[data-square="{target}"][data-role="target"]')
            assert square("f3").locator(".led.on").count() == 1
            assert square("e4").get_attribute("data-role") is None
            square("f3").click()
            expect_move("Nf3")
            move("d7", "d5", "d5")
            move("g2", "g3", "g3")
            move("c8", "h3", "Bh3")
            # The capture: the bishop lifted, the black bishop lifted too and put beside
            # the board, the white bishop set down where it stood.
            square("f1").click()
            square("h3").click()
            page.click("#tray-shelf h2")
            page.wait_for_selector('#tray span[data-piece="b"]')
            square("h3").click()
            expect_move("Bxh3")
            # A drag works as well as two clicks.
            square("e7").drag_to(square("e6"))
            expect_move("e6")
            # Castling, king first, by clicks.
            square("e1").click()
            square("g1").click()
            square("h1").click()
            square("f1").click()
            expect_move("O-O")
            moves = page.locator("#moves li").all_inner_texts()
            assert moves == ["Nf3 d5", "g3 Bh3", "Bxh3 e6", "O-O"]
            # A black knight lifted for the picture: its targets lit beside the last move.
            square("b8").click()
            page.wait_for_selector('.sq[data-square="c6"][data-role="target"]')
            shot = artefacts / "sim.png"
            page.screenshot(path=str(shot))
            print(f"screenshot: {shot}")
            assert shot.stat().st_size > 10_000
        finally:
            context.close()
    assert shutil.which("true")  # the sim stopped cleanly (running_sim waits for it)
