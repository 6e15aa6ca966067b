"""The one check of a move in UCI that every codec uses (a host's command, the board's
reply, the board's event): two squares and at most a promotion's piece, nothing else."""

from __future__ import annotations

import pytest
from reedboard.link.wire_fields import is_uci


@pytest.mark.parametrize("text", ["e2e4", "a7a8q", "h2h1n", "e1g1", "b7c8r", "g7h8b"])
def test_a_move_in_uci_passes(text: str) -> None:
    assert is_uci(text)


@pytest.mark.parametrize(
    "value",
    ["e2e9", "i2e4", "e2e4k", "e2e4qq", "E2E4", "e2e4\n", " e2e4", "e2", "", 24, None, ["e2e4"]],
)
def test_anything_else_fails(value: object) -> None:
    assert not is_uci(value)
