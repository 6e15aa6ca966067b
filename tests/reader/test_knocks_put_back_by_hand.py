"""A neighbour knocked by the hand carrying a piece and put back BY HAND while that piece
is still in the air: the victim's square empty for 250 ms to 1.5 s (righting a piece
takes a person that long), the carried piece set down later still. Until it is, the
sensors are those of a capture the carried piece made of the knocked neighbour.

The board never invents a move and never misses one: such a capture waits `settle_ms`
like a move that may grow, and once made, the board keeps following the knock's reading
(the piece still in the air) until the next change, the opponent's first lift as a
rule: a placement only that reading explains, or the capturer set back
home, takes the capture back and makes what was played (`move`, `takeback`, `move`, as
a capture held as a knock already does), never a mismatch or a move nobody played."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.events import MoveMade
from reedboard.reader.waits import DEFAULT_SETTLE_MS, RIGHTING_MS
from reedboard.replay.runner import Replay
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square

from tests.reader.support import kinds, moves, replay

BOTH = pytest.mark.parametrize("mode", ["casual", "strict"])
# White's queen on a8 next to Black's knight on b8 (Qxb8 legal), Black's bishop on a6.
HEADER = "@start fen Qn1qk2r/2pp1ppp/b4n2/p1b1p3/8/4P3/PPPP1PPP/RNBKNB1R w k - 5 8"
# The queen lifted, the knight knocked 389 ms later and put back 511 ms after that.
KNOCK = "1000 lift a8\n1389 lift b8\n1900 place b8"
BISHOP = "5000 lift a6\n5400 place d3"


def run(body: str, mode: str) -> list[dict[str, Any]]:
    return replay(body, header=HEADER, mode=mode)


def kept(effects: list[dict[str, Any]]) -> list[str]:
    """The moves the host's game holds: the board's, its takebacks undone."""
    made: list[str] = []
    for effect in effects:
        if effect["event"] == "move":
            made.append(effect["uci"])
        elif effect["event"] == "takeback":
            assert made and made[-1] == effect["uci"]
            made.pop()
    return made


@BOTH
def test_the_queen_set_down_long_after_takes_the_capture_back(mode: str) -> None:
    effects = run(f"{KNOCK}\n3000 place b7\n{BISHOP}", mode)
    assert kept(effects) == ["a8b7", "a6d3"]
    # The capture, sent once the board had been still for settle_ms, is taken back when
    # the queen lands where only the knock's reading lets it go.
    assert moves(effects) == ["a8b8", "a8b7", "a6d3"]
    assert kinds(effects) == ["move", "takeback", "move", "move"]
    made = next(e["t_ms"] for e in effects if e["event"] == "move")
    assert made == 1900 + DEFAULT_SETTLE_MS


@BOTH
def test_the_queen_set_down_within_the_settle_time_is_its_move_alone(mode: str) -> None:
    effects = run(f"{KNOCK}\n2100 place b7\n{BISHOP}", mode)
    assert moves(effects) == ["a8b7", "a6d3"]
    assert kinds(effects) == ["move", "move"]


def test_the_queen_set_back_home_is_no_move_in_casual_mode() -> None:
    effects = run(f"{KNOCK}\n2600 place a8", "casual")
    assert kept(effects) == []
    assert kinds(effects) == ["move", "takeback"]


@pytest.mark.parametrize(("body", "verdict"), [("lift b2\n+300 place b3", "violation")])
def test_the_queen_set_back_home_stays_touched_in_strict_mode(body: str, verdict: str) -> None:
    # FIDE 4.3a: the queen was touched all along; the knocked knight binds nothing.
    effects = run(f"{KNOCK}\n2600 place a8\n4000 lift b2\n4300 place b3", "strict")
    assert kept(effects) == []
    violation = next(e for e in effects if e["event"] == verdict)
    assert (violation["rule"], violation["square"]) == ("4.3a", "a8")


def test_the_queen_set_back_home_may_still_move_in_strict_mode() -> None:
    effects = run(f"{KNOCK}\n2600 place a8\n4000 lift a8\n4300 place b7", "strict")
    assert kept(effects) == ["a8b7"]
    assert "violation" not in kinds(effects) and "illegal" not in kinds(effects)


@BOTH
@pytest.mark.parametrize("put_back_ms", [250, 400, 700, 1000, 1500])
@pytest.mark.parametrize("set_down_ms", [0, 150, 350, 800, 1500])
def test_a_knock_put_back_by_hand_never_leaves_a_false_move(
    mode: str, put_back_ms: int, set_down_ms: int
) -> None:
    back = 1389 + put_back_ms
    landed = back + 20 + set_down_ms
    body = f"1000 lift a8\n1389 lift b8\n{back} place b8\n{landed} place b7\n{BISHOP}"
    effects = run(body, mode)
    assert kept(effects) == ["a8b7", "a6d3"]
    assert "illegal" not in kinds(effects) and "violation" not in kinds(effects)


# 1.e4 d5 2.Nf3 e6: White's e4 pawn can take d5 or go to e5; f3 is White's own knight.
OPENING = (
    "1000 lift e2\n1300 place e4\n2000 lift d7\n2300 place d5\n"
    "3000 lift g1\n3300 place f3\n4000 lift e7\n4300 place e6"
)
BEFORE = ["e2e4", "d7d5", "g1f3", "e7e6"]
REPLY = "9000 lift b8\n9300 place c6"
VARIANTS = {
    # the knocked piece: the opponent's, which the pawn in the hand could take
    "capturable": "5000 lift e4\n5200 lift d5\n5900 place d5\n7000 place e5",
    # the pawn set down in the knock's reading while the board still holds the capture
    "capturable, set down at once": "5000 lift e4\n5200 lift d5\n5900 place d5\n5950 place e5",
    # the knocked piece: an own neighbour
    "own": "5000 lift e4\n5200 lift f3\n5900 place f3\n7000 place e5",
}


@BOTH
@pytest.mark.parametrize("name", VARIANTS)
def test_neighbouring_variants_read_the_move_played(mode: str, name: str) -> None:
    effects = replay(f"{OPENING}\n{VARIANTS[name]}\n{REPLY}", mode=mode)
    assert kept(effects) == [*BEFORE, "e4e5", "b8c6"]
    assert "violation" not in kinds(effects)
    # No mismatch shown while the knocked piece is being put back (see RIGHTING_MS).
    assert kinds(effects, "move", "takeback") == []


@BOTH
def test_a_knocked_own_piece_left_off_is_shown_once_righting_is_past(mode: str) -> None:
    # The f3 knight knocked at 5200 and not put back: shown RIGHTING_MS after its lift.
    body = "5000 lift e4\n5200 lift f3\n8000 place f3\n8500 place e5"
    effects = replay(f"{OPENING}\n{body}\n{REPLY}", mode=mode)
    illegal = next(e for e in effects if e["event"] == "illegal")
    assert illegal["t_ms"] == 5200 + RIGHTING_MS
    assert sorted(illegal["missing"]) == ["e4", "f3"]
    assert kept(effects) == [*BEFORE, "e4e5", "b8c6"]


# White's e4 pawn between Black's d5 and f5 pawns: it takes d5, the victim off first.
PAWNS = "@start fen 4k3/8/8/3p1p2/4P3/8/8/4K3 w - - 0 1"


@BOTH
@pytest.mark.parametrize("set_down_ms", [100, 600, 1400])
def test_the_hand_of_a_capture_whose_victim_went_first_knocks_a_neighbour(
    mode: str, set_down_ms: int
) -> None:
    # d5 taken off, the e4 pawn lifted, f5 knocked and put back 700 ms later, then the
    # pawn set on d5: exd5, whatever the pause.
    landed = 6300 + set_down_ms
    body = (
        f"5000 lift d5\n5400 lift e4\n5600 lift f5\n6300 place f5\n{landed} place d5\n"
        "9000 lift e8\n9300 place e7"
    )
    effects = replay(body, header=PAWNS, mode=mode)
    # Not exf5 with Black's hand on d5: the capture in progress, f5 only knocked.
    assert kept(effects) == ["e4d5", "e8e7"]
    assert kinds(effects) == ["move", "move"]


# A rook on a1 knocks the knight on b2, which it cannot take.
ROOK = "@start fen 4k3/8/8/8/8/8/1n6/R3K3 w - - 0 1"


@BOTH
def test_a_knocked_piece_the_carried_one_cannot_take_is_no_capture(mode: str) -> None:
    body = "1000 lift a1\n1300 lift b2\n2100 place b2\n3000 place a5\n4000 lift e8\n4300 place e7"
    effects = replay(body, header=ROOK, mode=mode)
    assert kinds(effects) == ["move", "move"]
    assert moves(effects) == ["a1a5", "e8e7"]


# Both sides may still castle on both wings.
CASTLES = "@start fen r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1"


def test_strict_a_rook_knocked_by_the_kings_hand_and_righted_owes_no_castling() -> None:
    # The king lifted, the h1 rook knocked 40 ms later and righted 700 ms after: the
    # rook was not touched (FIDE 4.4a binds deliberate touches); the king's step stands.
    body = "1000 lift e1\n1040 lift h1\n1740 place h1\n2300 place f2\n4000 lift a7\n4300 place a6"
    effects = replay(body, header=CASTLES, mode="strict")
    assert moves(effects) == ["e1f2", "a7a6"]
    assert "violation" not in kinds(effects)


def test_strict_the_king_in_the_hand_still_binds_after_the_righted_rook() -> None:
    # The king set back home after the knock: the king was touched, another piece may not
    # move (4.3a).
    body = "1000 lift e1\n1040 lift h1\n1740 place h1\n2300 place e1\n4000 lift a2\n4300 place a3"
    effects = replay(body, header=CASTLES, mode="strict")
    violation = next(e for e in effects if e["event"] == "violation")
    assert (violation["rule"], violation["square"]) == ("4.3a", "e1")


def _clocks_of(body: str, mode: str) -> dict[str, tuple[int, int] | None]:
    """Each move's clocks after it, the game timed, as the host hears them last."""
    run = Replay(
        Game(Position.from_fen(HEADER.split(" ", 2)[2])),
        mode="strict" if mode == "strict" else "casual",
        clock=parse_time_control("5+0"),
    )
    for line in body.splitlines():
        t, action, square = line.split()
        run.sensor(parse_square(square), action == "place", int(t))
    run.finish(9000)
    return {e.uci: e.clock for e in run.effects if isinstance(e, MoveMade)}


