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

from collections.abc import Sequence
from typing import Protocol

from reedboard.link.board_messages import MovesPage, Reply, StateMessage
from reedboard.link.messages import AskMoves, WireCommand
from reedboard.link.moves_digest import moves_digest

from reedboard_host.connection import HostError

PAGE_REPLY_S = 0.25  # a page's round trip on any serial line takes a few milliseconds
PAGE_ATTEMPTS = 40
COPIES = 3  # each page request sent three times: most get through in the first round
MAX_RESTARTS = 50


class Requester(Protocol):
    def request_many(
        self,
        commands: Sequence[WireCommand],
        *,
        timeout_s: float = ...,
        attempts: int = ...,
        copies: int = ...,
    ) -> list[Reply]: ...


def fetch_game(connection: Requester) -> StateMessage:
    """The game in progress as a `state` message of what the pages give (`game`,
    `start_fen`, `chess960`, `moves`, `result`, `reason`, a timed game's `clock`, and `seq`: the sequence number
    it stands at)."""
    for _ in range(MAX_RESTARTS):
        [first] = _pages(connection, [0])
        if first.start_fen is None:
            raise HostError("the board's first page of moves has no start position")
        moves: list[str] = list(first.moves)
        latest = first
        while len(moves) < latest.plies:
            pages = _pages(connection, list(range(len(moves), latest.plies, _size(first))))
            if any(page.game != first.game for page in pages):
                break
            for page in pages:
                if page.start != len(moves):
                    break  # a page came up short (the game was shorter then): ask on
                moves += page.moves
            latest = max(pages, key=lambda page: page.seq)
        else:
            if len(moves) == latest.plies and moves_digest(moves) == latest.digest:
                return StateMessage(
                    chess960=bool(first.chess960),
                    start_fen=first.start_fen,
                    moves=tuple(moves),
                    result=latest.result,
                    reason=latest.reason,
                    game=first.game or 0,
                    clock=latest.clock,
                    seq=latest.seq,
                )
    raise HostError("the board's game kept changing while it was being read")


def _size(first: MovesPage) -> int:
    """Moves per page, as the board gives them (its first page is full when it can be)."""
    return max(1, len(first.moves))


def _pages(connection: Requester, starts: list[int]) -> list[MovesPage]:
    replies = connection.request_many(
        [AskMoves(start) for start in starts],
        timeout_s=PAGE_REPLY_S,
        attempts=PAGE_ATTEMPTS,
        copies=COPIES,
    )
    pages = [reply for reply in replies if isinstance(reply, MovesPage)]
    if len(pages) != len(replies):
        raise HostError("the board answered a page of moves with something else")
    return pages
