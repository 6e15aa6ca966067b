"""How long a capture doubted as a knock waits (`knock_wait_ms`), and what decides it
sooner. The pawn on e4 in the hand, the d5 pawn knocked and back within KNOCK_MS: the
sensors of exd5 swapped in one motion. By default the board holds that capture until the
opponent lifts a piece, until another change settles it, or until knock_wait_ms (1.5 s)
of stillness; the pawn set down on e5 meanwhile makes it e4-e5, and the host sees only
that move. A board may set knock_wait_ms as short as settle_ms (FAST): such a capture is
then made after settle_ms of stillness, and a pawn set down on e5 later takes it back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.events import MoveMade, TakenBack
from reedboard.link.event_codec import effect_json
from reedboard.reader.move_reader import ARRIVE_MS, DEFAULT_KNOCK_WAIT_MS, DEFAULT_SETTLE_MS
from reedboard.replay.runner import Replay
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square

from tests.reader.support import kinds, moves, replay, steps

BOTH = pytest.mark.parametrize("mode", ["casual", "strict"])
# 1.e4 d5 2.Nf3 e6: White's e4 pawn can take d5 or go to e5.
OPENING = (
    "lift e2, +300 place e4; lift d7, +300 place d5; lift g1, +300 place f3; lift e7, +300 place e6"
)
BEFORE = ["e2e4", "d7d5", "g1f3", "e7e6"]
KNOCK = "lift e4, +200 lift d5, +90 place d5"  # d5 back 90 ms after the knock
SWAP = "lift e4, +200 lift d5, +40 place d5"  # exd5 in one motion
DEBOUNCE_MS = 12  # the debouncer reports a change this long after its first edge
FAST = DEFAULT_SETTLE_MS  # the shortest knock wait a board may set
CASES = Path(__file__).parent / "cases"


def last_time(body: str, ending: str) -> int:
    return [int(line.split()[0]) for line in body.splitlines() if line.endswith(ending)][-1]


def made_at(effects: list[dict[str, Any]], uci: str) -> int:
    return int(next(e["t_ms"] for e in effects if e["event"] == "move" and e["uci"] == uci))


@BOTH
@pytest.mark.parametrize(
    "pause_ms",
    [60, 150, DEFAULT_SETTLE_MS - 60, DEFAULT_SETTLE_MS + 50, 800, DEFAULT_KNOCK_WAIT_MS - 100],
)
def test_a_placement_within_the_knock_wait_reaches_the_host_only_as_its_move(
    mode: str, pause_ms: int
) -> None:
    body = steps(f"{OPENING}; {KNOCK}, +{pause_ms} place e5; lift b8, +300 place c6", gap_ms=0)
    effects = replay(body, mode=mode)
    assert moves(effects) == [*BEFORE, "e4e5", "b8c6"]
    assert "takeback" not in kinds(effects)
    assert "illegal" not in kinds(effects) and "violation" not in kinds(effects)
    # Made once no lift has come to make the placement Black's piece arriving first.
    assert made_at(effects, "e4e5") == last_time(body, "place e5") + ARRIVE_MS


@BOTH
@pytest.mark.parametrize("name", ["swapped in one motion", "knocked, or brisk"])
def test_a_capture_swapped_fast_is_made_at_the_opponents_first_lift(mode: str, name: str) -> None:
    white = SWAP if name == "swapped in one motion" else KNOCK
    body = steps(f"{OPENING}; {white}, +600 lift g8, +300 place f6", gap_ms=0)
    effects = replay(body, mode=mode)
    assert moves(effects) == [*BEFORE, "e4d5", "g8f6"]
    assert made_at(effects, "e4d5") == last_time(body, "lift g8") + DEBOUNCE_MS
    assert "takeback" not in kinds(effects)


@BOTH
def test_a_fast_swap_capture_is_made_after_knock_wait_of_stillness(mode: str) -> None:
    body = steps(f"{OPENING}; {SWAP}, +4000 lift g8, +300 place f6", gap_ms=0)
    effects = replay(body, mode=mode)
    assert moves(effects) == [*BEFORE, "e4d5", "g8f6"]
    # Stillness counts from the switch's first edge.
    assert made_at(effects, "e4d5") == last_time(body, "place d5") + DEFAULT_KNOCK_WAIT_MS


@BOTH
@pytest.mark.parametrize("name", ["swapped in one motion", "knocked, or brisk"])
def test_with_the_fast_setting_a_capture_swapped_fast_is_made_after_settle_ms(
    mode: str, name: str
) -> None:
    """With knock_wait_ms = settle_ms it waits no longer than a move that may grow,
    measured from the capture's own last change."""
    white = SWAP if name == "swapped in one motion" else KNOCK
    body = steps(f"{OPENING}; {white}, +600 lift g8, +300 place f6", gap_ms=0)
    effects = replay(body, mode=mode, knock_wait_ms=FAST)
    assert moves(effects) == [*BEFORE, "e4d5", "g8f6"]
    # Stillness counts from the switch's first edge.
    assert made_at(effects, "e4d5") == last_time(body, "place d5") + DEFAULT_SETTLE_MS
    assert "takeback" not in kinds(effects)


