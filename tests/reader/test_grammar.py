"""Every row of the physical grammar (docs/hands.md, "How the board reads a game"), in both modes.

Each case is what real hands do on the board, as raw sensor changes; the arbiter must
give exactly the moves named, and nothing else."""

from __future__ import annotations

import pytest

from tests.reader.support import kinds, moves, replay, steps

BOTH = pytest.mark.parametrize("mode", ["casual", "strict"])

ITALIAN = "lift e2, place e4; lift e7, place e5; lift g1, place f3; lift b8, place c6; lift f1, place c4; lift f8, place c5"


@BOTH
def test_lift_and_place_on_a_legal_target_is_the_move(mode: str) -> None:
    effects = replay(steps("lift e2, place e4; lift g8, place f6"), mode=mode)
    assert moves(effects) == ["e2e4", "g8f6"]
    assert kinds(effects) == ["move", "move"]


@BOTH
@pytest.mark.parametrize(
    "capture",
    [
        "lift e4, lift d5, place d5",  # own piece first
        "lift d5, lift e4, place d5",  # victim first
        "lift e4, @5000 lift d5, @5035 place d5",  # fast swap: victim square empty 35 ms
        "lift d5, @5000 lift e4, @5040 place d5",  # victim first, capturer lands fast
    ],
    ids=["own-first", "victim-first", "fast-swap", "victim-first-fast"],
)
def test_capture_in_either_order(mode: str, capture: str) -> None:
    effects = replay(steps("lift e2, place e4; lift d7, place d5; " + capture), mode=mode)
    assert moves(effects) == ["e2e4", "d7d5", "e4d5"]


@BOTH
@pytest.mark.parametrize(
    "en_passant",
    [
        "lift e5, lift d5, place d6",
        "lift d5, lift e5, place d6",
        "lift e5, place d6, lift d5",  # the capturing pawn placed first, the victim after
    ],
    ids=["pawn-first", "victim-first", "placed-then-victim-removed"],
)
def test_en_passant_in_any_order(mode: str, en_passant: str) -> None:
    opening = "lift e2, place e4; lift a7, place a6; lift e4, place e5; lift d7, place d5; "
    effects = replay(steps(opening + en_passant), mode=mode)
    assert moves(effects) == ["e2e4", "a7a6", "e4e5", "d7d5", "e5d6"]
    assert effects[-1]["fen"].startswith("rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b")


PROMOTION_FEN = "@start fen 8/4P1k1/8/8/8/8/6K1/8 w - - 0 1"


@BOTH
def test_promotion_is_a_queen_unless_the_host_chose(mode: str) -> None:
    effects = replay(steps("lift e7, place e8"), header=PROMOTION_FEN, mode=mode)
    assert moves(effects) == ["e7e8q"]
    effects = replay("500 choose n\n" + steps("lift e7, place e8"), header=PROMOTION_FEN, mode=mode)
    assert moves(effects) == ["e7e8n"]


@BOTH
def test_pawn_exchanged_for_the_new_piece_is_part_of_the_move(mode: str) -> None:
    # FIDE 3.7e: the pawn is replaced on the promotion square; no touch, no other move.
    body = steps("lift e7, place e8, +300 lift e8, +1500 place e8; lift g7, place f6")
    effects = replay(body, header=PROMOTION_FEN, mode=mode)
    assert moves(effects) == ["e7e8q", "g7f6"]
    touched = [e["square"] for e in effects if e["event"] == "touch"]
    assert touched == ["e7", "g7"]


CASTLING_FEN = "@start fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"


@BOTH
@pytest.mark.parametrize(
    ("gesture", "uci"),
    [
        ("lift e1, place g1, lift h1, place f1", "e1g1"),  # king first (FIDE 3.8, Art. 7)
        ("lift e1, lift h1, place g1, place f1", "e1g1"),  # both lifted together
        ("lift e1, place c1, lift a1, place d1", "e1c1"),
        # The king slides, resting 100 ms on f1 (a waypoint rests 20-150 ms).
        ("lift e1, place f1, @1500 lift f1, @1560 place g1, lift h1, place f1", "e1g1"),
    ],
    ids=["king-first", "together", "queenside", "king-slides"],
)
def test_standard_castling(mode: str, gesture: str, uci: str) -> None:
    effects = replay(steps(gesture + "; lift a7, place a6"), header=CASTLING_FEN, mode=mode)
    assert moves(effects) == [uci, "a7a6"]
    assert "illegal" not in kinds(effects)


def test_rook_first_is_castling_in_casual_mode() -> None:
    effects = replay(
        steps("lift h1, place f1, +300 lift e1, place g1; lift a7, place a6"), header=CASTLING_FEN
    )
    assert moves(effects) == ["e1g1", "a7a6"]


def test_rook_first_stands_as_a_rook_move_in_strict_mode() -> None:
    # FIDE 4.4b: rook touched first, then the king: no castling on that side on this move.
    effects = replay(
        steps("lift h1, place f1, +300 lift e1, place g1"), header=CASTLING_FEN, mode="strict"
    )
    assert moves(effects) == ["h1f1"]
    violation = [e for e in effects if e["event"] == "violation"]
    assert violation and violation[0]["rule"] == "4.4b" and violation[0]["square"] == "e1"


