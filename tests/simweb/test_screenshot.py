"""docs/sim.png, the README's picture of the simulator, is taken here, so it shows the page
as it is: Debian's chromium renders `reedboard sim` at a fixed size after fixed moves of a
timed game (typed in the move box, said in the voice panel), a knight in the hand and its
squares lit.

The test compares the picture with the committed one and fails when more than
`TOLERANCE` of the pixels differ. The effects' times (seconds since the simulator started)
are left out of the comparison, their boxes only: a loaded machine plays the same moves
later, 14.2 s where the committed picture says 7.2 s. The page keeps the times in a column
of one width, so the words after them stay put and are compared. From run to run then only
the pty's name and the clocks' digits change, a few hundred pixels; a changed panel, layout
or colour changes tens of thousands. The new picture is left among the test's artefacts
(REEDBOARD_ARTEFACTS, else the test's temporary folder). To take the new picture:

    REEDBOARD_UPDATE_SCREENSHOT=1 .venv/bin/python -m pytest tests/simweb/test_screenshot.py -n 0
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.simweb.page import need_browser, until
from tests.simweb.simproc import Sim, running_sim
from tests.support.browsers import turn

ROOT = Path(__file__).resolve().parents[2]
PICTURE = ROOT / "docs" / "sim.png"
SIZE = {"width": 1180, "height": 1000}
MOVES = ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5")
LIFTED = "f3"  # the knight: its quiet squares blue, the capture on e5 amber
TARGETS = ("e5", "d4", "h4", "g5", "g1")
TOLERANCE = 0.005  # the share of pixels that may differ: 10 times what runs differ by
# The effects' times: their boxes on the page, inside the panel's visible part, as
# [left, top, right, bottom] in pixels; left out of the comparison.
TIMES = """() => {
  const list = document.querySelector('#effects').getBoundingClientRect();
  return [...document.querySelectorAll('#effects .at')]
    .map(at => at.getBoundingClientRect())
    .map(r => [Math.max(r.left, list.left), Math.max(r.top, list.top),
               Math.min(r.right, list.right), Math.min(r.bottom, list.bottom)])
    .filter(([left, top, right, bottom]) => left < right && top < bottom)
    .map(([left, top, right, bottom]) =>
      [Math.floor(left), Math.floor(top), Math.ceil(right), Math.ceil(bottom)]);
}"""
# The times' column is narrow: left out, it may not hide more than this share of the picture
# (a page whose times took whole lines would make the comparison blind to the panel).
MOST_LEFT_OUT = 0.02
UPDATE = "REEDBOARD_UPDATE_SCREENSHOT"
TIMEOUT_MS = 30_000  # each wait for the page: generous, for a loaded machine
# The capture square pulses (a quarter to full strength over 1.6 s): the picture is taken
# while it is near full strength, as in the committed one, and taken again if it had faded
# by the end of the shot on a loaded machine. A changed page matches in none of the tries.
SHOTS = 5
CAPTURE = "e5"
LIT = """([squares, pulsing]) => squares.every(sq => {
  const led = document.querySelector(`.sq[data-square="${sq}"] .led`);
  if (!led.classList.contains('on')) return false;
  if (sq !== pulsing) return true;
  const hex = led.style.getPropertyValue('--led').trim();
  const channels = [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16));
  return Math.max(...channels) >= 204;  // four fifths of full strength or more
})"""

# Both pictures decoded by the browser itself (no image library): among the pixels outside
# the boxes left out, the share whose colours differ by more than antialiasing does, and the
# share of the picture left out; [-1, 0] for a different size.
COMPARE = """async ([a, b, boxes]) => {
  const load = src => new Promise((ok, fail) => {
    const image = new Image(); image.onload = () => ok(image); image.onerror = fail;
    image.src = src;
  });
  const [x, y] = await Promise.all([load(a), load(b)]);
  if (x.width !== y.width || x.height !== y.height) return [-1, 0];
  const out = new Uint8Array(x.width * x.height);
  for (const [left, top, right, bottom] of boxes)
    for (let row = Math.max(top, 0); row < Math.min(bottom, x.height); row++)
      out.fill(1, row * x.width + Math.max(left, 0), row * x.width + Math.min(right, x.width));
  const leftOut = out.reduce((sum, bit) => sum + bit, 0);
  const pixels = image => {
    const canvas = document.createElement('canvas');
    canvas.width = image.width; canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    return context.getImageData(0, 0, image.width, image.height).data;
  };
  const p = pixels(x), q = pixels(y);
  let differ = 0;
  for (let i = 0; i < p.length; i += 4) {
    if (out[i / 4]) continue;
    const d = Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]);
    if (d > 48) differ++;
  }
  const total = p.length / 4;
  return [differ / (total - leftOut), leftOut / total];
}"""


@pytest.fixture
def sim() -> Iterator[Sim]:
    need_browser()
    # As a user starts it (its own settings, shown on the page), but scanning at the page
    # tests' quiet rate: a scan rate is nowhere in the picture, and the simulator's scans
    # at 200 Hz cost most of this module's CPU over its moves' twenty seconds.
    with running_sim() as running:
        yield running


@pytest.fixture
def page(page_in_tab: Any) -> Any:
    """The folder's tab, at the picture's size, for the board's page (`page_in_tab`)."""
    page_in_tab.set_viewport_size(SIZE)
    page_in_tab.set_default_timeout(TIMEOUT_MS)
    return page_in_tab


