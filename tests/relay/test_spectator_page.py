"""The spectator page in a real browser (Debian's chromium, driven by Playwright): a
board's game appears on it as it is played, pushed by server-sent events, drawn by the
firmware's own SVG renderer."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.children import child
from tests.relay.broker import Broker, running_broker
from tests.relay.test_relay_end_to_end import board, relay_command

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update"]  # fmt: skip
TIMEOUT_MS = 30_000

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
        pytest.skip(f"no {CHROMIUM}")
    with running_broker(tmp_path) as running:
        yield running


def test_the_page_shows_the_game_live(broker: Broker, tmp_path: Path) -> None:
    with (
        child(relay_command(broker, tmp_path / "relay.sqlite"), stdout=subprocess.PIPE,
              text=True) as watcher,
        playwright_api.sync_playwright() as p,
    ):  # fmt: skip
        assert watcher.stdout is not None
        url = watcher.stdout.readline().strip()
        context: Any = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS
        )
        try:
            page = context.new_page()
            page.goto(url)
            with child(board(broker, "b1"), stdout=subprocess.DEVNULL) as b1:
                # The page was open before the game began: what it shows was pushed.
                page.wait_for_selector('[data-board="b1"][data-ply="7"]', timeout=TIMEOUT_MS)
                assert b1.wait(60) == 0
            text = page.inner_text('[data-board="b1"]')
            assert "last e1g1" in text
            page.wait_for_function(
                "() => document.querySelector('[data-board=\"b1\"] img').naturalWidth > 0",
                timeout=TIMEOUT_MS,
            )
            svg = page.request.get(url + "boards/b1.svg?ply=7").text()
            assert svg.startswith("<svg") and "\u265a" in svg
        finally:
            context.close()
