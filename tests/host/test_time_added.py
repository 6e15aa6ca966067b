"""Time the arbiter added, on the host's side: the board's `clock` effect with `added`
read off the wire (checked, and named when wrong), shown by `watch`, heard back as the
effect it was, and not taken for the clock after the last move."""

from __future__ import annotations

from reedboard.link.board_checks import board_message_problem
from reedboard.link.board_events import ClockEvent, MoveEvent, NewGameEvent
from reedboard.link.board_messages import EffectMessage, EventMessage
from reedboard.link.event_effects import effect_of_event
from reedboard.reader.effects import TimeAdded
from reedboard.rules.fen import STARTING_FEN
from reedboard_host.board_text import effect_line
from reedboard_host.mirror import GameMirror


def sent(effect: TimeAdded, seq: int) -> EventMessage:
    wire = EffectMessage(effect, 1, seq=seq).to_wire()
    assert board_message_problem(wire) is None
    return EventMessage.from_wire(wire)


def test_time_added_travels_the_link() -> None:
    message = sent(TimeAdded(2_000, False, 120_000, 298_600, 419_400), 3)
    assert message.event == ClockEvent(298_600, 419_400, ("black", 120_000))
    assert effect_line(message) == "clock      120s added to black: White 4:58.6  Black 6:59.4"
    assert effect_of_event(message.event, message.t_ms) == TimeAdded(
        2_000, False, 120_000, 298_600, 419_400
    )


def test_a_bad_addition_is_named() -> None:
    wire = EffectMessage(TimeAdded(1, True, 1, 2, 3), 1, seq=2).to_wire()
    wire["added"] = {"color": "red", "ms": 5}
    problem = board_message_problem(wire)
    assert problem is not None and problem.startswith("clock effect: added must be an object")


def test_the_mirror_keeps_the_moves_clock() -> None:
    mirror = GameMirror()
    mirror.needs_state = False
    for message in (
        EventMessage(NewGameEvent(STARTING_FEN, time_control="5+0"), 1, 0, 1),
        EventMessage(MoveEvent("e2e4", 1, "e4", None, (298_600, 300_000)), 1, 1412, 2),
        sent(TimeAdded(2_000, False, 120_000, 298_600, 419_400), 3),
    ):
        mirror.apply(message)
    assert mirror.current is not None and mirror.current.clocks == {1: (298_600, 300_000)}
