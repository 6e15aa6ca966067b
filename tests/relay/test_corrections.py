"""The game as the broadcast shows it after the arbiter's decisions: pure, no relay."""

from __future__ import annotations

from reedboard.rules.game import Game
from reedboard_host.mirror import MirroredGame
from reedboard_host.relay.corrections import (
    ArbiterResult,
    Correction,
    Decisions,
    cancelled_moves,
    shown_game,
    shown_pairing,
)
from reedboard_host.relay.pairings import Pairing


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
    decisions = Decisions(corrections=(Correction(1, 4, 3, cancelled),))
    shown = shown_game(board, decisions)
    assert shown is not None and shown.game.san_moves() == ["e4", "e5", "Nf3"]
    assert shown.comments == {
        3: "Arbiter: the illegal move 2... Nc6 and 1 later ply cancelled (FIDE 7.5.1); "
        "the position before it reinstated"
    }
    assert set(shown.clocks) == {1, 2, 3}
    assert len(board.game) == 5 and board.comments == {}  # the board's own copy untouched


def test_once_the_board_took_back_the_moves_after_are_the_mainline() -> None:
    board = played("e4", "e5", "Nf3", "d6")  # the board took back to ply 3, then ...d6
    decisions = Decisions(corrections=(Correction(1, 4, 3, ("Nc6",), state="done"),))
    shown = shown_game(board, decisions)
    assert shown is not None and shown.game.san_moves() == ["e4", "e5", "Nf3", "d6"]
    assert shown.comments[3].startswith("Arbiter: the illegal move 2... Nc6 cancelled")
    other_game = Decisions(corrections=(Correction(1, 9, 1, ("e5",)),))
    assert shown_game(board, other_game) is board  # a decision about another game


def test_the_arbiters_result_stands_until_undone_and_players_over_the_pairing() -> None:
    board = played("f3", "e5", "g4", "Qh4#")
    board.result, board.reason = "0-1", "checkmate"
    ruled = shown_game(board, Decisions(results=(ArbiterResult(4, "1/2-1/2", "misread"),)))
    assert ruled is not None and (ruled.result, ruled.reason) == ("1/2-1/2", "adjudication")
    assert ruled.comments[4] == "Arbiter: 1/2-1/2, misread"
    pairing = Pairing(round="3", white="A", black="B", white_elo="2000")
    fixed = shown_pairing(pairing, Decisions(players=(("white", "C"), ("black_title", "IM"))))
    assert (fixed.white, fixed.black, fixed.white_elo, fixed.black_title) == (
        "C",
        "B",
        "2000",
        "IM",
    )
