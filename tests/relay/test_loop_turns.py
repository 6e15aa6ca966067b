"""A message to many listeners of the page's event stream is written a slice of
listeners per turn of the loop, so a board's message waits at most behind one slice;
every listener still gets every message, in order."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from reedboard_relay.event_stream import EventStream, Fragment, Fragments, Listener
from reedboard_relay.loop_turns import WRITES_PER_TURN

LISTENERS = 300
MESSAGES = 3


def one_board(ply: dict[str, int]) -> Fragments:
    """The fragments of one board "b1" at ply `ply["b1"]`: the same bytes object while
    its ply is unchanged, as the relay's summaries are."""
    kept: dict[int, Fragment] = {}

    def fragments(ids: object) -> list[Fragment]:
        if ply["b1"] not in kept:
            summary = {"id": "b1", "ply": ply["b1"]}
            kept[ply["b1"]] = Fragment("b1", summary, repr(summary).encode())
        return [kept[ply["b1"]]]

    return fragments


def test_writes_to_many_listeners_are_spread_over_turns() -> None:
    turns_of_writes, received = asyncio.run(listened())
    assert max(turns_of_writes.values()) <= WRITES_PER_TURN  # before: 300 in one turn
    assert all(len(got) == MESSAGES + 1 for got in received)  # the first, and each
    assert all(got == received[0] for got in received)  # the same messages, in order


async def listened() -> tuple[dict[int, int], list[list[bytes]]]:
    turn = 0
    ticking = True

    def tick() -> None:  # counts the loop's turns: it runs once a turn
        nonlocal turn
        turn += 1
        if ticking:
            asyncio.get_running_loop().call_soon(tick)

    asyncio.get_running_loop().call_soon(tick)
    ply = {"b1": 0}
    stream = EventStream(one_board(ply))
    turns_of_writes: dict[int, int] = {}
    received: list[list[bytes]] = [[] for _ in range(LISTENERS)]

    def writer(n: int) -> Callable[[bytes], Awaitable[None]]:
        async def write(data: bytes) -> None:
            turns_of_writes[turn] = turns_of_writes.get(turn, 0) + 1
            received[n].append(data)

        return write

    tasks = []
    for n in range(LISTENERS):
        listener = Listener()
        received[n].append(stream.join(listener))
        tasks.append(asyncio.create_task(listener.follow(writer(n), stream.told)))
    for _ in range(MESSAGES):
        ply["b1"] += 1
        stream.changed("b1")
        stream.turn()
        for _ in range(3):
            await asyncio.sleep(0)
    while any(len(got) < MESSAGES + 1 for got in received) and turn < 10_000:
        await asyncio.sleep(0)
    ticking = False
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return turns_of_writes, received


def test_a_busy_loop_makes_fewer_messages_not_listeners_behind() -> None:
    """While the loop is too busy to hand a message to every listener before the next is
    due (a turn held 5 ms, one listener's write a turn), the next message waits for the
    hand-out: no listener falls behind, where before each was a message more behind at
    every quarter second until let go."""
    most_behind = asyncio.run(busy_listening(seconds=2.0))
    assert most_behind <= 2  # before: BEHIND_AT_MOST (8), then let go and owed


async def busy_listening(seconds: float) -> int:
    loop = asyncio.get_running_loop()
    ply = {"b1": 0}
    stream = EventStream(one_board(ply))
    stream.writes.per_turn = 1
    listeners = [Listener() for _ in range(100)]
    for listener in listeners:
        stream.join(listener)

    async def write(data: bytes) -> None:
        pass

    tasks = [asyncio.create_task(listener.follow(write, stream.told)) for listener in listeners]
    stream.ensure_running()
    most_behind = 0
    end = loop.time() + seconds
    while loop.time() < end:
        ply["b1"] += 1  # a board moves at every turn
        stream.changed("b1")
        time.sleep(0.005)  # the loop busy with the boards: load, not a timing
        behind = max(len(listener.queue) + bool(listener.owed) * 99 for listener in listeners)
        most_behind = max(most_behind, behind)
        await asyncio.sleep(0)
    stream.stop()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return most_behind
