"""A piece the hand has not let go of yet: dropped and bouncing on one square, or set down
and slid on before release. FIDE 4.7: the move is where the piece comes to rest."""

from __future__ import annotations

import pytest

from tests.reader.support import kinds, moves, replay

MODES = ("casual", "strict")


@pytest.mark.parametrize("mode", MODES)
def test_a_knight_bouncing_40_ms_on_f3_then_put_on_h3_is_nh3(mode: str) -> None:
    effects = replay(
        "1000 lift g1\n1400 place f3\n1440 lift f3\n1700 place h3\n3000 lift e7\n3300 place e5",
        header="@start standard",
        mode=mode,
    )
    assert moves(effects)[-2:] == ["g1h3", "e7e5"]
    assert "illegal" not in kinds(effects)
    assert "violation" not in kinds(effects)


@pytest.mark.parametrize("mode", MODES)
def test_a_knight_set_down_on_c3_and_slid_on_to_a3_is_na3(mode: str) -> None:
    effects = replay(
        "1000 lift b1\n1400 place c3\n1480 lift c3\n1540 place a3\n3000 lift e7\n3300 place e5",
        header="@start standard",
        mode=mode,
    )
    assert moves(effects)[-2:] == ["b1a3", "e7e5"]
    assert "illegal" not in kinds(effects)
    assert "violation" not in kinds(effects)


@pytest.mark.parametrize("mode", MODES)
def test_a_knight_bouncing_back_onto_its_square_is_the_one_move(mode: str) -> None:
    effects = replay(
        "1000 lift g1\n1400 place f3\n1440 lift f3\n1480 place f3\n3000 lift e7\n3300 place e5",
        header="@start standard",
        mode=mode,
    )
    assert kinds(effects) == ["move", "move"]
    assert moves(effects) == ["g1f3", "e7e5"]


@pytest.mark.parametrize("mode", MODES)
def test_the_opponent_taking_the_piece_just_landed_is_a_capture(mode: str) -> None:
    """2.exd5 and Black's hand at once on d5: the lift of the piece just landed is the
    opponent's when what follows is the opponent's move (Qxd5)."""
    effects = replay(
        "1000 lift e2\n1400 place e4\n2000 lift d7\n2400 place d5\n"
        "3000 lift e4\n3060 lift d5\n3300 place d5\n"
        "3340 lift d5\n3500 lift d8\n3800 place d5",
        header="@start standard",
        mode=mode,
    )
    assert moves(effects) == ["e2e4", "d7d5", "e4d5", "d8d5"]
