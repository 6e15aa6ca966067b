"""A host's `effect` event as the board's own effect: what the board's voice hears on the
PC (`reedboard-host watch --say`), so that it says the sentences the board says. The
wire is read once, by the link's decoder (`board_events`); this only maps its events.

An event that does not make a whole effect (a field the board left out, a square that is
no square, an event this host does not know) gives None: the voice says nothing of it.
"""

from __future__ import annotations

from collections.abc import Iterable

from reedboard.errors import InvalidInputError
from reedboard.link.board_events import (
    ClockEvent,
    GameOverEvent,
    IllegalEvent,
    MoveEvent,
    NewGameEvent,
    OtherEvent,
    PromotionEvent,
    RestoredEvent,
    TakebackEvent,
    TouchEvent,
    ViolationEvent,
    WireEvent,
)
from reedboard.reader.effects import (
    ClockPressed,
    Effect,
    GameOver,
    Illegal,
    MoveMade,
    NewGame,
    Offered,
    PromotionChosen,
    Restored,
    SensorFault,
    SetupStarted,
    TakenBack,
    TimeAdded,
    Touched,
    Violation,
)
from reedboard.rules.squares import Bitboard, Square, parse_square


class _NotWhole(Exception):
    """A field the effect needs is absent or of no use."""


def effect_of_event(event: WireEvent, t_ms: int | None) -> Effect | None:
    """The board's effect that `event`, made at `t_ms` (absent: 0), carries; None when
    it carries no whole effect."""
    try:
        return _effect(event, t_ms or 0)
    except (_NotWhole, InvalidInputError):
        return None


def _effect(event: WireEvent, t: int) -> Effect | None:
    match event:
        case MoveEvent(uci=uci, ply=ply, san=san, fen=fen, clock=clock):
            return MoveMade(t, uci, san or "", _given(fen), ply, clock=clock)
        case TouchEvent(square=square, piece=piece):
            return Touched(t, _square(square), _given(piece))
        case IllegalEvent(missing=missing, extra=extra, pairs=pairs):
            return Illegal(t, _squares(missing), _squares(extra), _pairs(pairs or ()))
        case RestoredEvent():
            return Restored(t)
        case ViolationEvent(rule=rule, square=square, message=message):
            return Violation(t, _given(rule), _square(square), message or "")
        case TakebackEvent(uci=uci, fen=fen):
            return TakenBack(t, _given(uci), _given(fen))
        case NewGameEvent(fen=fen):
            return NewGame(t, fen)
        case GameOverEvent(result=result, reason=reason):
            return GameOver(t, result, reason)
        case PromotionEvent(piece=piece):
            return PromotionChosen(t, _given(piece))
        case ClockEvent(white_ms=white_ms, black_ms=black_ms, added=added):
            if added is None:
                return ClockPressed(t, white_ms, black_ms)
            return TimeAdded(t, added[0] == "white", added[1], white_ms, black_ms)
        case OtherEvent():
            return _other(event, t)


def _other(event: OtherEvent, t: int) -> Effect | None:
    """The events the link's decoder leaves unread, checked here field by field."""
    match event.event:
        case "offer":
            return Offered(t, _text(event.get("offer")), _text(event.get("state")))
        case "setup":
            number = event.get("chess960")
            if not isinstance(number, int) or isinstance(number, bool):
                raise _NotWhole
            return SetupStarted(t, number, _text(event.get("fen")))
        case "sensor":
            occupied = event.get("occupied")
            if not isinstance(occupied, bool):
                raise _NotWhole
            fault = _text(event.get("fault"))
            return SensorFault(t, _square(event.get("square")), fault, occupied)
    return None


def _given(value: str | None) -> str:
    if value is None:
        raise _NotWhole
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise _NotWhole
    return value


def _square(name: object) -> Square:
    return parse_square(_text(name))


def _squares(names: Iterable[str] | None) -> Bitboard:
    if names is None:
        raise _NotWhole
    board = 0
    for name in names:
        board |= 1 << _square(name)
    return board


def _pairs(pairs: Iterable[object]) -> tuple[tuple[Square, Square], ...]:
    read = []
    for pair in pairs:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise _NotWhole
        read.append((_square(pair[0]), _square(pair[1])))
    return tuple(read)
