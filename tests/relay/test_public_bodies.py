"""`/games.pgn`'s and `/api/boards`' bodies are joined once per change, not once per
request: pollers asking at once share one joining, and asking again before any change
reads the kept bytes."""

from __future__ import annotations

import asyncio
import itertools
import time

from reedboard_relay.board_order import in_board_order
from reedboard_relay.public_bodies import KeptParts, PublicBodies, Rechecks, joined_pgn


def test_a_body_is_joined_once_per_change_whoever_asks() -> None:
    bodies = PublicBodies(fresh_s=3600, every_s={})  # only a change makes it join again
    games = ['[Event "a"]\n\n1. e4 *\n']
    read: list[int] = []

    def parts() -> list[str]:
        read.append(1)
        return list(games)

    async def ask(times: int) -> list[bytes]:
        return list(await asyncio.gather(*(bodies.body("games", parts, joined_pgn)
                                           for _ in range(times))))  # fmt: skip

    first = asyncio.run(ask(20))
    assert len(read) == 1 and set(first) == {games[0].encode()}
    again = asyncio.run(ask(5))
    assert len(read) == 1 and again[0] is first[0]  # the kept bytes
    games.append('[Event "b"]\n\n1. d4 *\n')
    bodies.changed()
    changed = asyncio.run(ask(3))
    assert len(read) == 2 and changed[0] == "\n".join(games).encode()


def test_a_body_is_joined_at_most_once_an_interval_and_holds_what_was_asked() -> None:
    """Pollers asking while boards change faster than the interval share joinings, at
    least `every_s` apart, and each answer holds every change made before its request."""
    bodies = PublicBodies(fresh_s=3600, every_s={"games": 0.3})
    games: list[str] = []
    joined: list[float] = []  # when each joining read the parts

    def parts() -> list[str]:
        joined.append(time.monotonic())
        return list(games)

    async def ask_while_changing() -> list[tuple[int, list[bytes]]]:
        asked = []
        for n in range(8):
            games.append(f'[Event "{n}"]\n\n*\n')
            bodies.changed()
            asks = [asyncio.create_task(bodies.body("games", parts, joined_pgn)) for _ in range(3)]
            asked.append((n, asks))
            await asyncio.sleep(0.05)
        return [(n, list(await asyncio.gather(*asks))) for n, asks in asked]

    answered = asyncio.run(ask_while_changing())
    for n, answers in answered:
        for answer in answers:
            assert answer.decode().startswith("\n".join(games[: n + 1]))
    assert 2 <= len(joined) < 8  # 24 requests, 8 changes over at least 0.4 s
    gaps = [later - earlier for earlier, later in itertools.pairwise(joined)]
    assert min(gaps) >= 0.29


def test_only_the_boards_told_changed_are_asked_for_their_part() -> None:
    kept: KeptParts[str, str] = KeptParts()
    boards = {"2": "b", "10": "c", "1": "a"}
    asked: list[str] = []

    def part(value: str) -> str:
        asked.append(value)
        return value.upper()

    assert kept.read(boards, part, in_board_order) == ["A", "B", "C"]
    assert sorted(asked) == ["a", "b", "c"]
    asked.clear()
    boards["2"] = "bb"
    kept.changed("2")
    assert kept.read(boards, part, in_board_order) == ["A", "BB", "C"]
    assert asked == ["bb"]
    boards["3"] = "d"  # a board more: every board asked again, in board order
    kept.changed("3")
    assert kept.read(boards, part, in_board_order) == ["A", "BB", "D", "C"]
    kept.forget()
    asked.clear()
    kept.read(boards, part, in_board_order)
    assert len(asked) == 4
    asked.clear()
    assert kept.read(boards, part, in_board_order) == ["A", "BB", "D", "C"]
    assert asked == []  # nothing told changed, nothing asked: no whole reading by time


def test_every_board_is_rechecked_within_the_interval_a_share_at_a_read() -> None:
    """What the web side is not told of is looked for a share of the boards at a time:
    reads close together check few boards each, and every board comes in turn."""
    rechecks = Rechecks(fresh_s=3600)
    boards = [str(n) for n in range(1000)]
    checked: list[str] = []
    for _ in range(50):
        due = rechecks.due(boards)
        assert 1 <= len(due) < 100  # reads far closer together than the hour
        checked += due
    assert checked == boards[: len(checked)]  # in order, from where the last stopped
    rechecks.fresh_s = 1e-9  # a read after the whole interval: every board, once
    assert sorted(rechecks.due(boards), key=int) == boards
