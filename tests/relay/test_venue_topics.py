"""A venue's topics as the relay reads them: a bridged board's name is its venue's and
its own, its commands go back under its venue, and nothing else passes for a board."""

from __future__ import annotations

from reedboard_relay.venues import board_topic, bridge_of, request_topic, subscriptions


def test_a_bridged_board_is_named_by_its_venue() -> None:
    assert board_topic("reedboard/boards/b1/stream") == ("b1", "stream")
    assert board_topic("reedboard/hall2/boards/b1/stream") == ("hall2:b1", "stream")
    assert board_topic("reedboard/hall2/boards/b1/status") == ("hall2:b1", "status")
    assert request_topic("hall2:b1") == "reedboard/hall2/boards/b1/request"
    assert request_topic("b1") == "reedboard/boards/b1/request"


def test_nothing_else_passes_for_a_board_or_a_bridge() -> None:
    for topic in (
        "reedboard/hall2/other/b1/stream",
        "reedboard/ha ll/boards/b1/stream",
        "elsewhere/hall2/boards/b1/stream",
        "reedboard/hall2/boards/b1/stream/more",
        "reedboard/hall2/bridge",
    ):
        assert board_topic(topic) is None, topic
    assert bridge_of("reedboard/hall2/bridge") == "hall2"
    assert bridge_of("reedboard/hall2/boards/b1/stream") is None
    assert bridge_of("reedboard/a+b/bridge") is None


def test_a_relay_given_venues_reads_those_alone() -> None:
    topics = [topic for topic, _qos in subscriptions(("hall1",))]
    assert topics == [
        "reedboard/hall1/boards/+/stream",
        "reedboard/hall1/boards/+/status",
        "reedboard/hall1/bridge",
    ]
    every = [topic for topic, _qos in subscriptions(())]
    assert "reedboard/boards/+/stream" in every and "reedboard/+/bridge" in every