CHESS960 = "@start chess960 {n}"
DEVELOP_F1 = "lift g2, place g3; lift g7, place g6; lift f1, place h3; lift f8, place h6"


@BOTH
@pytest.mark.parametrize(
    ("number", "opening", "gesture", "uci"),
    [
        # 2 = BQNNRBKR: king on g1 already: O-O moves only the rook (rook only).
        (2, DEVELOP_F1, "lift g1, lift h1, place f1, place g1", "g1h1"),  # FIDE's way
        (2, DEVELOP_F1, "lift h1, place f1", "g1h1"),  # the rook jumps the king
        (2, DEVELOP_F1, "lift g1, lift h1, +20 place f1, +20 place g1", "g1h1"),  # quick
        # 3 = BQNNRKRB: king f1, rook g1: O-O swaps them (transposition).
        (3, "lift a2, place a3; lift a7, place a6", "lift f1, lift g1, place f1, place g1", "f1g1"),
        (3, "lift a2, place a3; lift a7, place a6", "lift f1, lift g1, place g1, place f1", "f1g1"),
    ],
    ids=[
        "rook-only-fide-way",
        "rook-only-jump",
        "rook-only-quick",
        "transposition",
        "transposition-other-order",
    ],
)
def test_chess960_castling_kinds(
    mode: str, number: int, opening: str, gesture: str, uci: str
) -> None:
    effects = replay(steps(opening + "; " + gesture), header=CHESS960.format(n=number), mode=mode)
    assert moves(effects)[-1] == uci


@BOTH
def test_chess960_transposition_ends_with_unchanged_occupancy(mode: str) -> None:
    fen = "@start fen 1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1"
    effects = replay(
        steps("lift f1, lift g1, place f1, place g1; lift a7, place a6"), header=fen, mode=mode
    )
    assert moves(effects) == ["f1g1", "a7a6"]
    castling = next(e for e in effects if e["event"] == "move")
    assert castling["san"] == "O-O"
    assert castling["fen"].startswith("1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b")


@BOTH
def test_chess960_king_only(mode: str) -> None:
    # The rook already stands on f1: O-O moves only the king, e1 to g1 over the rook.
    fen = "@start fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/4KR2 w F - 0 1"
    effects = replay(steps("lift e1, place g1; lift a7, place a6"), header=fen, mode=mode)
    assert moves(effects) == ["e1f1", "a7a6"]
    castling = next(e for e in effects if e["event"] == "move")
    assert castling["san"] == "O-O"


@BOTH
def test_chess960_king_step_waits_for_the_rook(mode: str) -> None:
    # King f1, rook h1: O-O is the king's single step f1-g1 and the rook h1-f1.
    fen = "@start fen 5k1r/pppppppp/8/8/8/8/PPPPPPPP/5K1R w Hh - 0 1"
    effects = replay(
        steps("lift f1, place g1, +500 lift h1, place f1; lift a7, place a6"), header=fen, mode=mode
    )
    assert moves(effects) == ["f1h1", "a7a6"]
    # And a plain king step that stays one: committed after the wait.
    effects = replay(steps("lift f1, place g1; +2500 lift a7, place a6"), header=fen, mode=mode)
    assert moves(effects) == ["f1g1", "a7a6"]


def test_touch_is_reported_and_binds_only_in_strict_mode() -> None:
    body = steps("lift g1, place g1; lift b1, place c3")
    casual = replay(body)
    assert [e["square"] for e in casual if e["event"] == "touch"] == ["g1", "b1"]
    assert moves(casual) == ["b1c3"]
    strict = replay(body, mode="strict")
    assert moves(strict) == []
    assert [(e["rule"], e["square"]) for e in strict if e["event"] == "violation"] == [
        ("4.3a", "g1")
    ]


@BOTH
def test_waypoints_of_a_slide_are_not_moves(mode: str) -> None:
    body = (
        steps("lift d2, place d4; lift e7, place e6")
        + "\n"
        + "\n".join(
            [
                "5000 lift c1",
                "5060 place d2",
                "5120 lift d2",
                "5180 place e3",
                "5240 lift e3",
                "5300 place f4",
            ]
        )
    )
    assert moves(replay(body, mode=mode)) == ["d2d4", "e7e6", "c1f4"]


@BOTH
@pytest.mark.parametrize("overlap_ms", [5, 40, 600])
def test_a_piece_seen_arriving_before_it_is_seen_leaving_is_the_move(
    mode: str, overlap_ms: int
) -> None:
    # A slide whose magnet closes the next switch before the last one opens, or a piece
    # put down first and its square cleared a moment later.
    body = f"1000 place e3\n{1000 + overlap_ms} lift e2\n3000 lift e7\n3400 place e5\n"
    effects = replay(body, mode=mode)
    assert moves(effects) == ["e2e3", "e7e5"]
    assert "illegal" not in kinds(effects)