@BOTH
def test_the_queen_set_down_late_is_charged_to_its_landing_whatever_lifts_next(
    mode: str,
) -> None:
    # FIDE: the queen's move is complete once she is on b7. Black's hand lifting the h7
    # pawn 40 ms later (too far to be a piece arriving first on b7) is the reply's start,
    # and leaves White's time where it would be with nothing lifted.
    alone = _clocks_of(f"{KNOCK}\n3000 place b7\n5000 lift h7\n5300 place h6", mode)
    lifted = _clocks_of(f"{KNOCK}\n3000 place b7\n3040 lift h7\n5300 place h6", mode)
    assert alone["a8b7"] is not None
    assert lifted["a8b7"] == alone["a8b7"]


# 1.e4 e5; the knight on g1 carried to f3, its hand knocking both f2 and h2.
KNIGHT_OPENING = "1000 lift e2\n1400 place e4\n2500 lift e7\n2900 place e5\n4000 lift g1"


@BOTH
def test_two_neighbours_knocked_and_righted_show_no_mismatch(mode: str) -> None:
    body = "4100 lift f2\n4150 lift h2\n4600 place f2\n4900 place h2\n5500 place f3"
    effects = replay(f"{KNIGHT_OPENING}\n{body}", header="@start standard", mode=mode)
    assert kinds(effects) == ["move", "move", "move"]
    assert moves(effects) == ["e2e4", "e7e5", "g1f3"]


