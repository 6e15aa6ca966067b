"""The reply after a capture that may have been a knock put back by hand: the capture was
made after `settle_ms` (its victim's square empty 250 ms or more while the capturer was
in the hand), and the opponent's piece is then seen arriving before it is seen leaving on
a square the capturer could have reached. The capture and the reply read so, and the
knock's reading (the capturer set down there, the opponent's hand lifting at once) is
followed alongside; the capture has reached the host already, so the reply goes out as
its own rules allow, and the knock's reading, if a placement shows it was the game, takes
both back."""

from __future__ import annotations

from typing import Any

import pytest
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.events import MoveMade, TakenBack
from reedboard.reader.waits import DEFAULT_SETTLE_MS, RELAND_MS
from reedboard.replay.runner import Replay
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square

from tests.reader.support import kinds, moves, replay

BOTH = pytest.mark.parametrize("mode", ["casual", "strict"])
# Black's knight on c3 can take the e2 pawn (check) or go to b1, next to White's king.
FEN = "2krb3/2pp4/8/1P2pp1p/7P/2nP4/2P1P3/2K5 b - - 0 26"
HEADER = f"@start fen {FEN}"
# Nxe2+ with the e2 pawn up 400 ms (a knock righted by hand looks the same), made after
# settle_ms; then White's king steps c1-b1, b1's switch closing 20 ms before c1 opens.
CAPTURE = "1000 lift c3\n1300 lift e2\n1700 place e2\n"
REPLY = "2500 place b1\n2520 lift c1\n"
DEBOUNCE_MS = 12  # the debouncer reports a change this long after its first edge


def made_at(effects: list[dict[str, Any]], uci: str) -> int:
    return int(next(e["t_ms"] for e in effects if e["event"] == "move" and e["uci"] == uci))


@BOTH
def test_the_reply_arriving_first_is_made_as_soon_as_it_rests(mode: str) -> None:
    effects = replay(CAPTURE + REPLY + "6000 lift e2\n6300 place f4\n", header=HEADER, mode=mode)
    assert moves(effects) == ["c3e2", "c1b1", "e2f4"]
    assert "takeback" not in kinds(effects) and "illegal" not in kinds(effects)
    assert made_at(effects, "c3e2") == 1700 + DEFAULT_SETTLE_MS
    # From the reply's own last change (c1 opening), no later than a move at rest.
    assert made_at(effects, "c1b1") - 2520 <= RELAND_MS


@BOTH
def test_the_reply_goes_out_before_the_next_move_starts(mode: str) -> None:
    # Black's knight lifted 700 ms after the king: the reply was out long before.
    effects = replay(CAPTURE + REPLY + "3220 lift e2\n3600 place f4\n", header=HEADER, mode=mode)
    assert moves(effects) == ["c3e2", "c1b1", "e2f4"]
    assert made_at(effects, "c1b1") < 3220


@BOTH
def test_the_knocks_reading_shown_later_takes_back_the_capture_and_the_reply(mode: str) -> None:
    # The king lifted at once is White's fast reply to Nb1, and is set on d1: only the
    # knock's reading explains that (Nb1, Kd1), after taking back what the host heard.
    body = CAPTURE + REPLY + "3000 place d1\n"
    effects = replay(body, header=HEADER, mode=mode)
    kept: list[str] = []
    for effect in effects:
        if effect["event"] == "move":
            kept.append(effect["uci"])
        elif effect["event"] == "takeback":
            assert kept and kept[-1] == effect["uci"]
            kept.pop()
    assert kept == ["c3b1", "c1d1"]
    assert "illegal" not in kinds(effects)


@BOTH
def test_the_replys_clock_stops_when_the_king_leaves_its_square(mode: str) -> None:
    """FIDE: a move's time runs until it is complete; the king arriving first is
    complete when c1 opens, not when b1 closes (Black's knight then moving at once: the
    king's move was once decided only with it, and charged to b1's closing)."""
    run = Replay(
        Game(Position.from_fen(FEN)),
        mode="strict" if mode == "strict" else "casual",
        clock=parse_time_control("5+0"),
    )
    for line in (CAPTURE + REPLY + "3220 lift e2\n3600 place f4\n").splitlines():
        t, action, square = line.split()
        run.sensor(parse_square(square), action == "place", int(t))
    run.finish(9000)
    assert not any(isinstance(e, TakenBack) for e in run.effects)
    made = {e.uci: e for e in run.effects if isinstance(e, MoveMade)}
    capture, reply = made["c3e2"].clock, made["c1b1"].clock
    assert capture is not None and reply is not None
    white_spent = capture[0] - reply[0]
    assert white_spent == (2520 + DEBOUNCE_MS) - (1700 + DEBOUNCE_MS)