@BOTH
def test_arriving_first_on_the_square_a_capture_left_is_no_takeback(mode: str) -> None:
    # After gxh4 the sensors with g3 filled again read as before the capture: but nothing
    # left h4, so it is Black's g4-g3 seen arriving first, not the capture taken back.
    body = "1000 lift g3\n1400 lift h4\n1800 place h4\n4000 place g3\n4020 lift g4\n"
    effects = replay(body, header="@start fen 6k1/8/8/8/6pr/6P1/8/6K1 w - - 0 1", mode=mode)
    assert moves(effects) == ["g3h4", "g4g3"]
    assert "takeback" not in kinds(effects)


@BOTH
def test_a_queen_set_down_before_the_pawn_is_cleared_is_the_promotion(mode: str) -> None:
    effects = replay("1000 place e8\n1700 lift e7\n", header=PROMOTION_FEN, mode=mode)
    assert moves(effects) == ["e7e8q"]
    assert "illegal" not in kinds(effects)


@BOTH
def test_a_stray_piece_that_stays_is_a_mismatch(mode: str) -> None:
    # Put on e3 from off the board, where a move could have arrived: nothing follows, so
    # after a while the lights show it; taken away, the board is right again.
    effects = replay("1000 place e3\n6000 lift e3\n7000 lift d2\n7400 place d4\n", mode=mode)
    assert kinds(effects) == ["illegal", "restored", "move"]
    illegal = effects[[e["event"] for e in effects].index("illegal")]
    assert (illegal["missing"], illegal["extra"], illegal["t_ms"]) == ([], ["e3"], 3000)
    assert moves(effects) == ["d2d4"]


@BOTH
def test_bounce_is_noise(mode: str) -> None:
    body = "1000 lift e2\n1002 place e2\n1004 lift e2\n1400 place e4\n1401 lift e4\n1404 place e4\n"
    body += "2000 lift b8\n2003 place b8\n"  # a magnet passing a neighbour
    effects = replay(body, mode=mode)
    assert moves(effects) == ["e2e4"]
    assert [e["square"] for e in effects if e["event"] == "touch"] == ["e2"]


@BOTH
def test_anything_else_that_settles_is_a_mismatch(mode: str) -> None:
    effects = replay(
        steps("lift g1, place g3, +2000 lift g3, place g1; lift g1, place f3"), mode=mode
    )
    assert kinds(effects) == ["illegal", "restored", "move"]
    illegal = effects[[e["event"] for e in effects].index("illegal")]
    assert (illegal["missing"], illegal["extra"], illegal["pairs"]) == (
        ["g1"],
        ["g3"],
        [["g3", "g1"]],
    )


@BOTH
def test_knocked_neighbour_never_becomes_a_move(mode: str) -> None:
    # While the knight is in the hand, the g2 pawn is knocked off and put back.
    effects = replay(steps("lift g1, lift g2, place f3, place g2; lift e7, place e5"), mode=mode)
    assert moves(effects) == ["g1f3", "e7e5"]
    # Pushed aside onto h3 and put back after the board complains.
    effects = replay(
        steps("lift g1, place f3, lift g2, place h3, +1500 lift h3, place g2; lift e7, place e5"),
        mode=mode,
    )
    assert moves(effects) == ["g1f3", "e7e5"]
    assert "illegal" in kinds(effects) and "restored" in kinds(effects)


def test_takeback_in_casual_mode_undoes_the_last_move_capture_included() -> None:
    body = steps(
        "lift e2, place e4; lift d7, place d5; lift e4, lift d5, place d5; +500 lift d5, place e4, +800 place d5"
    )
    effects = replay(body)
    assert moves(effects) == ["e2e4", "d7d5", "e4d5"]
    takeback = [e for e in effects if e["event"] == "takeback"]
    assert takeback and takeback[0]["uci"] == "e4d5"
    assert takeback[0]["fen"].startswith("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w")
    strict = replay(body, mode="strict")
    assert "takeback" not in kinds(strict)


@BOTH
def test_setting_up_the_start_position_starts_a_new_game(mode: str) -> None:
    body = steps(
        ITALIAN
        + "; lift c4, place f1, lift c5, place f8, lift c6, place b8, lift f3, place g1, lift e5, place e7, lift e4, place e2"
    )
    effects = replay(body, mode=mode)
    assert moves(effects)[:6] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"]
    assert "new_game" in kinds(effects)
    assert effects[-1]["event"] in ("new_game", "restored") or "new_game" in kinds(effects)


@BOTH
def test_checkmate_ends_the_game_and_further_moves_are_mismatches(mode: str) -> None:
    fools = "lift f2, place f3; lift e7, place e5; lift g2, place g4; lift d8, place h4"
    effects = replay(steps(fools + "; lift a2, place a3"), mode=mode)
    assert moves(effects) == ["f2f3", "e7e5", "g2g4", "d8h4"]
    over = [e for e in effects if e["event"] == "game_over"]
    assert over == [
        {"event": "game_over", "t_ms": over[0]["t_ms"], "result": "0-1", "reason": "checkmate"}
    ]
    assert kinds(effects)[-1] == "illegal"
