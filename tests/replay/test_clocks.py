"""The contract's clock cases, replayed through the board's own game, exact to the ms:
`@clock`, `press` lines, the `clock` field of every move, the `clock` effect of a press
and the flag (docs/examples has a timed script too)."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.board_game import BoardGame, Settings
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.errors import ScriptError
from reedboard.link.event_codec import effect_json
from reedboard.link.messages import StartGame
from reedboard.replay.runner import replay_script
from reedboard.replay.script import parse_script
from reedboard.rules.game import Game

SHOWN = ("move", "clock", "game_over", "takeback", "new_game")


def timeline(text: str) -> list[tuple[Any, ...]]:
    """The replay's moves, presses and ends: (event, t_ms, what it says of the time)."""
    out: list[tuple[Any, ...]] = []
    for effect in replay_script(parse_script(text)):
        data = effect_json(effect)
        if data["event"] not in SHOWN:
            continue
        if data["event"] == "move":
            clock = data["clock"]
            out.append(("move", data["t_ms"], data["uci"], clock["white_ms"], clock["black_ms"]))
        elif data["event"] == "clock":
            out.append(("clock", data["t_ms"], data["white_ms"], data["black_ms"]))
        elif data["event"] == "game_over":
            out.append(("game_over", data["t_ms"], data["result"], data["reason"]))
        else:
            out.append((data["event"], data["t_ms"]))
    return out


