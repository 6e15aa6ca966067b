"""A board's MQTT connection going away (`BoardBroker.close`): it waits while a live broker
takes the tail, and for nothing a broker cannot take: not for one never reached, and only a
short, stated while (`BACK_WAIT_S`) for one lost. What it leaves, it says once. Real
Mosquitto; the network cut by a proxy of our own."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from reedboard.link.mqtt_client import BACK_WAIT_S, NOT_KEPT, BoardBroker, BrokerSettings

from tests.link.board_logs import WAIT_S, Heard, frames
from tests.relay.broker import Broker, free_port
from tests.relay.proxy import NetworkProxy, network_proxy
from tests.relay.test_board_broker import Listener

RETRY_MS = 100  # the board tries a lost broker again this often (4 s at most by default)
# `close` returning "at once" is guarded this wide: far under the waits it no longer
# makes (10 s for the tail, `BACK_WAIT_S` for a connection), far over a loaded machine's
# scheduling.
AT_ONCE_S = 1.0
LEFT = "never reached the MQTT broker"
BACK_S = 0.5  # how long a lost broker is waited for, here


def closed_in(board: BoardBroker, back_s: float = BACK_WAIT_S) -> tuple[int, float]:
    """What `board.close(back_s=back_s)` returned, and how long it took."""
    began = time.monotonic()
    left = board.close(back_s=back_s)
    return left, time.monotonic() - began


def test_a_broker_never_reached_is_not_waited_for(heard: Heard) -> None:
    port = free_port()  # nothing listens there
    # The default retry: paho sleeps a second and more between attempts, which `close`
    # does not wait out either.
    board = BoardBroker(BrokerSettings(f"mqtt://127.0.0.1:{port}", "b1"))
    board.publish_frames(frames(1, 40))
    heard.wait_for(f"cannot reach the MQTT broker at 127.0.0.1:{port}")  # an attempt failed
    # However long it would wait for a connection being made: none is.
    left, took = closed_in(board, back_s=60)
    assert left == 40
    assert took < AT_ONCE_S, took
    assert heard.with_part(LEFT) == [
        f"40 frames of this board {LEFT} at 127.0.0.1:{port} (it was never reached); {NOT_KEPT}"
    ]


@contextmanager
def cut_with_a_tail(
    broker: Broker, heard: Heard
) -> Iterator[tuple[NetworkProxy, BoardBroker, Listener]]:
    """A board through a proxy of ours: the broker took frames 1-10, then the board's
    network went (and stays gone until the test restores it), the board saw it go, and
    published frames 11-30 after."""
    listener = Listener(broker, "b1")
    with network_proxy(broker.port) as proxy:
        try:
            assert listener.subscribed.wait(WAIT_S)
            board = BoardBroker(BrokerSettings(proxy.url, "b1", retry_ms=RETRY_MS))
            board.publish_frames(frames(1, 10))
            listener.wait_for(10)
            proxy.cut()
            heard.wait_for("the connection to the MQTT broker at")  # the board saw it go
            board.publish_frames(frames(11, 30))
            yield proxy, board, listener
        finally:
            listener.stop()


def test_a_lost_broker_is_waited_for_a_short_while_then_said(broker: Broker, heard: Heard) -> None:
    with cut_with_a_tail(broker, heard) as (proxy, board, listener):
        # A shorter while than the board's own (`BACK_WAIT_S`), the same rule: the
        # board tries again every 100 ms meanwhile, and each try fails.
        left, took = closed_in(board, back_s=BACK_S)
        # Those after the cut, and any of before whose acknowledgement it took.
        assert 20 <= left <= 30
        assert took < BACK_S + AT_ONCE_S, took
        [said] = heard.with_part(LEFT)
        assert said.endswith(
            f"{LEFT} at 127.0.0.1:{proxy.port} "
            f"(the connection to it was lost and not back within {BACK_S:g} s); {NOT_KEPT}"
        ), said
        assert listener.frames == frames(1, 10)


def test_a_lost_broker_back_in_time_takes_the_tail(broker: Broker, heard: Heard) -> None:
    with cut_with_a_tail(broker, heard) as (proxy, board, listener):
        proxy.restore()  # back (the board tries every 100 ms): within the while waited
        assert board.close(back_s=WAIT_S) == 0
        listener.wait_for(30)
        # A frame whose acknowledgement the cut lost is sent again: at least once.
        assert list(dict.fromkeys(listener.frames)) == frames(1, 30)
        assert heard.with_part(LEFT) == []


def test_a_live_broker_has_the_tail_when_close_returns(broker: Broker, heard: Heard) -> None:
    listener = Listener(broker, "b1")
    try:
        assert listener.subscribed.wait(WAIT_S)
        board = BoardBroker(BrokerSettings(broker.url, "b1"))
        # Far more than paho sends ahead of the broker's acknowledgements: closed at once,
        # with the connection still being made, and waited for until the broker has all.
        sent = frames(1, 2000)
        board.publish_frames(sent)
        assert board.close() == 0  # the broker acknowledged every frame
        assert board.handed_over()
        listener.wait_for(len(sent))  # from the broker: the board is gone
        assert listener.frames == sent
        assert heard.with_part(LEFT) == []
    finally:
        listener.stop()
