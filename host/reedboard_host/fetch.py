"""The board's game fetched page by page (`moves`), for the host's mirror.

A whole `state` of a long game is one frame of a few kilobytes; on a noisy line (one byte
in a hundred damaged) such a frame almost never arrives intact. A page holds a few moves
in about 150 bytes. All the pages needed are asked for at once, each request sent a few
times over, and only the ones still missing are asked for again, so a long game arrives
in a few round trips even on such a line.

Moves made while the pages come in are picked up by asking for what follows; a game that
changed under the fetch (a new game, a takeback) shows in the game number or the digest
of the move list, and the fetch starts again."""

from __future__ import annotations

from typing import Any, Protocol

from reedboard.link.moves_digest import moves_digest

from reedboard_host.connection import HostError

PAGE_REPLY_S = 0.25  # a page's round trip on any serial line takes a few milliseconds
PAGE_ATTEMPTS = 40
COPIES = 3  # each page request sent three times: most get through in the first round
MAX_RESTARTS = 50


class Requester(Protocol):
    def request_many(
        self,
        kind: str,
        fields: list[dict[str, Any]],
        *,
        timeout_s: float = ...,
        attempts: int = ...,
        copies: int = ...,
    ) -> list[dict[str, Any]]: ...


def fetch_game(connection: Requester) -> dict[str, Any]:
    """The game in progress as a `state`-like message (`game`, `start_fen`, `chess960`,
    `moves`, `result`, `reason`, and `seq`: the sequence number it stands at)."""
    for _ in range(MAX_RESTARTS):
        [first] = _pages(connection, [0])
        if not isinstance(first.get("start_fen"), str):
            raise HostError("the board's first page of moves has no start position")
        moves: list[str] = list(first["moves"])
        latest = first
        while len(moves) < latest["plies"]:
            pages = _pages(connection, list(range(len(moves), latest["plies"], _size(first))))
            if any(page.get("game") != first.get("game") for page in pages):
                break
            for page in pages:
                if page["from"] != len(moves):
                    break  # a page came up short (the game was shorter then): ask on
                moves += page["moves"]
            latest = max(pages, key=lambda page: int(page["seq"]))
        else:
            if len(moves) == latest["plies"] and moves_digest(moves) == latest["digest"]:
                return {
                    "type": "state",
                    "seq": latest["seq"],
                    "game": first.get("game", 0),
                    "start_fen": first["start_fen"],
                    "chess960": bool(first["chess960"]),
                    "moves": moves,
                    "result": latest.get("result"),
                    "reason": latest.get("reason"),
                }
    raise HostError("the board's game kept changing while it was being read")


def _size(first: dict[str, Any]) -> int:
    """Moves per page, as the board gives them (its first page is full when it can be)."""
    return max(1, len(first["moves"]))


def _pages(connection: Requester, starts: list[int]) -> list[dict[str, Any]]:
    replies = connection.request_many(
        "moves",
        [{"from": start} for start in starts],
        timeout_s=PAGE_REPLY_S,
        attempts=PAGE_ATTEMPTS,
        copies=COPIES,
    )
    for reply in replies:
        if reply.get("type") != "moves" or not isinstance(reply.get("moves"), list):
            raise HostError("the board answered a page of moves with something else")
        if not isinstance(reply.get("plies"), int) or not isinstance(reply.get("seq"), int):
            raise HostError("the board's page of moves is incomplete")
    return replies
