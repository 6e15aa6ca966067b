"""A neighbour knocked by the hand carrying a piece, when that piece could take it: the
sensors are those of a one-motion capture (own piece lifted, the victim's square empty
for a moment, filled again) until the next placement. The board decides with that
evidence: such a capture waits `settle_ms`, and a placement that only the other reading
explains (the piece in the hand set down elsewhere) makes it the other move."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.reader.waits import DEFAULT_SETTLE_MS, RELAND_MS, STRAY_WAIT_MS

from tests.reader.support import kinds, moves, replay, steps

BOTH = pytest.mark.parametrize("mode", ["casual", "strict"])
DEBOUNCE_MS = 12  # the debouncer reports a change this long after its first edge
# 1.e4 d5 2.Nf3 e6: White's e4 pawn can take d5 or go to e5; Black's e6 pawn can go to e5.
OPENING = (
    "lift e2, +300 place e4; lift d7, +300 place d5; lift g1, +300 place f3; lift e7, +300 place e6"
)
BEFORE = ["e2e4", "d7d5", "g1f3", "e7e6"]

# name -> (White's hands, the move they make)
KNOCKS = {
    # The script: the d5 pawn falls back 90 ms after it is knocked.
    "pawn set down at once": ("lift e4, +200 lift d5, +90 place d5, +150 place e5", "e4e5"),
    "pawn set down after a pause": ("lift e4, +200 lift d5, +90 place d5, +1500 place e5", "e4e5"),
    "put back by hand": ("lift e4, +100 lift d5, +240 place d5, +250 place e5", "e4e5"),
    "put back by hand, pawn set down later": (
        "lift e4, +100 lift d5, +240 place d5, +700 place e5",
        "e4e5",
    ),
}
CAPTURES = {
    "one-motion swap": ("lift e4, +200 lift d5, +40 place d5", "e4d5"),
    "own piece first": ("lift e4, +300 lift d5, +400 place d5", "e4d5"),
    "victim first": ("lift d5, +600 lift e4, +300 place d5", "e4d5"),
    "victim held a moment": ("lift e4, +200 lift d5, +200 place d5", "e4d5"),
}
REPLY = "lift b8, +300 place c6"


def run(white: str, mode: str, reply: str = REPLY) -> list[dict[str, Any]]:
    return replay(steps(f"{OPENING}; {white}; {reply}", gap_ms=0), mode=mode)


@BOTH
@pytest.mark.parametrize("name", KNOCKS)
def test_a_knocked_neighbour_is_no_capture(mode: str, name: str) -> None:
    white, move = KNOCKS[name]
    effects = run(white, mode)
    # What the host keeps: the move played, then Black's reply; nothing left lit.
    made = moves(effects)
    for undone in (e["uci"] for e in effects if e["event"] == "takeback"):
        made.remove(undone)
    assert made == [*BEFORE, move, "b8c6"]
    assert "illegal" not in kinds(effects)
    assert "violation" not in kinds(effects)


@BOTH
@pytest.mark.parametrize("name", ["pawn set down at once", "put back by hand"])
def test_a_placement_within_the_settle_time_reaches_the_host_only_as_its_move(
    mode: str, name: str
) -> None:
    effects = run(KNOCKS[name][0], mode)
    assert moves(effects) == [*BEFORE, "e4e5", "b8c6"]
    assert "takeback" not in kinds(effects)


@BOTH
@pytest.mark.parametrize("name", CAPTURES)
def test_a_real_capture_still_counts(mode: str, name: str) -> None:
    white, move = CAPTURES[name]
    effects = run(white, mode)
    assert moves(effects) == [*BEFORE, move, "b8c6"]
    assert "takeback" not in kinds(effects) and "illegal" not in kinds(effects)


def _last(body: str, ending: str) -> int:
    """The time of the last line of `body` that ends so."""
    return [int(line.split()[0]) for line in body.splitlines() if line.endswith(ending)][-1]


@BOTH
@pytest.mark.parametrize(
    ("name", "wait_ms"), [("own piece first", DEFAULT_SETTLE_MS), ("victim first", RELAND_MS)]
)
def test_a_capture_no_knock_falling_back_explains_is_decided_within_the_settle_time(
    mode: str, name: str, wait_ms: int
) -> None:
    # The victim's square empty for 300 ms or more: no knock falls back so slowly, but
    # a knocked piece put back by hand may, the capturer still in the hand: that capture
    # waits settle_ms like a move that may grow. The victim lifted first, nothing was
    # in the hand to knock it: made once the piece has rested where it was set.
    body = steps(f"{OPENING}; {CAPTURES[name][0]}; {REPLY}", gap_ms=0)
    effects = replay(body, mode=mode)
    placed = _last(body, "place d5")
    made = next(e["t_ms"] for e in effects if e["event"] == "move" and e["uci"] == "e4d5")
    assert made - placed == wait_ms


@BOTH
@pytest.mark.parametrize("name", ["one-motion swap", "victim held a moment"])
@pytest.mark.parametrize("knock_wait_ms", [None, DEFAULT_SETTLE_MS])
def test_a_fast_swap_capture_is_made_at_the_opponents_first_lift_or_after_the_knock_wait(
    mode: str, name: str, knock_wait_ms: int | None
) -> None:
    # The victim's square empty for less than KNOCK_MS: by default the capture is held
    # until the opponent's hand starts (Black lifts b8 0.6 s later, within the knock
    # wait), then made at once.
    # With knock_wait_ms as short as settle_ms it waits settle_ms of stillness like a
    # move that may grow (a placement meanwhile may still show a knock).
    body = steps(f"{OPENING}; {CAPTURES[name][0]}, +600 {REPLY}", gap_ms=0)
    effects = replay(body, mode=mode, knock_wait_ms=knock_wait_ms)
    made = next(e["t_ms"] for e in effects if e["event"] == "move" and e["uci"] == "e4d5")
    if knock_wait_ms is None:
        assert made == _last(body, "lift b8") + 12  # the lift as the debouncer reports it
    else:
        assert made == _last(body, "place d5") + DEFAULT_SETTLE_MS
    assert moves(effects) == [*BEFORE, "e4d5", "b8c6"]


@BOTH
def test_the_opponent_arriving_first_after_a_fast_capture_keeps_the_capture(mode: str) -> None:
    # After the one-motion exd5 Black steps e6-e5, the magnet closing e5 20 ms before
    # e6 opens: a placement both readings explain, which the lift just after decides.
    effects = run("lift e4, +200 lift d5, +40 place d5", mode, "+200 place e5, +20 lift e6")
    assert moves(effects) == [*BEFORE, "e4d5", "e6e5"]
    assert "takeback" not in kinds(effects)


@BOTH
def test_a_king_capture_that_waits_is_no_king_held_off(mode: str) -> None:
    # Kxd2 swapped in one motion waits settle_ms, the king's square empty meanwhile: once
    # the capture stands, nothing of the resignation gesture may go on from it.
    body = "1000 lift e1\n1200 lift d2\n1300 place d2\n6000 lift e8\n6400 place e7\n"
    effects = replay(body, header="@start fen r3k3/8/8/8/8/8/3p4/4K2R w - - 0 1", mode=mode)
    assert moves(effects) == ["e1d2", "e8e7"]
    assert "offer" not in kinds(effects) and "game_over" not in kinds(effects)


@BOTH
def test_the_opponent_arriving_first_within_the_wait_keeps_the_capture(mode: str) -> None:
    # As above, the e6 pawn's magnet closing e5 while exd5 still waits: e4-e5 would be
    # the other reading, but e6 opening 20 ms later makes it Black's move.
    effects = run("lift e4, +200 lift d5, +40 place d5", mode, "+120 place e5, +20 lift e6")
    assert moves(effects) == [*BEFORE, "e4d5", "e6e5"]
    assert "takeback" not in kinds(effects)


@BOTH
def test_the_opponent_touching_a_second_victim_keeps_the_first_capture(mode: str) -> None:
    # 1.e4 d5 2.Nf3 f5: exd5 swapped in one motion, then Black's hand lifts the f5 pawn
    # (which e4 could also have taken) and puts it back, then plays it on.
    body = steps(
        "lift e2, +300 place e4; lift d7, +300 place d5; lift g1, +300 place f3; "
        "lift f7, +300 place f5; lift e4, +200 lift d5, +40 place d5, +80 lift f5, "
        "+150 place f5, +600 lift f5, +300 place f4",
        gap_ms=0,
    )
    effects = replay(body, mode=mode)
    assert moves(effects) == ["e2e4", "d7d5", "g1f3", "f7f5", "e4d5", "f5f4"]
    assert "takeback" not in kinds(effects)


# Black's f4 pawn can take e3 or step to f3; White's king on g2 stands next to f3.
KING_NEXT = "@start fen 4k2r/7p/4N3/P2p4/5p2/B3P3/P1PP2K1/RN2R3 b - - 0 24"


@BOTH
def test_a_knock_read_as_a_capture_and_an_arrival_is_undone_by_a_later_placement(
    mode: str,
) -> None:
    # f4 in the hand knocks e3 (back in 78 ms) and is set on f3; White's king, next to
    # f3, is lifted 40 ms later: fxe3 and Kf3 seen arriving first read so too. The king
    # set down on f2 (f3 knocked on the way) is explained only by f4-f3: that is the game.
    # What the first reading made meanwhile was held back: the host sees only the game.
    body = (
        "1000 lift f4\n1105 lift e3\n1183 place e3\n1265 place f3\n1305 lift g2\n"
        "1463 lift f3\n1516 place f3\n2005 place f2\n3500 lift h8\n3900 place g8\n"
    )
    effects = replay(body, header=KING_NEXT, mode=mode)
    assert moves(effects) == ["f4f3", "g2f2", "h8g8"]
    assert "takeback" not in kinds(effects) and "game_over" not in kinds(effects)
    assert "illegal" not in kinds(effects) and "violation" not in kinds(effects)


@BOTH
def test_the_first_reading_held_during_the_fork_goes_out_when_the_other_is_dropped(
    mode: str,
) -> None:
    # As above, but the king set back on f3 and left there: fxe3 and Kf3 stand. What was
    # held goes out once the other reading is dropped, knock_wait_ms after the fork.
    body = (
        "1000 lift f4\n1105 lift e3\n1183 place e3\n1265 place f3\n1305 lift g2\n"
        "1463 lift f3\n1516 place f3\n5000 lift h8\n5400 place g8\n"
    )
    effects = replay(body, header=KING_NEXT, mode=mode)
    assert moves(effects) == ["f4e3", "g2f3", "h8g8"]
    assert "takeback" not in kinds(effects)
    made = [e["t_ms"] for e in effects if e["event"] == "move"]
    assert made[0] == made[1] <= 1305 + 12 + 1500


@BOTH
def test_the_opponents_queen_set_down_before_the_pawn_is_cleared_keeps_the_capture(
    mode: str,
) -> None:
    # Rxf8 slid up the file and swapped in one motion (f8 empty for 129 ms) waits as a
    # possible knock; Black's new queen set on g1 at once, the g2 pawn cleared a second
    # later. The rook could have stepped to g1 too, but the queen set down first is the
    # capture's reading, as it is once the capture stands.
    body = (
        "1000 lift f1\n1405 place f3\n1459 lift f3\n1477 place f4\n1590 lift f4\n"
        "1590 place f5\n1712 lift f5\n1725 place f6\n1804 lift f6\n1832 place f7\n"
        "1930 lift f7\n2182 lift f8\n2311 place f8\n2468 place g1\n3523 lift g2\n"
        "5000 lift d1\n5300 place c2\n"
    )
    header = "@start fen 5b2/2pkp3/8/7p/P6P/8/6p1/3K1R2 w - - 0 33"
    effects = replay(body, header=header, mode=mode)
    assert moves(effects) == ["f1f8", "g2g1q", "d1c2"]
    assert "takeback" not in kinds(effects) and "illegal" not in kinds(effects)


@BOTH
def test_a_mate_the_replaced_reading_gave_never_reaches_the_host(mode: str) -> None:
    # The rook on d1 in the hand knocks the d2 knight (back in 90 ms) and is set on e1;
    # Black's rook on e2 is lifted 40 ms later. Read as Rxd2 and Re1 arriving first, that
    # is mate; the rook then set on e3 is explained only by Rd1-e1 Re2-e3: that is the
    # game, and the host hears of no mate and no takeback.
    body = "1000 lift d1\n1200 lift d2\n1290 place d2\n1500 place e1\n1540 lift e2\n2200 place e3\n"
    effects = replay(body, header="@start fen k7/8/8/8/8/8/3nrPPP/3R2K1 w - - 0 1", mode=mode)
    assert moves(effects) == ["d1e1", "e2e3"]
    assert kinds(effects) == ["move", "move"]


@BOTH
@pytest.mark.parametrize("reply_ms", [1457, 6457])
def test_the_capturer_set_on_a_promotion_square_and_no_pawn_lifted_is_its_move(
    mode: str, reply_ms: int
) -> None:
    # The bench's knocked-neighbour family, seed 5284, ply 69: the queen on d3 in the
    # hand knocks the d4 pawn (back in 186 ms) and is set on b1, where Black's b2 pawn
    # could promote. Read as Qxd4, b1 is Black's new queen set down before the pawn is
    # cleared; but Black then lifts the c6 queen (or nothing for STRAY_WAIT_MS), not the
    # pawn: Qd3-b1 was the move.
    t = 1543 + reply_ms
    body = (
        f"1000 lift d3\n1151 lift d4\n1337 place d4\n1543 place b1\n{t} lift c6\n"
        f"{t + 208} lift c5\n{t + 379} place c5\n{t + 495} place d6\n{t + 526} lift d6\n"
        f"{t + 785} place e6\n"
    )
    header = "@start fen 2r1k3/1b4p1/npq2n1r/2P2p2/p2p1Pp1/3Q3N/1p2P1RP/3K1B1R w - - 6 35"
    effects = replay(body, header=header, mode=mode)
    assert moves(effects) == ["d3b1", "c6e6"]
    assert "takeback" not in kinds(effects) and "illegal" not in kinds(effects)
    # Made at Black's first lift, or once the pawn's lift can no longer come.
    made = next(e["t_ms"] for e in effects if e["event"] == "move")
    assert made == min(t + DEBOUNCE_MS, 1543 + STRAY_WAIT_MS)