CASES = {
    "increment, added when the time stops": (
        """@clock 5+3
        1000 lift e2
        1400 place e4
        2500 lift e7
        2900 place e5
        """,
        [("move", 1550, "e2e4", 301_600, 300_000), ("move", 3050, "e7e5", 301_600, 301_500)],
    ),
    "the settle wait is not charged": (
        # The bishop could still go on: the move waits settle_ms (300) to be decided, and
        # White's time stopped at 2400, when the bishop landed.
        """@clock 1+0
        @start fen 4k3/4p3/8/8/8/8/8/4KB2 w - - 0 1
        2000 lift f1
        2400 place c4
        """,
        [("move", 2700, "f1c4", 57_600, 60_000)],
    ),
    "a castling waiting for its rook is not charged": (
        # Rook first: a rook move the king may still turn into castling (castle_wait_ms).
        # White castles, its time stopping as the king lands; Black's rook move waits in
        # vain, and its time stopped when the rook landed.
        """@clock 5+0
        @start fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1
        1000 lift h1
        1400 place f1
        1600 lift e1
        2000 place g1
        5000 lift a8
        5400 place d8
        """,
        [("move", 2150, "e1g1", 298_000, 300_000), ("move", 7400, "a8d8", 298_000, 296_600)],
    ),
    "periods: the next comes with the last move of the one before": (
        # 0.05 min = 3 s for 1 move, then 0.1 min (6 s) more, 1 s a move.
        """@clock 0.05/1:0.1+1
        1000 lift e2
        1400 place e4
        2000 lift e7
        2400 place e5
        3000 lift d2
        3400 place d4
        """,
        [
            ("move", 1550, "e2e4", 3_000 - 1_400 + 1_000 + 6_000, 3_000),
            ("move", 2550, "e7e5", 8_600, 3_000 - 1_000 + 1_000 + 6_000),
            ("move", 3550, "d2d4", 8_600 - 1_000 + 1_000, 9_000),
            ("game_over", 3_400 + 9_000, "1-0", "time"),
        ],
    ),
    "buttons: the press stops the time, a press too early does nothing": (
        """@clock 5+2
        1000 lift e2
        1200 press white
        1400 place e4
        1405 press white
        3000 lift e7
        3500 place e5
        3600 press white
        4000 press black
        4100 press black
        """,
        [
            # The press at 1405 waited for the sensors to settle the pawn's landing: it
            # goes out first, and the move carries the clocks it stopped.
            ("clock", 1405, 300_595, 300_000),
            ("move", 1550, "e2e4", 300_595, 300_000),
            # Black's move tells the times as a press at its completion would leave
            # them, the increment included; the later press charges the wait.
            ("move", 3650, "e7e5", 300_595, 297_905 + 2_000),
            ("clock", 4000, 300_595, 299_405),
        ],
    ),
    "buttons: a move decided before its press carries the increment": (
        """@clock 0.1+1
        1000 lift e2
        1400 place e4
        1700 press white
        """,
        [
            ("move", 1550, "e2e4", 6_000 - 1_400 + 1_000, 6_000),
            ("clock", 1700, 5_300, 6_000),
            ("game_over", 1_700 + 6_000, "1-0", "time"),
        ],
    ),
    "the flag falls at the exact ms, the opponent able to mate": (
        """@clock 0.5+0
        1000 lift e2
        1400 place e4
        31000 lift e7
        """,
        [("move", 1550, "e2e4", 28_600, 30_000), ("game_over", 31_400, "1-0", "time")],
    ),
    "the flag with no mating material on the other side draws": (
        """@clock 0.1+0
        @start fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1
        5000 lift a1
        """,
        [("game_over", 6_000, "1/2-1/2", "time_insufficient_material")],
    ),
    "a lone knight can mate a king with a pawn of its own": (
        """@clock 0.1+0
        @start fen 4k3/4p3/8/8/8/8/8/4K1N1 b - - 0 1
        5000 lift e8
        """,
        [("game_over", 6_000, "1-0", "time")],
    ),
    "a move complete before the flag, decided after it, stops the time": (
        """@clock 0.1+0
        @start fen 4k3/4p3/8/8/8/8/8/4KB2 w - - 0 1
        5000 lift f1
        5900 place c4
        """,
        [("move", 6200, "f1c4", 100, 6_000), ("game_over", 5_900 + 6_000, "1-0", "time")],
    ),
    "a takeback gives the time back as it stood": (
        """@clock 5+3
        1000 lift e2
        1400 place e4
        5000 lift e4
        5400 place e2
        7000 lift d2
        7400 place d4
        """,
        [
            ("move", 1550, "e2e4", 301_600, 300_000),
            ("takeback", 5412),
            ("move", 7550, "d2d4", 298_600 - (7_400 - 5_412) + 3_000, 300_000),
        ],
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_clock_case(name: str) -> None:
    script, expected = CASES[name]
    assert timeline(script) == expected


# The press at 1505 waits for the sensors (Black's hands are busy on e7 and d7): the
# touch of e7, decided at 1512 in the meantime, must not go out before it.
PRESS_AMONG_HANDS = """@clock 5+2
1000 lift e2
1400 place e4
1500 lift e7
1505 press white
1511 lift d7
1515 place d7
2000 place e5
"""


def test_effects_come_out_in_the_order_of_their_times() -> None:
    effects = [effect_json(e) for e in replay_script(parse_script(PRESS_AMONG_HANDS))]
    assert [(e["event"], e["t_ms"]) for e in effects] == [
        ("touch", 1012),
        # e2-e4 waits for the pawn to rest (RELAND_MS); Black's lift at 1500 comes first,
        # and e2-e4, complete on the board, is decided 100 ms after it (SWEEP_MS).
        ("clock", 1505),
        ("touch", 1512),
        ("move", 1600),
        ("move", 2150),
    ]


def test_an_untimed_game_has_no_clock_field() -> None:
    effects = replay_script(parse_script("1000 lift e2\n1400 place e4\n"))
    assert "clock" not in effect_json(effects[-1])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("@clock\n", "@clock takes one time control"),
        ("@clock 5+3 5+3\n", "@clock takes one time control"),
        ("@clock 5++3\n", "line 1: time control"),
        ("@clock 0+0\n", "some time to start"),
        ("1000 press red\n", "press takes white or black"),
    ],
)
def test_bad_clock_lines_are_named(text: str, words: str) -> None:
    with pytest.raises(ScriptError, match=words):
        parse_script(text)


def test_a_new_game_starts_the_clocks_anew() -> None:
    game = Game()
    settings = Settings(time_control=parse_time_control("1+0"))
    board = BoardGame(game, game.position.occupied, settings)
    board.sense(12, False, 1_000)
    board.sense(28, True, 1_400)
    board.advance(20_000)
    assert board.timer is not None and board.timer.left(20_000) == (58_600, 41_400)
    fen = "4k3/8/8/8/8/8/8/R3K3 b - - 0 1"
    answer = board.carry_out(StartGame(fen=fen), 25_000)
    assert [effect_json(e)["event"] for e in answer.effects] == ["new_game"]
    assert board.timer.left(30_000) == (60_000, 55_000)  # Black to move: Black's runs


def test_a_hosts_new_game_with_a_clock_is_timed() -> None:
    game = Game()
    board = BoardGame(game, game.position.occupied)
    assert board.timer is None
    answer = board.carry_out(StartGame(clock="5+3"), 2_000)
    assert [effect_json(e)["event"] for e in answer.effects] == ["new_game"]
    board.sense(12, False, 3_000)
    board.sense(28, True, 3_400)
    moved = board.advance(4_000)
    assert effect_json(moved[-1])["clock"] == {
        "white_ms": 300_000 - 1_400 + 3_000,
        "black_ms": 300_000,
    }
