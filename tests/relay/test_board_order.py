"""Boards in the order people number them, on the page, in `/games.pgn` and in the Lichess
rounds; and a board's change pushes its own round only. Sorted as text, boards 1-150 put
board "54" in the second round; every change pushed every round again."""

from __future__ import annotations

from pathlib import Path

from reedboard_relay.board_order import in_board_order
from reedboard_relay.lichess_push import RoundsOfBoards, rounds_for

from tests.relay.test_game_pairings import ROUND_1, Relay, hello, rewrite, state


def test_numbers_in_ids_sort_as_numbers() -> None:
    assert in_board_order(["b10", "b9", "a", "10", "9", "b1", "B2"]) == [
        "9", "10", "B2", "a", "b1", "b9", "b10",
    ]  # fmt: skip
    ids = in_board_order(str(n) for n in range(150, 0, -1))
    assert rounds_for(ids, ["r1", "r2"])["r2"] == [str(n) for n in range(101, 151)]


def test_the_relay_lists_its_boards_in_number_order(tmp_path: Path) -> None:
    rewrite(tmp_path / "round.csv", ROUND_1, 1)
    relay = Relay(tmp_path / "relay.sqlite", tmp_path / "round.csv")
    try:
        for n in (10, 2, 1, 9):
            relay.heard(str(n), hello(1, "s"), state(2))
        assert relay.web.board_ids() == ["1", "2", "9", "10"]
        assert [s["id"] for s in relay.web.summaries()] == ["1", "2", "9", "10"]
        sites = [line for line in (relay.web.pgn() or "").splitlines() if "Site" in line]
        assert sites == [f'[Site "reedboard {n}"]' for n in (1, 2, 9, 10)]
    finally:
        relay.close()


def test_a_change_pushes_only_the_rounds_it_concerns() -> None:
    rounds = RoundsOfBoards(["r1", "r2"])
    boards = [str(n) for n in range(1, 151)]
    assert rounds.touched("5", boards) == ["r1", "r2"]  # the first: every round is new
    assert rounds.touched("5", boards) == ["r1"]
    assert rounds.touched("120", boards) == ["r2"]
    # A new board among the first hundred shifts board 100 into the second round.
    assert rounds.touched("50a", in_board_order([*boards, "50a"])) == ["r1", "r2"]