@BOTH
def test_two_neighbours_knocked_and_left_off_are_shown_once_righting_is_past(
    mode: str,
) -> None:
    body = "4100 lift f2\n4150 lift h2\n7000 place f2\n7100 place h2\n7500 place f3"
    effects = replay(f"{KNIGHT_OPENING}\n{body}", header="@start standard", mode=mode)
    illegal = next(e for e in effects if e["event"] == "illegal")
    assert illegal["t_ms"] == 4100 + RIGHTING_MS
    assert sorted(illegal["missing"]) == ["f2", "g1", "h2"]
    assert moves(effects) == ["e2e4", "e7e5", "g1f3"]


@BOTH
def test_a_knock_then_the_victim_lifted_shows_no_mismatch_while_righted(mode: str) -> None:
    # The e4 pawn lifted, Black's e5 pawn knocked, the d5 pawn taken up while e5 is
    # off: three squares empty, a capture under way and one knocked neighbour.
    header = "@start fen 4k3/8/8/3pp3/4P3/8/8/4K3 w - - 0 1"
    body = "1000 lift e4\n1100 lift e5\n1300 lift d5\n2000 place e5\n2300 place d5"
    effects = replay(body, header=header, mode=mode)
    assert kinds(effects) == ["move"]
    assert moves(effects) == ["e4d5"]
