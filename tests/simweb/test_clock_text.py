"""A clock's time as players read it on a screen: whole seconds, tenths only in the last
ten seconds, hours from an hour up, every figure rounded down. One table holds the
simulator's words (`clock_text`, Python) and both pages' clocks (board.js's `clockText`,
run in Debian's chromium) to the same text; the page is sent the clocks to what it shows
of them (`shown_ms`); a running clock on the board's page is drawn again when its text
changes (`untilClockChanges`)."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.simweb.clock_text import clock_text, shown_ms

from tests.simweb.page import bare_page

CASES = [
    (300_000, "5:00"),
    (299_999, "4:59"),
    (298_200, "4:58"),
    (61_000, "1:01"),
    (60_999, "1:00"),
    (10_000, "0:10"),
    (9_999, "0:09.9"),
    (9_700, "0:09.7"),
    (1_050, "0:01.0"),
    (99, "0:00.0"),
    (0, "0:00.0"),
    (-1_500, "0:00.0"),  # a flag fallen before the page knew it
    (3_599_999, "59:59"),
    (3_600_000, "1:00:00"),
    (5_400_000, "1:30:00"),
    (36_061_999, "10:01:01"),
]
# Around each change of precision and of hour, and a stretch of ordinary seconds.
STRETCHES = [(0, 12_000), (58_000, 62_000), (3_598_000, 3_602_000)]
CLOCKS = """<div id="clocks" hidden><span id="clock-black"></span>
<span id="clock-white"></span></div>"""


@pytest.mark.parametrize(("ms", "text"), CASES)
def test_the_simulators_words_say_the_time_as_the_clock_shows_it(ms: int, text: str) -> None:
    assert clock_text(ms) == text


def test_the_page_is_sent_each_clock_to_what_it_shows_of_it() -> None:
    for start, end in STRETCHES:
        for ms in range(start, end):
            shown = shown_ms(ms)
            assert shown <= ms and clock_text(shown) == clock_text(ms), ms
            # One value a text: the state changes exactly when the text does.
            assert (shown_ms(ms + 1) == shown) == (clock_text(ms + 1) == clock_text(ms)), ms


@pytest.fixture
def bare(page_in_tab: Any) -> Any:
    """A page with nothing but the clocks and board.js, in the module's tab."""
    return bare_page(page_in_tab, CLOCKS)


def test_the_pages_clocks_say_the_time_as_the_simulators_words(bare: Any) -> None:
    shown = bare.evaluate("cases => cases.map(([ms]) => clockText(ms))", CASES)
    assert shown == [text for _ms, text in CASES]
    # Fractions of a millisecond, as a running clock has them, round down too.
    assert bare.evaluate("clockText(9999.99)") == "0:09.9"
    assert bare.evaluate("clockText(60000.5)") == "1:00"


def test_a_running_clock_is_drawn_again_just_when_its_text_changes(bare: Any) -> None:
    # For each time left: the text is the same until the wait's last millisecond (its
    # margin), another once it is over.
    wrong = bare.evaluate(
        """stretches => {
          const wrong = [];
          for (const [start, end] of stretches)
            // From the last tenth on, 0:00.0 stays: nothing to wait for.
            for (let ms = Math.max(start + 1, 100); ms < end; ms += 0.5) {
              const wait = untilClockChanges(ms);
              const same = clockText(ms - wait + 1) === clockText(ms);
              if (!same || clockText(ms - wait) === clockText(ms)) wrong.push([ms, wait]);
            }
          return wrong.slice(0, 5);
        }""",
        STRETCHES,
    )
    assert wrong == []