@BOTH
def test_a_fast_swap_capture_is_made_at_an_opponents_lift_within_the_settle_time(
    mode: str,
) -> None:
    body = steps(f"{OPENING}; {SWAP}, +150 lift g8, +300 place f6", gap_ms=0)
    effects = replay(body, mode=mode)
    assert moves(effects) == [*BEFORE, "e4d5", "g8f6"]
    assert made_at(effects, "e4d5") == last_time(body, "lift g8") + DEBOUNCE_MS
    assert "takeback" not in kinds(effects)


@BOTH
def test_a_capture_taken_up_again_by_the_opponent_at_once_is_made_at_the_recapturers_lift(
    mode: str,
) -> None:
    # Black takes the capturer first (d5 lifted), then lifts the queen that retakes.
    body = steps(f"{OPENING}; {SWAP}, +100 lift d5, +100 lift d8, +300 place d5", gap_ms=0)
    effects = replay(body, mode=mode)
    assert moves(effects) == [*BEFORE, "e4d5", "d8d5"]
    assert made_at(effects, "e4d5") == last_time(body, "lift d8") + DEBOUNCE_MS
    assert "takeback" not in kinds(effects) and "illegal" not in kinds(effects)


@BOTH
@pytest.mark.parametrize(
    ("knock_wait_ms", "pause_ms"),
    [(None, DEFAULT_KNOCK_WAIT_MS + 500)]
    + [(FAST, pause) for pause in (DEFAULT_SETTLE_MS + 50, 800, 1400, 2000)],
)
def test_a_placement_after_the_knock_wait_amends_the_capture(
    mode: str, knock_wait_ms: int | None, pause_ms: int
) -> None:
    # Past knock_wait_ms the capture has reached the host (the cost of the fast setting,
    # FAST, for a pause the default covers): the pawn set down on e5 then still shows it
    # was a knock, and the board takes the capture back.
    body = steps(f"{OPENING}; {KNOCK}, +{pause_ms} place e5; lift b8, +300 place c6", gap_ms=0)
    effects = replay(body, mode=mode, knock_wait_ms=knock_wait_ms)
    assert moves(effects) == [*BEFORE, "e4d5", "e4e5", "b8c6"]
    assert [e["uci"] for e in effects if e["event"] == "takeback"] == ["e4d5"]
    assert "illegal" not in kinds(effects) and "violation" not in kinds(effects)


@BOTH
@pytest.mark.parametrize("knock_wait_ms", [FAST, 500, 3000])
def test_knock_wait_is_the_boards_to_choose(mode: str, knock_wait_ms: int) -> None:
    """A board that would rather not wait (the host, an engine, a broadcast and the voice
    hear a brisk capture sooner) accepts a knocked neighbour taken back now and then; one
    that would rather wait holds such captures longer."""
    run = Replay(
        Game(), mode="strict" if mode == "strict" else "casual", knock_wait_ms=knock_wait_ms
    )
    body = steps(f"{OPENING}; {SWAP}", gap_ms=0)
    for line in body.splitlines():
        t, action, square = line.split()
        run.sensor(parse_square(square), action == "place", int(t))
    run.finish(last_time(body, "place d5") + 5000)
    effects = [effect_json(e) for e in run.effects]
    assert made_at(effects, "e4d5") == last_time(body, "place d5") + knock_wait_ms


