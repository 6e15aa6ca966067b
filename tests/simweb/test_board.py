"""The simulated board as the page drives it, without a browser: a click capture made at
once by the simulator's hands, a new game set out without a word about the last one's
pieces, and the voice's sentences numbered for the page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from reedboard.rules.squares import parse_square
from reedboard.simweb.board import SimBoard

from tests.simweb.simproc import quiet_config
from tests.simweb.waiting import wait_for


@pytest.fixture
def board() -> Iterator[SimBoard]:
    sim = SimBoard(quiet_config())
    sim.start()
    try:
        yield sim
    finally:
        sim.stop()


def said(board: SimBoard) -> list[str]:
    return [s["text"] for s in board.snapshot()["spoken"]]


def seen_empty(board: SimBoard, square: str) -> None:
    """Wait until the board's sensors have taken `square` as empty."""
    bit = 1 << parse_square(square)
    wait_for(lambda: not board.board_game().debouncer.occupancy & bit)


def play_typed(board: SimBoard, *moves: str) -> None:
    """Moves typed as on the page, each once the last is on the board."""
    for move in moves:
        plies = len(board.snapshot()["san"]) + 1
        board.type_move(move)
        wait_for(lambda plies=plies: len(board.snapshot()["san"]) == plies)  # type: ignore[misc]


def test_a_click_on_an_opponent_s_piece_with_a_piece_in_hand_captures_it(
    board: SimBoard,
) -> None:
    play_typed(board, "e4", "d5")
    board.gesture("touch", {"square": "e4"})
    board.gesture("touch", {"square": "d5"})
    # Only the capturing pawn is ever in hand: the victim goes beside the board.
    assert [held["piece"] for held in board.snapshot()["hand"]] == ["P"]
    wait_for(lambda: board.snapshot()["san"] == ["e4", "d5", "exd5"])
    shown = board.snapshot()
    assert shown["hand"] == [] and shown["tray"] == ["p"]
    assert shown["pieces"]["d5"] == "P" and "e4" not in shown["pieces"]


def test_a_capture_by_clicks_victim_first_lifts_both(board: SimBoard) -> None:
    """The victim taken off first, then the capturer: a click on the capturer lifts it
    (it does not capture it), and the capture ends as any other."""
    play_typed(board, "e4", "d5")
    board.gesture("touch", {"square": "d5"})
    seen_empty(board, "d5")  # hands take a moment; the board sees each step
    board.gesture("touch", {"square": "e4"})
    assert [held["piece"] for held in board.snapshot()["hand"]] == ["p", "P"]
    seen_empty(board, "e4")
    board.gesture("touch", {"square": "d5"})
    board.gesture("to_tray", {})
    wait_for(lambda: board.snapshot()["san"] == ["e4", "d5", "exd5"])
    assert board.snapshot()["tray"] == ["p"]


def test_a_click_on_one_s_own_piece_with_a_piece_in_hand_lifts_it_too(board: SimBoard) -> None:
    play_typed(board, "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5")
    board.gesture("touch", {"square": "e1"})
    board.gesture("touch", {"square": "h1"})  # castling: king and rook in hand
    assert [held["piece"] for held in board.snapshot()["hand"]] == ["K", "R"]
    board.gesture("touch", {"square": "f1"})
    board.gesture("select", {"index": 0})
    board.gesture("touch", {"square": "g1"})
    wait_for(lambda: board.snapshot()["san"][-1:] == ["O-O"])


def test_a_new_game_sets_the_pieces_out_without_an_illegal_word(board: SimBoard) -> None:
    play_typed(board, "e4", "c5", "c3")
    board.command({"type": "new_game"})
    play_typed(board, "d4")  # its sentence comes after any about the new game's pieces
    wait_for(lambda: "Pawn d2 to d4." in said(board))
    assert said(board)[-2:] == ["New game, white to move.", "Pawn d2 to d4."], said(board)
    assert board.snapshot()["notice"] is None


def test_the_first_sentence_ever_said_is_number_1(board: SimBoard) -> None:
    assert board.snapshot()["spoken"] == []
    play_typed(board, "e4")
    wait_for(lambda: bool(board.snapshot()["spoken"]))
    first = board.snapshot()["spoken"][0]
    assert (first["n"], first["text"]) == (1, "Pawn e2 to e4.")
