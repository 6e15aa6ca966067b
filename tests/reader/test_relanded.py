"""A piece the hand has not let go of yet: dropped and bouncing on one square, or set down
and slid on before release. FIDE 4.7: the move is where the piece comes to rest."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.reader.waits import ARRIVE_MS, DEFAULT_SETTLE_MS, RELAND_MS

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


def made_at(effects: list[dict[str, Any]], uci: str) -> int:
    return int(next(e["t_ms"] for e in effects if e["event"] == "move" and e["uci"] == uci))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("hands", "move"),
    [
        ("1000 lift g1\n1400 place f3\n1440 lift f3\n1700 place h3", "g1h3"),  # dropped
        ("1000 lift b1\n1400 place c3\n1480 lift c3\n1540 place a3", "b1a3"),  # slid on
        # The king touches e2 and is slid on to f2 before it is let go.
        ("1000 lift e1\n1400 place e2\n1470 lift e2\n1520 place f2", "e1f2"),
        # A rook straddling a3 and a4, let go on a4.
        ("1000 lift a1\n1400 place a3\n1405 place a4\n1490 lift a3", "a1a4"),
    ],
)
def test_the_host_hears_only_of_the_square_the_piece_rests_on(
    mode: str, hands: str, move: str
) -> None:
    """Not the square it touched first, then a takeback: no false move at all."""
    header = "@start fen 4k3/4p3/8/8/8/8/8/RN2K1N1 w - - 0 1"
    effects = replay(hands + "\n3000 lift e7\n3300 place e5", header=header, mode=mode)
    assert kinds(effects) == ["move", "move"]
    assert moves(effects) == [move, "e7e5"]


@pytest.mark.parametrize("mode", MODES)
def test_a_move_that_cannot_grow_is_made_once_its_piece_has_rested(mode: str) -> None:
    effects = replay("1000 lift g1\n1400 place f3", header="@start standard", mode=mode)
    assert made_at(effects, "g1f3") == 1400 + RELAND_MS


@pytest.mark.parametrize("mode", MODES)
def test_the_opponent_taking_the_piece_just_landed_does_not_hold_the_move(mode: str) -> None:
    """exd5, Black's hand on d5 80 ms later, the queen lifted to retake only 1.5 s later:
    exd5 is made settle_ms (and ARRIVE_MS) after it landed, not at the queen's lift."""
    effects = replay(
        "1000 lift e2\n1400 place e4\n2000 lift d7\n2400 place d5\n"
        "3000 lift e4\n3100 lift d5\n3300 place d5\n3380 lift d5\n4900 lift d8\n5200 place d5",
        header="@start standard",
        mode=mode,
    )
    assert moves(effects) == ["e2e4", "d7d5", "e4d5", "d8d5"]
    assert made_at(effects, "e4d5") == 3300 + DEFAULT_SETTLE_MS + ARRIVE_MS
    assert "takeback" not in kinds(effects)


@pytest.mark.parametrize("mode", MODES)
def test_the_reply_arriving_on_the_square_just_left_before_the_piece_rests(mode: str) -> None:
    """Kxc4, and 53 ms after the king lands Black's rook is seen on b4, where the king
    stood, 13 ms before it leaves b5: the board shows the position again for a moment,
    which is the reply arriving first, not the king put back (a model game did this)."""
    effects = replay(
        "1000 lift b4\n1860 lift c4\n2300 place c4\n2353 place b4\n2366 lift b5",
        header="@start fen 1n4k1/7p/2b4p/1r6/1Kp5/2P5/2P5/8 w - - 2 31",
        mode=mode,
    )
    assert moves(effects) == ["b4c4", "b5b4"]
    assert "illegal" not in kinds(effects)


# Black to move; the queen on f3 can take the pawn on e4 (check) or go to d1 (check).
QUEEN_TAKES = "@start fen r1bk2r1/2Nppp1p/2n4b/3n3B/2Q1P2p/2P2qP1/PP1P1P1R/R1B1K1N1 b Q - 0 21"


@pytest.mark.parametrize("mode", MODES)
def test_the_reply_arriving_first_while_a_capture_rests_is_the_reply(mode: str) -> None:
    """Qxe4+ (the pawn taken off first) is set down, and 80 ms later White's king
    arrives on d1 before it is seen leaving e1. The queen has not left e4: the piece
    on d1 is not hers, and reading e4 as the pawn put back with the queen going on to
    d1 would need two hands within 80 ms. The capture stands, then Kd1."""
    effects = replay(
        "1000 lift e4\n1520 lift f3\n1870 place e4\n1950 place d1\n1972 lift e1\n"
        "4000 lift d5\n4300 place f4",
        header=QUEEN_TAKES,
        mode=mode,
    )
    assert moves(effects) == ["f3e4", "e1d1", "d5f4"]
    assert "takeback" not in kinds(effects) and "illegal" not in kinds(effects)
