"""What the relay refuses is logged, but no sender can fill the log: one line per kind at
most every ten seconds, the next one counting those left unsaid."""

from __future__ import annotations

import logging

import pytest
from reedboard_relay.refusals import KINDS, RateLimitedLog


def test_one_line_per_kind_then_the_count_of_those_unsaid(
    caplog: pytest.LogCaptureFixture,
) -> None:
    now = [0.0]
    log = RateLimitedLog(logging.getLogger("refusals-test"), every_s=10, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING):
        assert log.warn("b2", "board b2: refused one")
        assert not any(log.warn("b2", "board b2: refused one") for _ in range(1000))
        assert log.warn("b3", "board b3: refused one")  # another kind has its own line
        now[0] = 10.0
        assert log.warn("b2", "board b2: refused one")
    assert [r.getMessage() for r in caplog.records] == [
        "board b2: refused one",
        "board b3: refused one",
        "board b2: refused one (1000 more like it since the last line)",
    ]


def test_the_kinds_remembered_are_bounded() -> None:
    log = RateLimitedLog(logging.getLogger("refusals-test"), clock=lambda: 0.0)
    for n in range(KINDS * 3):
        log.warn(f"kind {n}", "refused")
    assert len(log._said) == KINDS
