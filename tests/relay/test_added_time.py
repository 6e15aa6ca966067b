"""Time the arbiter added to a clock, as the relay keeps it and the broadcast says it:
pure, and the arbiter's store on a real SQLite file."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest
from reedboard.rules.game import Game
from reedboard_host.mirror import MirroredGame
from reedboard_relay.added_time import AddedTime, amount_words, minutes_in_ms
from reedboard_relay.arbiter_store import ArbiterStore
from reedboard_relay.corrections import Correction, Decisions, shown_game

ON = (0, 4)  # the game played() makes, on its board: the board's first, numbered 4


def played(*sans: str, game_id: int = 4) -> MirroredGame:
    game = Game()
    for text in sans:
        game.push_san(text)
    return MirroredGame(game, game_id, time_control="5+0")


@pytest.mark.parametrize(
    ("ms", "words"),
    [
        (120_000, "two minutes"),
        (60_000, "one minute"),
        (90_000, "one minute and 30 seconds"),
        (30_000, "30 seconds"),
        (1_000, "one second"),
        (600_000, "10 minutes"),
        (1_500, "1.5 seconds"),
    ],
)
def test_the_amount_in_words(ms: int, words: str) -> None:
    assert amount_words(ms) == words


def test_the_comment_names_the_player_and_the_note() -> None:
    added = AddedTime(1, ON, 3, False, 120_000, "FIDE 7.5.5")
    assert added.comment() == "Arbiter: two minutes added to Black's clock (FIDE 7.5.5)"
    assert (
        AddedTime(2, ON, 3, True, 30_000).comment() == "Arbiter: 30 seconds added to White's clock"
    )


def test_minutes_are_read_strictly() -> None:
    assert minutes_in_ms(2) == 120_000
    assert minutes_in_ms(0.5) == 30_000
    assert minutes_in_ms(60) == 3_600_000
    for bad in (0, -1, 60.5, math.nan, math.inf, True, "2", None, [2]):
        with pytest.raises(ValueError, match="minutes"):
            minutes_in_ms(bad)


def test_the_broadcast_shows_a_comment_at_the_ply_no_variation() -> None:
    board = played("e4", "e5", "Nf3", "Nc6")
    decisions = Decisions(added_times=(AddedTime(1, ON, 3, False, 120_000, "FIDE 7.5.5"),))
    shown = shown_game(board, decisions, ON)
    assert shown is not None and shown.game.san_moves() == ["e4", "e5", "Nf3", "Nc6"]
    assert shown.comments == {3: "Arbiter: two minutes added to Black's clock (FIDE 7.5.5)"}
    assert board.comments == {}  # the board's own copy untouched
    refused = Decisions(added_times=(AddedTime(1, ON, 3, False, 120_000, state="refused"),))
    assert shown_game(board, refused, ON) is board  # the board did not add it: nothing said
    other_game = Decisions(added_times=(AddedTime(1, (0, 9), 3, False, 120_000),))
    assert shown_game(board, other_game, ON) is board


def test_after_a_correction_at_the_same_ply_both_are_said_in_order() -> None:
    # FIDE 7.5.5 as it happens: the illegal 2.Nf3?? cancelled, then two minutes to Black.
    board = played("e4", "e5", "Nf3")
    decisions = Decisions(
        corrections=(Correction(1, ON, 2, ("Nf3",)),),
        added_times=(AddedTime(1, ON, 2, False, 120_000, "FIDE 7.5.5"),),
    )
    shown = shown_game(board, decisions, ON)
    assert shown is not None and shown.game.san_moves() == ["e4", "e5"]
    assert shown.comments[2].endswith(
        "reinstated; Arbiter: two minutes added to Black's clock (FIDE 7.5.5)"
    )


def test_the_store_keeps_it_and_the_boards_answer(tmp_path: Path) -> None:
    path = tmp_path / "relay.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    store = ArbiterStore(db)
    made = store.add_time("b1", ON, 3, False, 120_000, "FIDE 7.5.5")
    store.add_time("b2", (0, 7), 0, True, 60_000, "")
    assert store.answer_time("b1", made.number, "done")
    assert not store.answer_time("b1", made.number, "done")  # nothing changed
    assert not store.answer_time("b1", 99, "refused", "no such")
    db.close()
    again = ArbiterStore(sqlite3.connect(path, isolation_level=None))
    assert again.of("b1").added_times == (
        AddedTime(made.number, ON, 3, False, 120_000, "FIDE 7.5.5", "done"),
    )
    assert [a.white for a in again.of("b2").added_times] == [True]
    again.db.close()
