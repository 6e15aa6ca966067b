"""Faulty switches found during play, between the debouncer and the reader.

The debouncer finds a chattering switch by itself (no hand flips a switch that fast). A
switch stuck open or closed makes no edge at all, so only the game can tell: the reader
names it (`MoveReader.stuck_switch`) and the debouncer leaves it out with the state the game
says. Either way the host hears of it (a `sensor` effect) and the LEDs show the square.
"""

from __future__ import annotations

from typing import Protocol

from reedboard.events import Effect, SensorFault
from reedboard.reader.move_reader import MoveReader
from reedboard.rules.squares import Bitboard, Square
from reedboard.sensing.debounce import SensorNotice, SquareChange


class SwitchWatch(Protocol):
    """What a debouncer tells of faulty switches, and how it is told of a stuck one."""

    @property
    def faulty(self) -> Bitboard: ...

    def take_notices(self) -> list[SensorNotice]: ...

    def isolate(self, square: Square, occupied: bool, t_ms: int) -> list[SquareChange]: ...


def sensor_faults(debouncer: SwitchWatch, reader: MoveReader) -> list[Effect]:
    """The debouncer's news about faulty switches as effects; the reader learns which
    squares to light as faulty."""
    reader.sensor_faults = debouncer.faulty
    return [SensorFault(n.t_ms, n.square, n.kind, n.occupied) for n in debouncer.take_notices()]


def follow_stuck_switch(debouncer: SwitchWatch, reader: MoveReader, now_ms: int) -> list[Effect]:
    """After the reader's tick: a switch the game shows stuck is left out, and the board
    read again as the game says it stands."""
    found = reader.stuck_switch(now_ms)
    if found is None:
        return []
    square, occupied = found
    changes = debouncer.isolate(square, occupied, now_ms)
    effects = sensor_faults(debouncer, reader)
    for change in changes:
        effects += reader.feed(change, now_ms)
    return effects
