"""The Lichess broadcast push against a stand-in over real HTTP: the latest state after
every change, coalesced, a full pause after a 429, nothing lost after a refusal."""

from __future__ import annotations

import threading

import pytest
from reedboard_host.relay.lichess_push import LichessPush, PushSettings, rounds_for

from tests.relay.broadcast_standin import BroadcastStandIn
from tests.support.logged import logged


class Source:
    """The round's PGN as the relay would give it, changed by the test."""

    def __init__(self) -> None:
        self.text = "first"
        self.lock = threading.Lock()

    def __call__(self) -> str:
        with self.lock:
            return self.text


def test_changes_are_pushed_coalesced_with_the_token(caplog: pytest.LogCaptureFixture) -> None:
    source = Source()
    with BroadcastStandIn() as lichess:
        settings = PushSettings("r1", "s3cret", lichess.url, min_interval_s=0.5)
        push = LichessPush(settings, source)
        push.start()
        try:
            lichess.wait_for(lambda s: len(s.pushes) == 1)
            for n in range(5):  # five changes during the pause: one push of the latest
                source.text = f"change {n}"
                push.changed()
            lichess.wait_for(lambda s: len(s.pushes) == 2)
        finally:
            push.stop()
    (_, round_id, token, first), (_, _, _, second) = lichess.pushes
    assert (round_id, token, first, second) == ("r1", "s3cret", "first", "change 4")
    assert not any("s3cret" in line for line in logged(caplog, "reedboard_host"))


def test_a_429_pauses_the_whole_pause_and_the_latest_state_then_goes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    source = Source()
    with BroadcastStandIn() as lichess:
        lichess.refuse_next = [429, 503]
        settings = PushSettings("r1", "t", lichess.url, min_interval_s=0.1,
                                pause_after_429_s=1.5)  # fmt: skip
        push = LichessPush(settings, source)
        push.start()
        try:
            lichess.wait_for(lambda s: len(s.refused) == 1)
            source.text = "latest"
            push.changed()
            lichess.wait_for(lambda s: len(s.pushes) == 1, timeout_s=30)
        finally:
            push.stop()
    (refused_at, _), (second_at, status) = lichess.refused
    assert status == 503
    assert second_at - refused_at >= 1.5  # the 429's pause was kept whole
    assert lichess.pushes[0][3] == "latest"
    assert any("429" in line for line in logged(caplog, "reedboard_host.relay"))


def test_more_than_100_boards_are_split_over_the_rounds() -> None:
    boards = [f"b{n:03}" for n in range(250)]
    split = rounds_for(boards, ["r1", "r2", "r3"])
    assert [len(split[r]) for r in ("r1", "r2", "r3")] == [100, 100, 50]
    assert split["r2"][0] == "b100"
