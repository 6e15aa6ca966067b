"""What the board's page is sent: the board's `state` (as the host gets it) and its latest
effects made into one JSON object the page draws, with the simulator's words (`simweb.
words`): the result and its reason, and what the board waits for. Pure."""

from __future__ import annotations

from collections.abc import Sequence

from reedboard.events import Effect, GameOver, MoveMade, NewGame, SetupStarted
from reedboard.link.board_messages import StateMessage
from reedboard.link.broker_status import BrokerStatus, status_words
from reedboard.link.messages import Color
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES
from reedboard.simweb.effect_words import effect_words
from reedboard.simweb.words import notice, result_words
from reedboard.web.page_messages import BoardPicture, BrokerShown, ClockView

# The colours the page gives the squares the board marks, as its LEDs would.
ROLE_COLOURS = {
    "from": "#806000",
    "to": "#c09000",
    "hint": "#00c040",
    "missing": "#e02020",
    "extra": "#e02020",
    "lifted": "#ffffff",
}


def page_view(
    state: StateMessage,
    effects: Sequence[Effect],
    opponent: str,
    central: str = "",
    broker: BrokerStatus | None = None,
) -> BoardPicture:
    """The page's picture of the board: pieces, marked squares, moves, clocks, words, and
    the link to the broadcast's broker if the board has one."""
    position = Position.from_fen(state.fen or state.start_fen, chess960=state.chess960)
    roles = _roles(state)
    turn: Color = "white" if position.turn else "black"
    result = None if state.result is None else result_words(state.result, state.reason)
    clock = None
    if state.clock is not None:
        clock = ClockView(
            white_ms=state.clock.white_ms,
            black_ms=state.clock.black_ms,
            running=state.clock.running,
            time_control=state.clock.time_control,
        )
    return BoardPicture(
        type="state",
        pieces={
            SQUARE_NAMES[square]: piece.symbol() for square, piece in position.piece_map().items()
        },
        leds=[ROLE_COLOURS.get(roles.get(name, ""), "#000000") for name in SQUARE_NAMES],
        roles=roles,
        fen=position.fen(),
        san=list(state.san or ()),
        moves=list(state.moves),
        result=state.result,
        reason=state.reason,
        result_text=result,
        clock=clock,
        mode=state.mode,
        turn=turn,
        game=state.game,
        waiting=waiting_words(state, effects, position, result),
        effect_words=[effect_words(effect) for effect in effects[-8:]],
        opponent=opponent,
        central=central,
        broker=None if broker is None else broker_shown(broker),
    )


def broker_shown(status: BrokerStatus) -> BrokerShown:
    return BrokerShown(
        link=status.link,
        since_ms=status.since_ms,
        reason=status.reason,
        unsent=status.unsent,
        dropped=status.dropped,
        words=status_words(status),
    )


def _roles(state: StateMessage) -> dict[str, str]:
    roles: dict[str, str] = {}
    if state.last_move is not None:
        roles[state.last_move[0]] = "from"
        roles[state.last_move[1]] = "to"
    # The squares the board marks are not shown: a pairing code is lit with them, and it
    # is to be read at the board, not by whoever watches the page.
    if state.hint is not None:
        roles[state.hint[0]] = roles[state.hint[1]] = "hint"
    for name in state.missing or ():
        roles[name] = "missing"
    for name in state.extra or ():
        roles[name] = "extra"
    for name in state.lifted or ():
        roles[name] = "lifted"
    return roles


def waiting_words(
    state: StateMessage, effects: Sequence[Effect], position: Position, result: str | None
) -> str:
    """What the board waits for, in words: put pieces right, make the engine's move,
    set up a Chess960 start, or the player to move."""
    if result is not None:
        return f"{result}. Start a new game when you like."
    put_right = notice(effects, position)
    if put_right is not None:
        return put_right
    setting_up = _setting_up(effects)
    if setting_up is not None and (state.missing or state.extra):
        return f"Set up Chess960 position {setting_up}: put the pieces on their squares"
    if state.missing or state.extra:
        steps = [f"put a piece back on {name}" for name in state.missing or ()]
        steps += [f"take the piece off {name}" for name in state.extra or ()]
        return "Set up the pieces: " + ", ".join(steps)
    turn = "White" if position.turn else "Black"
    if state.hint is not None:
        return f"{turn} to play the move lit on the board: {state.hint[0]}-{state.hint[1]}"
    return f"{turn} to move"


def _setting_up(effects: Sequence[Effect]) -> int | None:
    """The Chess960 number being set up, if the latest game started is one."""
    for effect in reversed(effects):
        if isinstance(effect, SetupStarted):
            return effect.number
        if isinstance(effect, (NewGame, MoveMade, GameOver)):
            return None
    return None
