"""Blitz hands that overlap: the opponent lifts a piece while the player's piece is still
in the air. Each hand's pieces are told apart by colour and legality, and both moves
count, in either order of the two placements, in both modes."""

from __future__ import annotations

import pytest

from tests.reader.support import kinds, landings, move_clocks, moves, replay, steps

BOTH = pytest.mark.parametrize("mode", ["casual", "strict"])
OPENING = "lift e2, +300 place e4; lift e7, +300 place e5"
CENTRE = "lift e2, +300 place e4; lift d7, +300 place d5"

# name -> (the opening, the overlapping hands, the two moves, the next move played)
OVERLAPS = {
    "knights, White sets down first": (
        OPENING,
        "lift g1, +200 lift b8, +100 place f3, +200 place c6",
        ["g1f3", "b8c6"],
        "lift f1, +300 place c4",
    ),
    "knights, Black holds on a while": (
        OPENING,
        "lift g1, +200 lift b8, +100 place f3, +1200 place c6",
        ["g1f3", "b8c6"],
        "lift f1, +300 place c4",
    ),
    "knights, Black sets down first": (
        OPENING,
        "lift g1, +200 lift b8, +300 place c6, +100 place f3",
        ["g1f3", "b8c6"],
        "lift f1, +300 place c4",
    ),
    "a capture, then a knight": (
        CENTRE,
        "lift e4, +150 lift d5, +100 lift g8, +100 place d5, +300 place f6",
        ["e4d5", "g8f6"],
        "lift b1, +300 place c3",
    ),
    "a bishop dragged over a waypoint": (
        OPENING,
        "lift f1, +100 lift b8, +100 place e2, +30 lift e2, +60 place d3, +200 place c6",
        ["f1d3", "b8c6"],
        "lift g1, +300 place f3",
    ),
    "a pawn, then a pawn": (
        OPENING,
        "lift d2, +150 lift d7, +150 place d3, +100 place d6",
        ["d2d3", "d7d6"],
        "lift g1, +300 place f3",
    ),
}


@BOTH
@pytest.mark.parametrize("name", OVERLAPS)
def test_both_overlapping_moves_count(mode: str, name: str) -> None:
    opening, hands, pair, after = OVERLAPS[name]
    effects = replay(steps(f"{opening}; {hands}; {after}", gap_ms=0), mode=mode)
    before = moves(replay(steps(opening, gap_ms=0), mode=mode))
    nxt = after.split()[1].rstrip(",") + after.split()[-1]
    assert moves(effects) == [*before, *pair, nxt]
    assert "illegal" not in kinds(effects) and "violation" not in kinds(effects)


@BOTH
def test_the_opponent_touching_a_piece_meanwhile_leaves_the_move_alone(mode: str) -> None:
    # Black lifts the knight and puts it back while White's knight is in the air: White's
    # move counts; in strict mode Black must now move the knight touched (FIDE 4.3a).
    body = f"{OPENING}; lift g1, +200 lift b8, +150 place b8, +150 place f3; lift b8, +300 place c6"
    effects = replay(steps(body, gap_ms=0), mode=mode)
    assert moves(effects) == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert "illegal" not in kinds(effects)


@BOTH
def test_a_long_capture_slide_overlapping_the_reply_counts(mode: str) -> None:
    # Chess960: the a1 bishop takes h8 along the long diagonal, the victim lifted first,
    # its magnet resting on every square it passes (d4 among them); Black's d5 pawn is
    # lifted as it leaves a1 and set on d4 once the bishop is down. The waypoints
    # nothing else touches may be either hand's: they change nothing.
    body = (
        "1000 lift h8\n1800 lift a1\n1980 lift d5\n2110 place b2\n2245 lift b2\n"
        "2245 place c3\n2290 lift c3\n2290 place d4\n2380 lift d4\n2380 place e5\n"
        "2485 lift e5\n2500 place f6\n2640 lift f6\n2670 place g7\n2790 lift g7\n"
        "2990 place h8\n4450 place d4\n6000 lift g1\n6400 place f3\n"
    )
    header = "@start fen brnbkqnr/ppp1pp1p/6p1/3p4/1P6/4P3/P1PP1PPP/BRNBKQNR w KQkq - 0 3"
    effects = replay(body, header=header, mode=mode)
    assert moves(effects) == ["a1h8", "d5d4", "g1f3"]
    assert "illegal" not in kinds(effects) and "takeback" not in kinds(effects)


