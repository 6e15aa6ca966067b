"""Time the arbiter added, on the host's side: the board's `clock` effect with `added`
read off the wire (checked, and named when wrong), shown by `watch`, heard back as the
effect it was, and not taken for the clock after the last move."""

from __future__ import annotations

from reedboard.events import MoveMade, NewGame, TimeAdded
from reedboard.link.board_messages import EffectMessage, read_board_message
from reedboard.rules.fen import STARTING_FEN
from reedboard_host.board_text import effect_line
from reedboard_host.mirror import GameMirror


def sent(effect: TimeAdded, seq: int) -> EffectMessage:
    read, problem = read_board_message(EffectMessage(effect, 1, seq=seq).to_wire())
    assert problem is None and isinstance(read, EffectMessage)
    return read


def test_time_added_travels_the_link() -> None:
    message = sent(TimeAdded(2_000, False, 120_000, 298_600, 419_400), 3)
    assert message == EffectMessage(TimeAdded(2_000, False, 120_000, 298_600, 419_400), 1, 3)
    assert effect_line(message) == "clock      120s added to black: White 4:58.6  Black 6:59.4"


def test_a_bad_addition_is_named() -> None:
    wire = EffectMessage(TimeAdded(1, True, 1, 2, 3), 1, seq=2).to_wire()
    wire["added"] = {"color": "red", "ms": 5}
    read, problem = read_board_message(wire)
    assert problem is not None and problem.startswith("clock effect: added must be an object")
    assert read is not None and read.seq == 2  # a stand-in that keeps the number


def test_the_mirror_keeps_the_moves_clock() -> None:
    mirror = GameMirror()
    mirror.needs_state = False
    for message in (
        EffectMessage(NewGame(0, STARTING_FEN, time_control="5+0"), 1, 1),
        EffectMessage(MoveMade(1412, "e2e4", "e4", "", 1, clock=(298_600, 300_000)), 1, 2),
        sent(TimeAdded(2_000, False, 120_000, 298_600, 419_400), 3),
    ):
        mirror.apply(message)
    assert mirror.current is not None and mirror.current.clocks == {1: (298_600, 300_000)}
