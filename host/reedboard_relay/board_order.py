"""Boards in the order people number them: `b2` before `b10`, `9` before `10`. Pure.

Sorted as text, boards 1-65 came 1, 10, 11, ... 19, 2, 20, ...: the page listed them so,
and a Lichess round split at 100 games took the wrong boards."""

from __future__ import annotations

import re
from collections.abc import Iterable

_NUMBER = re.compile(r"(\d+)")


def board_key(board: str) -> tuple[tuple[int, int, str], ...]:
    """A sort key: runs of digits compare as numbers, the rest as text."""
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in _NUMBER.split(board)
        if part
    )


def in_board_order(boards: Iterable[str]) -> list[str]:
    return sorted(boards, key=lambda board: (board_key(board), board))