@pytest.fixture(scope="module")
def judge(browser: Any) -> Iterator[Any]:
    """A second tab in the folder's window, that compares pictures: the board's page stays
    as it is, in front."""
    with turn():
        page = browser.new_page()
    try:
        page.set_default_timeout(TIMEOUT_MS)
        yield page
    finally:
        with turn():
            page.close()


def play_to_the_picture(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector('.sq[data-square="e1"] .piece')
    page.uncheck("#speak")
    page.fill("#time-control", "5+3")
    page.click("#new-game")
    page.wait_for_selector("#clocks:not([hidden])")
    for san in MOVES:
        page.fill("#move-text", san)
        page.press("#move-text", "Enter")
        until(
            page,
            "san => [...document.querySelectorAll('#moves li')]"
            ".some(li => li.textContent.split(' ').includes(san))",
            arg=san,
        )
    said = f"() => document.querySelectorAll('#spoken li').length >= {len(MOVES)}"
    until(page, said)
    page.locator(f'.sq[data-square="{LIFTED}"]').click()
    page.mouse.move(0, 0)  # no hover on the picture


Box = list[int]


def lit_picture(page: Any) -> tuple[bytes, list[Box]] | None:
    """The page once the knight's squares are lit, as the board's scan and lights make them
    after the lift, the capture near full strength, and the boxes of the effects' times in
    it; None when the capture had faded by the end of the shot."""
    lit = [[LIFTED, *TARGETS], CAPTURE]
    until(page, LIT, arg=lit)
    shot: bytes = page.screenshot()
    times: list[Box] = page.evaluate(TIMES)
    return (shot, times) if page.evaluate(LIT, lit) else None


def differing(page: Any, a: bytes, b: bytes, left_out: list[Box] | None = None) -> float:
    """The share of pixels that differ between pictures `a` and `b`, outside the boxes
    `left_out`; -1 when their sizes differ."""
    page.goto("about:blank")
    urls = [f"data:image/png;base64,{base64.b64encode(x).decode()}" for x in (a, b)]
    share, hidden = page.evaluate(COMPARE, [*urls, left_out or []])
    assert hidden <= MOST_LEFT_OUT, f"the effects' times cover {hidden:.1%} of the picture"
    return float(share)


def test_the_readme_picture_is_the_page_as_it_is(
    page: Any, judge: Any, sim: Sim, tmp_path: Path
) -> None:
    folder = Path(os.environ.get("REEDBOARD_ARTEFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    play_to_the_picture(page, sim.url)
    shares: list[float] = []
    for _ in range(SHOTS):
        lit = lit_picture(page)
        if lit is None:
            continue
        taken, times = lit
        assert times, "no effect's time on the page to leave out"
        (folder / "sim.png").write_bytes(taken)
        if os.environ.get(UPDATE):
            PICTURE.write_bytes(taken)
            return
        share = differing(judge, PICTURE.read_bytes(), taken, times)
        assert share != -1, f"{PICTURE.name} is not {SIZE['width']}x{SIZE['height']}: take it again"
        if share <= TOLERANCE:
            return
        shares.append(share)
    assert shares, f"no picture in {SHOTS} with the capture still bright at the end of the shot"
    raise AssertionError(
        f"docs/sim.png differs from the page in {min(shares):.1%} of its pixels or more, in "
        f"each of {len(shares)} pictures (the last: {folder / 'sim.png'}); if the page "
        f"changed on purpose, take it again: "
        f"{UPDATE}=1 .venv/bin/python -m pytest tests/simweb/test_screenshot.py -n 0"
    )


def test_the_comparison_sees_a_changed_picture(page: Any, sim: Sim) -> None:
    """The same picture differs in nothing; the committed one against the starting page
    (no moves, no lit squares, no words said) differs beyond the tolerance."""
    committed = PICTURE.read_bytes()
    assert differing(page, committed, committed) == 0
    page.goto(sim.url)
    page.wait_for_selector('.sq[data-square="e1"] .piece')
    assert differing(page, committed, page.screenshot()) > TOLERANCE