@BOTH
def test_a_longer_knock_wait_keeps_a_late_placement_from_the_host(mode: str) -> None:
    run = Replay(Game(), mode="strict" if mode == "strict" else "casual", knock_wait_ms=1500)
    body = steps(f"{OPENING}; {KNOCK}, +800 place e5; lift b8, +300 place c6", gap_ms=0)
    for line in body.splitlines():
        t, action, square = line.split()
        run.sensor(parse_square(square), action == "place", int(t))
    run.finish(last_time(body, "place c6") + 2000)
    effects = [effect_json(e) for e in run.effects]
    assert [e["uci"] for e in effects if e["event"] == "move"] == [*BEFORE, "e4e5", "b8c6"]
    assert "takeback" not in [e["event"] for e in effects]


@pytest.mark.parametrize("knock_wait_ms", [FAST, None, 1500])
def test_the_recorded_queen_set_down_late_takes_the_capture_back_unless_the_wait_covers_it(
    knock_wait_ms: int | None,
) -> None:
    """The recorded case's queen is set down 1.17 s after the knight is back: past the
    default wait (1 s) and the fast setting's, Qxb8 has been made by then, and so has
    Bb7 seen arriving first after it (the host has the capture: the reply goes out as it
    rests); taking the other reading takes both back first (the game the same in the
    end); a board that waits 1.5 s sends no capture at all."""
    text = (CASES / "knock-then-a-bishop-set-down-far-off.events").read_text()
    effects = replay(text, knock_wait_ms=knock_wait_ms)
    if knock_wait_ms == 1500:
        assert moves(effects) == ["a8b7", "a6d3"]
        assert "takeback" not in kinds(effects)
        return
    assert moves(effects) == ["a8b8", "a6b7", "a8b7", "a6d3"]
    assert [e["uci"] for e in effects if e["event"] == "takeback"] == ["a6b7", "a8b8"]


@BOTH
@pytest.mark.parametrize("knock_wait_ms", [FAST, None])
def test_after_an_amended_capture_the_mover_is_charged_up_to_the_real_move(
    mode: str, knock_wait_ms: int | None
) -> None:
    """The capture reached the host and was amended to e4-e5: White's hand was on the
    move all along, so White's time runs until the pawn is on e5, and Black's, given back
    by the takeback, only from then."""
    body = steps(f"{OPENING}; {KNOCK}, +2000 place e5; +3000 lift b8, +300 place c6", gap_ms=0)
    run = Replay(
        Game(),
        mode="strict" if mode == "strict" else "casual",
        knock_wait_ms=DEFAULT_KNOCK_WAIT_MS if knock_wait_ms is None else knock_wait_ms,
        clock=parse_time_control("5+3"),
    )
    for line in body.splitlines():
        t, action, square = line.split()
        run.sensor(parse_square(square), action == "place", int(t))
    run.finish(last_time(body, "place c6") + 2000)
    made = {e.uci: e for e in run.effects if isinstance(e, MoveMade)}
    assert [e.uci for e in run.effects if isinstance(e, TakenBack)] == ["e4d5"]
    assert made["e4e5"].clock is not None and made["e7e6"].clock is not None
    white_before, black_before = made["e7e6"].clock
    black_done = last_time(body, "place e6") + DEBOUNCE_MS
    white_done = last_time(body, "place e5") + DEBOUNCE_MS
    increment = 3000
    assert made["e4e5"].clock == (
        white_before - (white_done - black_done) + increment,
        black_before,
    )
    knight_done = last_time(body, "place c6") + DEBOUNCE_MS
    assert made["b8c6"].clock == (
        made["e4e5"].clock[0],
        black_before - (knight_done - white_done) + increment,
    )
