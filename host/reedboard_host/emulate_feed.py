"""The board's messages, as `reedboard-host emulate` reads them off the link, turned into
the facts its emulated board reports (`EmulatedEndpoint`), in the board's order.

The board numbers every message (`seq`), its `state` replies too, and the link hands them
over in that order. Each fact is taken only when it is newer than the last one taken: a
`state` the board produced before a move or a lift can reach the host after it (it is a
reply, and replies travel ahead of a gap), and it must not put the old piece back.

- `state`: the game's position, the sensors, the clocks (`observe`, `clock_read`);
- a `touch` effect: a piece lifted, shown gone at once (`lifted`);
- a `move` effect with its FEN: the game's new position at once (`moved`);
- every effect: what it says of the game and the clocks (`effect`).

Pure: the time comes in as an argument.
"""

from __future__ import annotations

import logging

from reedboard.errors import InvalidInputError
from reedboard.events import MoveMade, Touched
from reedboard.link.board_messages import BoardHello, BoardMessage, EffectMessage, StateMessage
from reedboard.link.dgt_clock import Side
from reedboard.link.emulation import EmulatedEndpoint
from reedboard.rules.position import Position

logger = logging.getLogger(__name__)

_SIDES: dict[str, Side] = {"white": "white", "black": "black"}


class BoardFeed:
    def __init__(self, emulation: EmulatedEndpoint) -> None:
        self.emulation = emulation
        self.last_seq = 0  # the number of the latest message taken
        self.chess960 = False  # the game's, as its latest `state` says

    def message(self, message: BoardMessage, now_ms: int) -> None:
        if isinstance(message, BoardHello):
            self.last_seq = message.seq  # a board started afresh numbers from here
            return
        if message.seq <= self.last_seq:
            return  # older than a fact already taken
        if isinstance(message, StateMessage):
            self.last_seq = message.seq
            self._state(message, now_ms)
        elif isinstance(message, EffectMessage):
            self.last_seq = message.seq
            self._event(message)

    def _state(self, state: StateMessage, now_ms: int) -> None:
        try:
            if state.fen is None:
                raise InvalidInputError("it has no position")
            position = Position.from_fen(state.fen, chess960=state.chess960)
            sensors = int(state.occupancy or "", 16)
        except (ValueError, InvalidInputError) as error:
            logger.warning("the board's state cannot be read: %s", error)
            return
        self.chess960 = state.chess960
        emulation = self.emulation
        emulation.observe(position, sensors, now_ms)
        clock = state.clock
        if clock is None:
            emulation.untimed()
        else:
            running = _SIDES.get(clock.running or "")
            emulation.clock_read(clock.white_ms, clock.black_ms, running)

    def _event(self, message: EffectMessage) -> None:
        event, emulation = message.effect, self.emulation
        emulation.effect(event)
        if isinstance(event, Touched):
            emulation.lifted(event.square)
        elif isinstance(event, MoveMade):
            try:
                emulation.moved(Position.from_fen(event.fen, chess960=self.chess960))
            except (ValueError, InvalidInputError) as error:
                logger.warning("the board's move %s cannot be read: %s", event.uci, error)
