"""The one way a command is asked to end, heard the three ways: a flag, `Stopped` raised
(held back over a write that must stay whole), an asyncio event. Real signals, sent to
this process with its handlers in place; the handlers before are put back."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator

import pytest
from reedboard.stopping import SIGNALS, signals_held, stop_asked, stop_event, stop_on_signals


@pytest.fixture(autouse=True)
def handlers_kept() -> Iterator[None]:
    before = {signum: signal.getsignal(signum) for signum in SIGNALS}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def test_the_flag_is_raised_by_either_signal() -> None:
    for signum in SIGNALS:
        asked = stop_asked()
        assert not asked()
        os.kill(os.getpid(), signum)  # the handler runs before kill returns to Python code
        assert asked()


def test_a_signal_in_the_block_ends_it_after_a_held_write() -> None:
    done: list[str] = []
    before = signal.getsignal(signal.SIGINT)
    with stop_on_signals():
        with signals_held():
            os.kill(os.getpid(), signal.SIGTERM)
            done.append("the write ran whole")
        done.append("never reached: Stopped was raised as the write ended")
    assert done == ["the write ran whole"]
    assert signal.getsignal(signal.SIGINT) is before  # handlers put back


def test_an_asyncio_server_wakes_on_the_signal() -> None:
    async def serve() -> str:
        stopping = stop_event()
        asyncio.get_running_loop().call_later(0.01, os.kill, os.getpid(), signal.SIGINT)
        await asyncio.wait_for(stopping.wait(), timeout=30)
        return "ended"

    assert asyncio.run(serve()) == "ended"
