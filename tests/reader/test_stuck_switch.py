"""A switch stuck open or closed during a game makes no edge: the board shows a mismatch
that one square alone keeps up. After STUCK_MS of stillness the square is left out with
the state the game says, the host is told and the game goes on."""

from __future__ import annotations

from typing import Any

from reedboard.lights.scenes import scene_roles
from reedboard.link.event_codec import effect_json
from reedboard.reader.move_reader import STUCK_MS
from reedboard.reader.waits import RELAND_MS
from reedboard.replay.runner import Replay
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square


def play(lines: list[tuple[int, str, str]], until: int, mode: str = "casual") -> Replay:
    replay = Replay(Game(), mode="strict" if mode == "strict" else "casual")
    for t_ms, action, square in lines:
        replay.sensor(parse_square(square), action == "place", t_ms)
    replay.advance(until)
    return replay


def events(replay: Replay) -> list[dict[str, Any]]:
    return [effect_json(e) for e in replay.effects if e.kind != "touch"]


def test_a_switch_stuck_closed_under_the_moved_pawn() -> None:
    """e2's switch is welded: the pawn's lift is never seen, only its arrival on e4."""
    replay = play([(1000, "place", "e4")], 1000 + 2300 + STUCK_MS)
    found = events(replay)
    assert [e["event"] for e in found] == ["illegal", "sensor", "restored", "move"]
    assert found[0]["extra"] == ["e4"]
    assert (found[1]["square"], found[1]["fault"], found[1]["occupied"]) == ("e2", "stuck", False)
    assert found[-1]["uci"] == "e2e4"
    assert scene_roles(replay.arbiter.view())[parse_square("e2")] == "fault"
    # The game goes on; black's reply is read as usual.
    t = 1000 + 2300 + STUCK_MS
    replay.sensor(parse_square("e7"), False, t + 100)
    replay.sensor(parse_square("e5"), True, t + 400)
    replay.finish(t + 400)
    assert [e["uci"] for e in events(replay) if e["event"] == "move"] == ["e2e4", "e7e5"]


def test_a_switch_stuck_open_under_a_standing_rook() -> None:
    """a1 opens for good with the rook still on it; white then plays e4."""
    lines = [(1000, "lift", "a1"), (5000, "lift", "e2"), (5400, "place", "e4")]
    replay = play(lines, 5400 + 300 + STUCK_MS + RELAND_MS + 10)
    found = events(replay)
    assert [e["event"] for e in found if e["event"] != "illegal"] == ["sensor", "restored", "move"]
    sensor = next(e for e in found if e["event"] == "sensor")
    assert (sensor["square"], sensor["fault"], sensor["occupied"]) == ("a1", "stuck", True)
    assert [e["uci"] for e in found if e["event"] == "move"] == ["e2e4"]


def test_a_stuck_switch_that_reads_right_again_rejoins() -> None:
    replay = play([(1000, "place", "e4")], 1000 + 2300 + STUCK_MS)
    assert replay.debouncer.faulty == 1 << parse_square("e2")
    t = 1000 + 2300 + STUCK_MS + 1000
    replay.sensor(parse_square("e2"), False, t)  # the switch lets go: it reads empty
    replay.advance(t + 100)
    assert replay.debouncer.faulty == 0
    sensor = [e for e in events(replay) if e["event"] == "sensor"]
    assert [e["fault"] for e in sensor] == ["stuck", "recovered"]
    assert replay.arbiter.sensors == replay.arbiter.game.position.occupied


def test_a_player_thinking_with_a_piece_in_hand_is_no_stuck_switch() -> None:
    replay = play([(1000, "lift", "g1")], 1000 + 3 * STUCK_MS)
    assert [e["event"] for e in events(replay)] == []
    assert replay.debouncer.faulty == 0


def test_a_mismatch_the_hands_work_on_is_no_stuck_switch() -> None:
    """The clock restarts with every change: the hands are still putting it right."""
    lines = [(1000, "place", "f3")]
    t = 1000 + STUCK_MS // 2
    for _ in range(4):
        lines += [(t, "lift", "f3"), (t + 500, "place", "f3")]
        t += STUCK_MS // 2
    replay = play(lines, t)
    assert not [e for e in events(replay) if e["event"] in ("sensor", "move")]


def test_two_squares_either_of_which_may_be_stuck_are_not_guessed() -> None:
    """A piece appears on f3 and nothing is lifted: g1's switch stuck under a knight that
    went to f3, or f2's under a pawn that did. No single reading: nothing is decided."""
    replay = play([(1000, "place", "f3")], 1000 + 2300 + 2 * STUCK_MS)
    assert not [e for e in events(replay) if e["event"] in ("sensor", "move")]
