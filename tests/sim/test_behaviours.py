"""Every behaviour of the human model actually happens over a batch of seeds, and the
ones with a timing contract keep it."""

from __future__ import annotations

from collections import Counter

import pytest
from reedboard.sim.human import HumanScript

from .support import sample_script

BEHAVIOURS = (
    "quiet",
    "capture_own_first",
    "capture_victim_first",
    "capture_fast_swap",
    "ep_own_first",
    "ep_victim_first",
    "ep_capturer_placed_first",
    "castle_king_first",
    "castle_both_lifted",
    "castle_rook_first",
    "castle960_fide",
    "castle960_king_only",
    "castle960_rook_only",
    "castle960_transposition",
    "slide",
    "bounce",
    "flicker",
    "hesitation",
    "touch_other",
    "knock",
    "knock_push_aside",
    "illegal_placement",
    "illegal_back_first",
    "promotion",
    "promotion_exchange",
    "promotion_piece_first",
    "arrive_first",
    "underpromotion_choice",
    "fast_reply",
    "king_think",
    "withdraw_knock",
)
STRICT_ONLY_CASUAL = ("castle_rook_first", "touch_other")


@pytest.fixture(scope="module")
def batch() -> list[HumanScript]:
    return [
        sample_script(
            seed,
            chess960=seed % 2 == 0,
            greedy=True,
            mode="strict" if seed % 5 == 4 else "casual",
            plies=100,
        )
        for seed in range(80)
    ]


def test_every_behaviour_occurs(batch: list[HumanScript]) -> None:
    counts: Counter[str] = Counter()
    for hs in batch:
        for tags in hs.tags:
            counts.update(tags)
    missing = [name for name in BEHAVIOURS if counts[name] == 0]
    assert not missing, f"never seen: {missing}; counts: {dict(counts)}"
    # The common ones are common, the slips rare.
    moves = sum(len(hs.ucis) for hs in batch)
    assert counts["quiet"] > moves / 3
    assert counts["illegal_placement"] < moves / 20


def test_strict_hands_never_use_casual_only_orders(batch: list[HumanScript]) -> None:
    strict = [hs for hs in batch if hs.mode == "strict"]
    assert strict
    for hs in strict:
        for tags in hs.tags:
            assert not tags & set(STRICT_ONLY_CASUAL)


def test_fast_swap_leaves_the_victim_square_empty_30_to_60_ms(batch: list[HumanScript]) -> None:
    gaps = []
    for hs in batch:
        for ply, tags in enumerate(hs.tags):
            if "capture_fast_swap" not in tags:
                continue
            target = hs.ucis[ply][2:4]
            placed = hs.decisive_ms[ply]
            lifts = [
                t for t, action, sq in hs.lines if sq == target and action == "lift" and t < placed
            ]
            gaps.append(placed - lifts[-1])
    assert gaps
    # The last lift may be a bounce edge up to 5 ms after the real one.
    assert all(25 <= gap <= 60 for gap in gaps), gaps


def test_fast_replies_come_within_200_ms(batch: list[HumanScript]) -> None:
    seen = 0
    for hs in batch:
        times = [t for t, action, _ in hs.lines if action != "choose"]
        for ply, tags in enumerate(hs.tags):
            # After the mover's own hand has lifted a piece again (a promotion exchange, a
            # knock while withdrawing) the opponent's hand comes after it.
            if "fast_reply" not in tags or hs.tags[ply - 1] & {
                "promotion_exchange",
                "withdraw_knock",
            }:
                continue
            previous = hs.decisive_ms[ply - 1]
            after = [t for t in times if t > previous + 5]  # past any bounce
            assert after[0] - previous <= 200
            seen += 1
    assert seen


def test_a_thinking_king_is_held_longer_than_3_s_and_lifted_again(
    batch: list[HumanScript],
) -> None:
    seen = 0
    for hs in batch:
        for ply, tags in enumerate(hs.tags):
            if "king_think" not in tags:
                continue
            king = hs.ucis[ply][:2]
            start = hs.decisive_ms[ply - 1] if ply else 0
            edges = [(t, a) for t, a, sq in hs.lines if sq == king and start < t]
            # Each time off the board, from its last lift edge (past any bounce).
            held, lifted = [], None
            for t, action in edges:
                if action == "lift":
                    lifted = t
                elif lifted is not None:
                    held.append(t - lifted)
                    lifted = None
            held = [h for h in held if h > 10]  # not a bounce
            assert held[0] >= 3_200
            assert len(held) >= 2  # held, then lifted again
            seen += 1
    assert seen


def test_the_withdrawing_hand_knocks_an_own_piece_near_where_it_landed(
    batch: list[HumanScript],
) -> None:
    seen = 0
    for hs in batch:
        for ply, tags in enumerate(hs.tags):
            if "withdraw_knock" not in tags:
                continue
            decisive = hs.decisive_ms[ply]
            after = [(t, a, sq) for t, a, sq in hs.lines if t > decisive + 5]
            t, action, _sq = after[0]
            assert action == "lift" and 60 <= t - decisive <= 250
            seen += 1
    assert seen
