"""Every message the board sends reads back, on the host's side, as the value it was
written from, and what a host reads it writes back as the board wrote it."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from reedboard.link.board_events import (
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
)
from reedboard.link.board_messages import (
    Ack,
    Alive,
    BoardHello,
    BoardMessage,
    EffectMessage,
    ErrorReply,
    EventMessage,
    MovesPage,
    StateMessage,
    read_board_message,
)
from reedboard.reader.effects import (
    GameOver,
    Illegal,
    MoveMade,
    NewGame,
    PromotionChosen,
    Restored,
    SensorFault,
    TakenBack,
    Touched,
    Violation,
)
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.squares import SQUARE_NAMES

COUNT = st.integers(0, 2**53 - 1)
SEQ = st.integers(1, 2**53 - 1)
TEXT = st.text(max_size=12)
NAME = st.sampled_from(SQUARE_NAMES)
NAMES = st.lists(NAME, max_size=5).map(tuple)
UCI = st.builds(lambda a, b: a + b, NAME, NAME)
RESULT = st.sampled_from(["1-0", "0-1", "1/2-1/2"])
PAIR = st.tuples(NAME, NAME)


def _maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.none() | strategy


EVENTS = st.one_of(
    st.builds(MoveEvent, UCI, st.integers(1, 2**53 - 1), _maybe(TEXT), _maybe(TEXT)),
    st.builds(TouchEvent, _maybe(NAME), _maybe(TEXT)),
    st.builds(IllegalEvent, _maybe(NAMES), _maybe(NAMES), st.none()),
    st.just(RestoredEvent()),
    st.builds(ViolationEvent, _maybe(TEXT), _maybe(NAME), _maybe(TEXT)),
    st.builds(TakebackEvent, _maybe(UCI), _maybe(TEXT)),
    st.builds(NewGameEvent, st.just(STARTING_FEN), _maybe(st.just(False)), _maybe(TEXT)),
    st.builds(GameOverEvent, RESULT, TEXT),
    st.builds(PromotionEvent, _maybe(TEXT)),
    st.builds(OtherEvent, st.sampled_from(["sensor", "offer", "later"]), st.just({"x": 1})),
)
MESSAGES: st.SearchStrategy[BoardMessage] = st.one_of(
    st.builds(
        BoardHello,
        session=TEXT,
        protocol=_maybe(COUNT),
        firmware=_maybe(TEXT),
        game=_maybe(COUNT),
        resync=st.booleans(),
        id=_maybe(COUNT),
        answers=st.booleans(),
        seq=SEQ,
    ).filter(lambda h: h.answers or h.id is None),
    st.builds(EventMessage, EVENTS, _maybe(COUNT), _maybe(COUNT), SEQ),
    st.builds(
        StateMessage,
        chess960=st.just(False),
        start_fen=st.just(STARTING_FEN),
        moves=st.lists(UCI, max_size=4).map(tuple),
        san=_maybe(st.lists(TEXT, max_size=4).map(tuple)),
        lifted=_maybe(NAMES),
        hint=_maybe(PAIR),
        last_move=_maybe(PAIR),
        result=_maybe(RESULT),
        reason=_maybe(TEXT),
        game=_maybe(COUNT),
        resync=st.booleans(),
        id=_maybe(COUNT),
        seq=SEQ,
    ),
    st.builds(
        MovesPage,
        COUNT,
        st.lists(UCI, max_size=4).map(tuple),
        COUNT,
        st.just("0123abcd"),
        result=_maybe(RESULT),
        reason=_maybe(TEXT),
        id=_maybe(COUNT),
        seq=SEQ,
    ),
    st.builds(
        Ack,
        fen=_maybe(TEXT),
        settle_ms=_maybe(COUNT),
        uci=_maybe(UCI),
        result=_maybe(RESULT),
        squares=_maybe(NAMES),
        text=_maybe(TEXT),
        id=_maybe(COUNT),
        seq=SEQ,
    ),
    st.builds(
        ErrorReply, _maybe(TEXT), _maybe(TEXT), _maybe(TEXT), _maybe(TEXT), _maybe(COUNT), SEQ
    ),
    st.builds(Alive, SEQ),
)


@given(MESSAGES)
def test_a_board_message_reads_back_as_itself(message: BoardMessage) -> None:
    wire = message.to_wire()
    assert read_board_message(wire) == (message, None)
    again, _ = read_board_message(wire)
    assert again is not None and again.to_wire() == wire


EFFECTS = st.one_of(
    st.builds(MoveMade, COUNT, UCI, TEXT, TEXT, st.integers(1, 500)),
    st.builds(Touched, COUNT, st.integers(0, 63), TEXT),
    st.builds(Illegal, COUNT, st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1)),
    st.builds(Restored, COUNT),
    st.builds(Violation, COUNT, TEXT, st.integers(0, 63), TEXT),
    st.builds(TakenBack, COUNT, UCI, TEXT),
    st.builds(NewGame, COUNT, st.just(STARTING_FEN)),
    st.builds(GameOver, COUNT, RESULT, TEXT),
    st.builds(PromotionChosen, COUNT, TEXT),
    st.builds(SensorFault, COUNT, st.integers(0, 63), TEXT, st.booleans()),
)


@given(EFFECTS, COUNT, SEQ)
def test_an_effect_the_board_sends_is_read_as_the_host_event_it_names(
    effect: Any, game: int, seq: int
) -> None:
    wire = EffectMessage(effect, game, seq=seq).to_wire()
    read, problem = read_board_message(wire)
    assert problem is None and isinstance(read, EventMessage)
    assert (read.seq, read.game, read.t_ms) == (seq, game, effect.t_ms)
    assert read.to_wire() == wire  # every field the board wrote, as it wrote it
