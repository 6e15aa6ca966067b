"""How long a finished move that castling may still follow waits (`castle_wait_ms`).

In standard chess the king's castling square is two steps away: a king that stopped one
square along can only go on by sliding (a waypoint rests 20-150 ms), so the step waits
`settle_ms` like any slide. In Chess960 a king's single step can land on its castling
square, and in casual mode a rook may be moved first: those wait for the other piece."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.events import MoveMade
from reedboard.link.event_codec import effect_json
from reedboard.reader.mode import Mode
from reedboard.reader.move_reader import DEFAULT_CASTLE_WAIT_MS, DEFAULT_SETTLE_MS
from reedboard.reader.waits import RELAND_MS
from reedboard.replay.runner import Replay
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square

STANDARD = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R {side} KQkq - 0 1"
# Chess960, king on f1/f8 and rooks on a- and h-files: the king side castling square g1
# is one step away.
CHESS960_F = "r4k1r/pppppppp/8/8/8/8/PPPPPPPP/R4K1R {side} HAha - 0 1"

PLACED = 1400  # the time the last piece is put down in these scripts


def commit(
    fen: str, events: list[tuple[int, str, str]], mode: Mode, *, chess960: bool = False
) -> tuple[str, int]:
    replay = Replay(Game(Position.from_fen(fen, chess960=chess960)), mode=mode)
    for t_ms, action, square in events:
        replay.sensor(parse_square(square), action == "place", t_ms)
    replay.finish(events[-1][0])
    found: list[Any] = [effect_json(e) for e in replay.effects if e.kind == "move"]
    assert len(found) == 1, found
    return found[0]["uci"], found[0]["t_ms"]


def waited(t_ms: int) -> int:
    """How long after the last piece was put down the move was committed (the debouncer
    dates a change from when it first appeared)."""
    return t_ms - PLACED


@pytest.mark.parametrize("mode", ["casual", "strict"])
@pytest.mark.parametrize(
    ("side", "king", "step"),
    [("w", "e1", "f1"), ("w", "e1", "d1"), ("b", "e8", "f8"), ("b", "e8", "d8")],
)
def test_a_standard_king_step_waits_only_the_settle_time(
    side: str, king: str, step: str, mode: Mode
) -> None:
    uci, t_ms = commit(
        STANDARD.format(side=side), [(1000, "lift", king), (PLACED, "place", step)], mode
    )
    assert uci == king + step
    assert waited(t_ms) == DEFAULT_SETTLE_MS


@pytest.mark.parametrize("mode", ["casual", "strict"])
def test_a_standard_king_sliding_on_to_castle_is_still_castling(mode: Mode) -> None:
    """The step's waypoint rests 150 ms, well within the settle time."""
    events = [
        (1000, "lift", "e1"),
        (1100, "place", "f1"),
        (1250, "lift", "f1"),
        (1250, "place", "g1"),
        (1600, "lift", "h1"),
        (1900, "place", "f1"),
    ]
    replay = Replay(Game(Position.from_fen(STANDARD.format(side="w"))), mode=mode)
    for t_ms, action, square in events:
        replay.sensor(parse_square(square), action == "place", t_ms)
    replay.finish(2000)
    assert [e.uci for e in replay.effects if isinstance(e, MoveMade)] == ["e1g1"]


@pytest.mark.parametrize("mode", ["casual", "strict"])
@pytest.mark.parametrize(("side", "king", "step"), [("w", "f1", "g1"), ("b", "f8", "g8")])
def test_a_chess960_king_step_onto_its_castling_square_waits_for_the_rook(
    side: str, king: str, step: str, mode: Mode
) -> None:
    uci, t_ms = commit(
        CHESS960_F.format(side=side),
        [(1000, "lift", king), (PLACED, "place", step)],
        mode,
        chess960=True,
    )
    assert uci == king + step
    assert waited(t_ms) == DEFAULT_CASTLE_WAIT_MS


def test_casual_rook_first_still_waits_for_the_king() -> None:
    uci, t_ms = commit(
        STANDARD.format(side="w"), [(1000, "lift", "h1"), (PLACED, "place", "f1")], "casual"
    )
    assert uci == "h1f1"
    assert waited(t_ms) == DEFAULT_CASTLE_WAIT_MS


def effects_of(fen: str, events: list[tuple[int, str, str]], mode: Mode) -> list[dict[str, Any]]:
    replay = Replay(Game(Position.from_fen(fen)), mode=mode)
    for t_ms, action, square in events:
        replay.sensor(parse_square(square), action == "place", t_ms)
    replay.finish(events[-1][0] + 5000)
    return [effect_json(e) for e in replay.effects if e.kind in ("move", "takeback", "violation")]


@pytest.mark.parametrize(
    ("side", "rook", "rook_to"),
    [("w", "h1", "f1"), ("w", "a1", "d1"), ("b", "h8", "f8"), ("b", "a8", "d8")],
)
def test_strict_rook_first_is_the_rooks_move_made_at_rest(
    side: str, rook: str, rook_to: str
) -> None:
    """FIDE 4.4b: a player who touches the rook first may not castle on that side, so
    the rook on its castling square is a move like any that cannot grow: made once it
    has rested 150 ms, not held for the king."""
    uci, t_ms = commit(
        STANDARD.format(side=side), [(1000, "lift", rook), (PLACED, "place", rook_to)], "strict"
    )
    assert uci == rook + rook_to
    assert waited(t_ms) == RELAND_MS


# White's rook set on f1, then the king lifted 500 ms later and set on g1.
ROOK_THEN_KING = [
    (1000, "lift", "h1"),
    (PLACED, "place", "f1"),
    (1900, "lift", "e1"),
    (2300, "place", "g1"),
]


def test_strict_king_after_the_rook_is_a_violation_not_castling() -> None:
    found = effects_of(
        STANDARD.format(side="w"),
        ROOK_THEN_KING,
        "strict",
    )
    assert [(e["event"], e.get("uci"), e.get("rule")) for e in found] == [
        ("move", "h1f1", None),
        ("violation", None, "4.4b"),
    ]


def test_casual_rook_first_then_the_king_sends_castling_alone() -> None:
    """Why casual mode holds the rook: the king lifted 500 ms after the rook is set down
    makes castling, and the host, an engine or a broadcast never hears of Rf1 (sending
    the rook move at rest would make it `move h1f1`, `takeback`, `move e1g1`)."""
    found = effects_of(
        STANDARD.format(side="w"),
        ROOK_THEN_KING,
        "casual",
    )
    assert [(e["event"], e.get("uci")) for e in found] == [("move", "e1g1")]
