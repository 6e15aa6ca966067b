"""Casual mode: the last two moves put back by hand, in either order or both at once."""

from __future__ import annotations

import pytest

from tests.reader.support import kinds, moves, replay

PLAYED = (
    "1000 lift e2\n1400 place e4\n2000 lift e7\n2400 place e5\n"
    "3000 lift d2\n3400 place d4\n4000 lift d7\n4400 place d6\n"
)
THEN = "9000 lift g1\n9400 place f3\n"
ORDERS = {
    "white first": "6000 lift d4\n6300 place d2\n6800 lift d6\n7100 place d7\n",
    "black first": "6000 lift d6\n6300 place d7\n6800 lift d4\n7100 place d2\n",
    "both at once": "6000 lift d4\n6010 lift d6\n6300 place d2\n6310 place d7\n",
}


@pytest.mark.parametrize("order", ORDERS)
def test_two_pawn_moves_put_back_are_two_takebacks(order: str) -> None:
    effects = replay(PLAYED + ORDERS[order] + THEN, header="@start standard", mode="casual")
    taken = [e["uci"] for e in effects if e["event"] == "takeback"]
    assert taken == ["d7d6", "d2d4"]
    assert moves(effects)[-1] == "g1f3"
    assert kinds(effects)[-1] == "move"
    assert not [e for e in effects if e["event"] == "illegal" and e["t_ms"] > 7200]


def test_strict_mode_takes_nothing_back() -> None:
    effects = replay(
        PLAYED + ORDERS["both at once"] + THEN, header="@start standard", mode="strict"
    )
    assert "takeback" not in kinds(effects)
