"""The game as the broadcast shows it after the arbiter's decisions: pure, no relay."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from reedboard.rules.game import Game
from reedboard_host.mirror import MirroredGame
from reedboard_relay.added_time import AddedTime
from reedboard_relay.arbiter_store import ArbiterStore
from reedboard_relay.corrections import (
    ArbiterResult,
    Correction,
    Decisions,
    PlayerFix,
    cancelled_moves,
    shown_game,
    shown_pairing,
)
from reedboard_relay.game_on_board import NOT_STARTED
from reedboard_relay.pairings import Pairing

ON = (0, 4)  # the game played() makes, on its board: the board's first, numbered 4


def played(*sans: str, game_id: int = 4) -> MirroredGame:
    game = Game()
    for text in sans:
        game.push_san(text)
    return MirroredGame(
        game, game_id, clocks={n: (1000 * n, 1000 * n) for n in range(1, len(sans) + 1)}
    )


def test_a_correction_not_yet_taken_back_cuts_the_game_with_a_comment() -> None:
    board = played("e4", "e5", "Nf3", "Nc6", "Bb5")
    cancelled = cancelled_moves(board.game, 4)
    assert cancelled == ("Nc6", "Bb5")
    decisions = Decisions(corrections=(Correction(1, ON, 3, cancelled),))
    shown = shown_game(board, decisions, ON)
    assert shown is not None and shown.game.san_moves() == ["e4", "e5", "Nf3"]
    assert shown.comments == {
        3: "Arbiter: the illegal move 2... Nc6 and 1 later ply cancelled (FIDE 7.5.1); "
        "the position before it reinstated"
    }
    assert set(shown.clocks) == {1, 2, 3}
    assert len(board.game) == 5 and board.comments == {}  # the board's own copy untouched


def test_once_the_board_took_back_the_moves_after_are_the_mainline() -> None:
    board = played("e4", "e5", "Nf3", "d6")  # the board took back to ply 3, then ...d6
    decisions = Decisions(corrections=(Correction(1, ON, 3, ("Nc6",), state="done"),))
    shown = shown_game(board, decisions, ON)
    assert shown is not None and shown.game.san_moves() == ["e4", "e5", "Nf3", "d6"]
    assert shown.comments[3].startswith("Arbiter: the illegal move 2... Nc6 cancelled")
    other_game = Decisions(corrections=(Correction(1, (0, 9), 1, ("e5",)),))
    assert shown_game(board, other_game, ON) is board  # a decision about another game


def test_a_withdrawn_correction_leaves_the_boards_game_as_it_is() -> None:
    board = played("e4", "e5", "Nf3", "Nc6", "Bb5")
    withdrawn = Correction(1, ON, 3, ("Nc6", "Bb5"), state="withdrawn", answer="game over")
    assert shown_game(board, Decisions(corrections=(withdrawn,)), ON) is board
    refused = Decisions(corrections=(Correction(2, ON, 3, ("Nc6", "Bb5"), state="refused"),))
    shown = shown_game(board, refused, ON)  # refused, not withdrawn: the arbiter's cut stands
    assert shown is not None and len(shown.game) == 3


def test_a_withdrawn_correction_is_kept_and_only_the_boards_ack_overrides_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "relay.sqlite"
    store = ArbiterStore(sqlite3.connect(path, isolation_level=None))
    first = store.add_correction("b1", ON, 2, ("Nf3",), "")
    second = store.add_correction("b1", ON, 1, ("e5", "Nf3"), "")
    assert store.answer("b1", first.number, "refused", "the game ended by resignation")
    assert store.answer("b1", first.number, "withdrawn", "the game ended by resignation")
    assert store.answer("b1", second.number, "withdrawn")
    # A refusal heard again (QoS 1 delivers at least once) leaves it withdrawn; the board
    # carrying it out after all (it was offline, the broker kept the command) makes it done.
    assert not store.answer("b1", first.number, "refused", "again")
    assert store.answer("b1", second.number, "done")
    store.db.close()
    again = ArbiterStore(sqlite3.connect(path, isolation_level=None))
    assert [(c.state, c.answer) for c in again.of("b1").corrections] == [
        ("withdrawn", "the game ended by resignation"),
        ("done", ""),
    ]
    again.db.close()


def test_the_arbiters_result_stands_until_undone_and_players_over_the_pairing() -> None:
    board = played("f3", "e5", "g4", "Qh4#")
    board.result, board.reason = "0-1", "checkmate"
    ruling = Decisions(results=(ArbiterResult(ON, "1/2-1/2", "misread"),))
    ruled = shown_game(board, ruling, ON)
    assert ruled is not None and (ruled.result, ruled.reason) == ("1/2-1/2", "adjudication")
    assert ruled.comments[4] == "Arbiter: 1/2-1/2, misread"
    pairing = Pairing(round="3", white="A", black="B", white_elo="2000")
    fixes = (PlayerFix((0, 4), "white", "C"), PlayerFix((0, 4), "black_title", "IM"))
    fixed = shown_pairing(pairing, Decisions(players=fixes), (0, 4))
    assert (fixed.white, fixed.black, fixed.white_elo, fixed.black_title) == (
        "C",
        "B",
        "2000",
        "IM",
    )


def test_the_arbiters_players_belong_to_one_game_on_the_board() -> None:
    pairing = Pairing(round="1", white="Ann", black="Bob")
    # A board without a journal numbers every game 0: its games are told apart by how
    # many it finished before each.
    fixed = Decisions(players=(PlayerFix((0, 0), "white", "Ann Smith"),))
    assert shown_pairing(pairing, fixed, (0, 0)).white == "Ann Smith"
    assert shown_pairing(pairing, fixed, (1, 0)) is pairing  # the board's next game
    # A board with a journal: its next game has a new number, and the count is one more.
    numbered = Decisions(players=(PlayerFix((2, 7), "black", "Rob"),))
    assert shown_pairing(pairing, numbered, (2, 7)).black == "Rob"
    assert shown_pairing(pairing, numbered, (3, 8)) is pairing
    assert shown_pairing(pairing, numbered, (2, 8)) is pairing  # another game, same count


def test_players_fixed_before_the_boards_first_game_are_that_games() -> None:
    early = PlayerFix((0, NOT_STARTED), "white", "Early")
    later = PlayerFix((0, 5), "black", "Later")
    both = Decisions(players=(early, later, PlayerFix((0, 5), "white", "Over")))
    assert both.players_for((0, 5)) == {"white": "Over", "black": "Later"}
    assert Decisions(players=(early,)).players_for((0, 5)) == {"white": "Early"}
    assert Decisions(players=(early,)).players_for((1, 6)) == {}  # not the next game's
    assert Decisions(players=(early,)).players_for((0, NOT_STARTED)) == {"white": "Early"}


def test_decisions_about_a_game_stay_off_the_boards_next_game_of_the_same_number() -> None:
    # A board without a journal numbers every game 0: its second game is (1, 0).
    first, second = (0, 0), (1, 0)
    board = played("e4", "e5", "Nf3", game_id=0)
    decisions = Decisions(
        results=(ArbiterResult(first, "1-0", "forfeit"),),
        corrections=(Correction(1, first, 1, ("e5", "Nf3")),),
        added_times=(AddedTime(1, first, 1, False, 120_000),),
    )
    assert shown_game(board, decisions, second) is board
    shown = shown_game(board, decisions, first)
    assert shown is not None and (shown.result, shown.game.san_moves()) == ("1-0", ["e4"])
