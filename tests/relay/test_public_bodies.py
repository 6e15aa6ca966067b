"""`/games.pgn`'s and `/api/boards`' bodies are joined once per change, not once per
request: pollers asking at once share one joining, and asking again before any change
reads the kept bytes."""

from __future__ import annotations

import asyncio

from reedboard_relay.board_order import in_board_order
from reedboard_relay.public_bodies import KeptParts, PublicBodies, joined_pgn


def test_a_body_is_joined_once_per_change_whoever_asks() -> None:
    bodies = PublicBodies(fresh_s=3600)  # only a change makes it join again here
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


def test_only_the_boards_told_changed_are_asked_for_their_part() -> None:
    kept: KeptParts[str, str] = KeptParts(fresh_s=3600)
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
