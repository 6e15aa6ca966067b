"""Changes seen in the same scan are simultaneous: the order the debouncer hands them on
(by square number) must not decide touch-move.

FIDE 4.4.1: king and rook touched together, castle on that side; 4.3.3: where it cannot
be told whether an own or an opponent's piece was touched first, the own piece counts as
first. The same on both wings and for both colours, in both modes."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.board_game import BoardGame, Settings
from reedboard.link.event_codec import effect_json
from reedboard.reader.mode import Mode
from reedboard.replay.runner import Replay
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square

STANDARD = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R {side} KQkq - 0 1"
# Chess960: king on e1/e8, rooks on b- and g-files. Queen side: king to c, rook to d;
# king side: king to g (where the rook stands), rook to f.
CHESS960 = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 {side} GBgb - 0 1"

Event = tuple[int, str, str]


def run(fen: str, events: list[Event], mode: Mode, *, chess960: bool = False) -> list[Any]:
    """Feed timed raw changes (each held long past the debounce) and let everything due
    be decided."""
    replay = Replay(Game(Position.from_fen(fen, chess960=chess960)), mode=mode)
    for t_ms, action, square in events:
        replay.sensor(parse_square(square), action == "place", t_ms)
    replay.finish(events[-1][0])
    return [effect_json(e) for e in replay.effects]


def moves(effects: list[Any]) -> list[str]:
    return [e["uci"] for e in effects if e["event"] == "move"]


def violations(effects: list[Any]) -> list[tuple[str, str]]:
    return [(e["rule"], e["square"]) for e in effects if e["event"] == "violation"]


# (variant, side, wing) -> king from, rook from, king to, rook to, expected uci
CASTLINGS = {
    ("standard", "w", "queen"): ("e1", "a1", "c1", "d1", "e1c1"),
    ("standard", "w", "king"): ("e1", "h1", "g1", "f1", "e1g1"),
    ("standard", "b", "queen"): ("e8", "a8", "c8", "d8", "e8c8"),
    ("standard", "b", "king"): ("e8", "h8", "g8", "f8", "e8g8"),
    ("chess960", "w", "queen"): ("e1", "b1", "c1", "d1", "e1b1"),
    ("chess960", "w", "king"): ("e1", "g1", "g1", "f1", "e1g1"),
    ("chess960", "b", "queen"): ("e8", "b8", "c8", "d8", "e8b8"),
    ("chess960", "b", "king"): ("e8", "g8", "g8", "f8", "e8g8"),
}


@pytest.mark.parametrize("places", ["together", "king-first", "rook-first"])
@pytest.mark.parametrize("mode", ["casual", "strict"])
@pytest.mark.parametrize("key", list(CASTLINGS), ids=lambda k: "-".join(k))
def test_king_and_rook_lifted_in_one_scan_castle_on_that_side(
    key: tuple[str, str, str], mode: Mode, places: str
) -> None:
    variant, side, _wing = key
    king_from, rook_from, king_to, rook_to, uci = CASTLINGS[key]
    fen = (CHESS960 if variant == "chess960" else STANDARD).format(side=side)
    events: list[Event] = [(1000, "lift", king_from), (1000, "lift", rook_from)]
    if places == "together":
        events += [(1400, "place", king_to), (1400, "place", rook_to)]
    elif places == "king-first":
        events += [(1400, "place", king_to), (1900, "place", rook_to)]
    else:
        events += [(1400, "place", rook_to), (1900, "place", king_to)]
    effects = run(fen, events, mode, chess960=variant == "chess960")
    assert violations(effects) == []
    assert moves(effects) == [uci]


@pytest.mark.parametrize("side", ["w", "b"])
def test_rook_then_king_in_separate_scans_is_still_4_4b(side: str) -> None:
    """Only a true tie is unordered: a rook touched a scan earlier forbids castling."""
    king, rook, king_to, rook_to = (
        ("e1", "a1", "c1", "d1") if side == "w" else ("e8", "a8", "c8", "d8")
    )
    events: list[Event] = [
        (1000, "lift", rook),
        (1005, "lift", king),
        (1400, "place", king_to),
        (1400, "place", rook_to),
    ]
    effects = run(STANDARD.format(side=side), events, "strict")
    assert ("4.4b", rook) in violations(effects)
    assert moves(effects) == []


# Touch-move with an own and an opponent's piece lifted in one scan.
AFTER_E4_D5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"


def test_own_and_opponent_piece_in_one_scan_capture_with_it() -> None:
    # e4 (square 28) and d5 (35) lifted together; then exd5.
    effects = run(
        AFTER_E4_D5,
        [(1000, "lift", "d5"), (1000, "lift", "e4"), (1400, "place", "d5")],
        "strict",
    )
    assert violations(effects) == []
    assert moves(effects) == ["e4d5"]


def test_own_piece_in_the_same_scan_as_an_opponent_piece_counts_as_touched_first() -> None:
    """g1 and d5 together: no capture of d5 with the knight, so the own piece binds (the
    order cannot be told): the knight must move, and Nf3 is allowed."""
    effects = run(
        AFTER_E4_D5,
        [(1000, "lift", "g1"), (1000, "lift", "d5"), (1100, "place", "d5"), (1400, "place", "f3")],
        "strict",
    )
    assert violations(effects) == []
    assert moves(effects) == ["g1f3"]


AFTER_E4_D5_NC3 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 2"


def test_a_same_scan_opponent_piece_does_not_free_the_own_piece() -> None:
    """Black lifts g8 and e4 in one scan (e4 has the lower number, so it comes out of
    the debouncer first), puts both back, then plays Nc6: the knight on g8 counts as
    touched first (4.3.3) and can move, so it must."""
    effects = run(
        AFTER_E4_D5_NC3,
        [
            (1000, "lift", "e4"),
            (1000, "lift", "g8"),
            (1100, "place", "e4"),
            (1100, "place", "g8"),
            (1400, "lift", "b8"),
            (1700, "place", "c6"),
        ],
        "strict",
    )
    assert violations(effects) == [("4.3a", "g8")]
    assert moves(effects) == []


def test_two_own_pieces_in_one_scan_either_may_move() -> None:
    """b1 and g1 together: which was first cannot be told, so either knight may move."""
    start = Position.standard().fen()
    for square, target, uci in (("b1", "c3", "b1c3"), ("g1", "f3", "g1f3")):
        other = "g1" if square == "b1" else "b1"
        effects = run(
            start,
            [
                (1000, "lift", "b1"),
                (1000, "lift", "g1"),
                (1100, "place", other),
                (1400, "place", target),
            ],
            "strict",
        )
        assert violations(effects) == [], square
        assert moves(effects) == [uci], square


@pytest.mark.parametrize("side", ["w", "b"])
def test_a_scan_loop_sees_king_and_queen_rook_leave_together(side: str) -> None:
    """The board's own path: full scans every 5 ms through the debouncer. King and
    queen's rook leave between two scans, so they come out with one time, and strict
    mode castles long."""
    position = Position.from_fen(STANDARD.format(side=side))
    board_game = BoardGame(Game(position), position.occupied, Settings(mode="strict"))
    king, rook, king_to, rook_to = (
        ("e1", "a1", "c1", "d1") if side == "w" else ("e8", "a8", "c8", "d8")
    )
    board = position.occupied
    timeline = {
        1000: [king, rook],  # both open in the same scan
        1400: [king_to],
        1600: [rook_to],
    }
    effects = []
    for now in range(0, 5000, 5):
        for name in timeline.get(now, []):
            board ^= 1 << parse_square(name)
        effects += [effect_json(e) for e in board_game.scan(board, now)]
    assert violations(effects) == []
    assert moves(effects) == [f"{king}{king_to}"]
