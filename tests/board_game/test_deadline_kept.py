"""`BoardGame.next_deadline` is kept between changes to the game (the board's loop asks it
a few times a turn): at every question, in every script the replay and the board's loop
play, the kept answer is the one worked out afresh from the game as it stands. A change
that forgot to drop it would show here as a deadline kept from before."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from reedboard.board_game import BoardGame, Settings
from reedboard.chess_clock.game_timer import GameTimer
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.replay.runner import replay_script
from reedboard.replay.script import parse_script
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square
from reedboard.sim.whole_games import random_game_script

from tests.app.test_board_is_the_replay import on_the_board

START = Position.standard().occupied
E2, E4 = 1 << parse_square("e2"), 1 << parse_square("e4")
ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(
    [
        *(ROOT / "docs" / "examples").glob("*.events"),
        *(ROOT / "tests" / "reader" / "cases").glob("*.events"),
        *(ROOT / "tests" / "replay").glob("*.events"),
    ]
)


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every kept deadline compared with a fresh one; returns how many were asked."""
    asked = [0]
    kept = BoardGame.next_deadline

    def next_deadline(self: BoardGame) -> int | None:
        answer = kept(self)
        assert answer == self._deadline(), "a deadline kept across a change to the game"
        asked[0] += 1
        return answer

    monkeypatch.setattr(BoardGame, "next_deadline", next_deadline)
    return asked


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_the_kept_deadline_is_the_fresh_one(path: Path, checked: list[int]) -> None:
    text = path.read_text(encoding="utf-8")
    assert replay_script(parse_script(text))
    assert on_the_board(text)
    assert checked[0] > 0


@pytest.mark.parametrize("seed", range(4))
def test_the_kept_deadline_is_the_fresh_one_in_whole_games(seed: int, checked: list[int]) -> None:
    text = random_game_script(seed, max_plies=60).text()
    assert replay_script(parse_script(text))
    assert on_the_board(text)
    assert checked[0] > 0


def timed_board(buttons: bool) -> BoardGame:
    settings = Settings(time_control=parse_time_control("1+0"), clock_buttons=buttons)
    return BoardGame(Game(), START, settings, rng=random.Random(1))


def test_a_press_moves_the_kept_flag_to_the_other_player() -> None:
    board = timed_board(buttons=True)
    board.scan(START & ~E2, 1_000)
    board.scan(START & ~E2 | E4, 1_300)
    board.advance(3_000)
    assert board.next_deadline() == 60_000  # White's time runs until the press
    board.press(True, 3_000)
    assert board.next_deadline() == 63_000  # Black's, from the press


def test_a_timer_set_from_outside_is_the_kept_flag() -> None:
    board = timed_board(buttons=False)
    assert board.next_deadline() == 60_000
    board.timer = GameTimer(parse_time_control("3+0"), 0)  # as a resumed game's
    assert board.next_deadline() == 180_000
