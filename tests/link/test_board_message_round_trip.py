"""Every message the board sends reads back, on the host's side, as the value it was
written from (an effect as the very event the board made), and what a host reads it
writes back as the board wrote it."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from reedboard.events import (
    ClockPressed,
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
from reedboard.link.acks import (
    BrightnessSet,
    Done,
    GameEnded,
    GameStarted,
    Marked,
    ModeSet,
    MoveNamed,
    PromotionSet,
    Said,
    SettingsNow,
    StateClock,
    TimeGiven,
)
from reedboard.link.board_messages import (
    Ack,
    Alive,
    BoardHello,
    BoardMessage,
    EffectMessage,
    ErrorReply,
    MovesPage,
    StateMessage,
    read_board_message,
)
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.squares import SQUARE_NAMES
from reedboard.sensing.selftest import SwitchPlace

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


SQUARE = st.integers(0, 63)
BITBOARD = st.integers(0, 2**64 - 1)
CLOCKS = st.tuples(COUNT, COUNT)
PLACE = st.builds(SwitchPlace, TEXT, TEXT, st.lists(COUNT, max_size=2).map(tuple), TEXT)
# Every kind of event, each field as the board may fill it.
EFFECTS = st.one_of(
    st.builds(MoveMade, COUNT, UCI, TEXT, TEXT, st.integers(1, 500), _maybe(CLOCKS)),
    st.builds(Touched, COUNT, SQUARE, TEXT),
    st.builds(Illegal, COUNT, BITBOARD, BITBOARD, st.lists(st.tuples(SQUARE, SQUARE)).map(tuple)),
    st.builds(Restored, COUNT),
    st.builds(Violation, COUNT, TEXT, SQUARE, TEXT),
    st.builds(TakenBack, COUNT, UCI, TEXT),
    st.builds(
        NewGame, COUNT, st.just(STARTING_FEN), _maybe(st.just(False)), _maybe(TEXT), _maybe(TEXT)
    ),
    st.builds(GameOver, COUNT, RESULT, TEXT),
    st.builds(PromotionChosen, COUNT, TEXT),
    st.builds(Offered, COUNT, RESULT, TEXT),
    st.builds(SetupStarted, COUNT, st.integers(0, 959), TEXT),
    st.builds(SensorFault, COUNT, SQUARE, TEXT, st.booleans(), _maybe(PLACE)),
    st.builds(ClockPressed, COUNT, COUNT, COUNT),
    st.builds(TimeAdded, COUNT, st.booleans(), st.integers(1, 2**53 - 1), COUNT, COUNT),
)
CLOCK = st.builds(StateClock, COUNT, COUNT, st.sampled_from(["white", "black", None]), TEXT)
# Every outcome an ack tells.
OUTCOMES = st.one_of(
    st.just(Done()),
    st.builds(GameStarted, TEXT),
    st.builds(SettingsNow, TEXT, COUNT, COUNT, COUNT, st.booleans()),
    st.builds(ModeSet, TEXT),
    st.builds(MoveNamed, _maybe(UCI)),
    st.builds(PromotionSet, TEXT),
    st.builds(GameEnded, RESULT, TEXT),
    st.builds(Marked, NAMES, NAMES),
    st.builds(TimeGiven, CLOCK),
    st.builds(BrightnessSet, COUNT),
    st.builds(Said, TEXT),
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
    st.builds(EffectMessage, EFFECTS, COUNT, SEQ),
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
    st.builds(Ack, OUTCOMES, _maybe(COUNT), SEQ),
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