@BOTH
def test_a_slide_made_then_moved_on_under_the_replys_capture_counts_three_moves(
    mode: str,
) -> None:
    # The bench's overlapping-hands family, seed 5185, ply 22: Black's rook lands on h5,
    # where it could still go on and take h4; White lifts the h4 pawn 165 ms later (the
    # rook's capture in progress, read alone) and takes on g5, while Black lifts the rook
    # again and sets it on h6 before White's pawn is down. Three moves: Rh5, hxg5, Rh6;
    # then White plays c3.
    body = (
        "1000 lift h8\n1513 place h5\n1678 lift h4\n2354 lift h5\n2360 lift g5\n"
        "2417 place g5\n3262 place h6\n3750 lift c2\n4471 place c3\n"
    )
    header = (
        "@start fen r1bqkb1r/pppp4/n4p2/1B4p1/3pPP1P/N7/PPPQ3n/R1B1K1NR b KQkq - 1 11\n@clock 3+0"
    )
    effects = replay(body, header=header, mode=mode)
    assert moves(effects) == ["h8h5", "h4g5", "h5h6", "c2c3"]
    assert "takeback" not in kinds(effects) and "illegal" not in kinds(effects)
    # Each clock stopped at its move's own last change: h5 at 1513, g5 at 2417, h6 at 3262.
    clocks = move_clocks(effects)[:3]
    assert clocks == [
        (180_000, 180_000 - 1513),
        (180_000 - (2417 - 1513), 180_000 - 1513),
        (180_000 - (2417 - 1513), 180_000 - 1513 - (3262 - 2417)),
    ]


@BOTH
def test_a_slide_read_out_of_overlapping_hands_stops_its_clock_where_it_landed(
    mode: str,
) -> None:
    # The bench's overlapping-hands family, seed 4, ply 23, in short: White's bishop set
    # on c4 (where it could still go on to b5) while Black's knight is already in the
    # air; the board tells the two moves apart only once the knight is down, 250 ms
    # later. White's time stops when the bishop lands (FIDE 4.7), Black's when the knight
    # does.
    body = steps(f"{OPENING}; lift f1, +200 lift b8, +100 place c4, +250 place c6", gap_ms=0)
    effects = replay(body, header="@clock 3+0", mode=mode)
    assert moves(effects) == ["e2e4", "e7e5", "f1c4", "b8c6"]
    times = landings(body)
    clocks = move_clocks(effects)
    white, black = clocks[1]
    assert clocks[2] == (white - (times["c4"] - times["e5"]), black)
    assert clocks[3] == (clocks[2][0], black - (times["c6"] - times["c4"]))


@BOTH
def test_a_reply_read_out_of_overlapping_hands_stops_its_clock_where_it_landed(
    mode: str,
) -> None:
    # The bench's overlapping-hands family, seeds 40 (ply 25) and 234 (ply 12), in short:
    # White's bishop set on c4 (where it could still go on) while Black's knight is in
    # the air; the knight lands on c6, and White lifts the g1 knight 100 ms later, which
    # tells the two moves apart. Black's time stops when the knight lands (FIDE 4.7),
    # not at White's next lift.
    body = steps(
        f"{OPENING}; lift f1, +200 lift b8, +100 place c4, +250 place c6, +100 lift g1,"
        " +300 place f3",
        gap_ms=0,
    )
    effects = replay(body, header="@clock 3+0", mode=mode)
    assert moves(effects) == ["e2e4", "e7e5", "f1c4", "b8c6", "g1f3"]
    times = landings(body)
    clocks = move_clocks(effects)
    white, black = clocks[1]
    assert clocks[2] == (white - (times["c4"] - times["e5"]), black)
    assert clocks[3] == (clocks[2][0], black - (times["c6"] - times["c4"]))
