"""The bytes of every kind of `effect`, with what the board adds around it, as the board
wrote them before its events were defined once (`recorded/effects.frames`, written by
that firmware): the codec derived from the events' types writes the same frames, and
reads each back as the value it was written from."""

from __future__ import annotations

from pathlib import Path

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
from reedboard.link.board_messages import EffectMessage, read_board_message
from reedboard.link.frame import decode_line, encode_frame
from reedboard.rules.squares import parse_square
from reedboard.sensing.selftest import SwitchPlace

RECORDED = Path(__file__).parent / "recorded" / "effects.frames"
F = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
E2, G1, C3 = parse_square("e2"), parse_square("g1"), parse_square("c3")
PLACE = SwitchPlace("ROW2", "COL3", (5, 6), "row 2 column 3")
EFFECTS = [
    EffectMessage(MoveMade(10, "e2e4", "e4", F, 1), 3, seq=1),
    EffectMessage(MoveMade(11, "e2e4", "e4", F, 1, clock=(1000, 2000)), 3, seq=2),
    EffectMessage(Touched(12, E2, "P"), 3, seq=3),
    EffectMessage(Illegal(13, (1 << 12) | (1 << 13), 1 << 28, ((28, 12),)), 3, seq=4),
    EffectMessage(Illegal(13, 1 << 12, 0), 3, seq=5),
    EffectMessage(Restored(14), 3, seq=6),
    EffectMessage(Violation(15, "4.3a", G1, "touch move"), 3, seq=7),
    EffectMessage(TakenBack(16, "e2e4", F), 3, seq=8),
    EffectMessage(NewGame(17, F, chess960=False, variant="standard"), 4, seq=9),
    EffectMessage(NewGame(17, F, chess960=True, variant="chess960", time_control="5+3"), 4, seq=10),
    EffectMessage(NewGame(17, F), 4, seq=11),
    EffectMessage(GameOver(18, "1-0", "checkmate"), 4, seq=12),
    EffectMessage(PromotionChosen(19, "n"), 4, seq=13),
    EffectMessage(Offered(20, "1/2-1/2", "made"), 4, seq=14),
    EffectMessage(SetupStarted(21, 518, F), 4, seq=15),
    EffectMessage(SensorFault(22, C3, "chattering", True), 4, seq=16),
    EffectMessage(SensorFault(22, C3, "stuck", False, place=PLACE), 4, seq=17),
    EffectMessage(ClockPressed(23, 100, 200), 4, seq=18),
    EffectMessage(TimeAdded(24, False, 5000, 100, 200), 4, seq=19),
]


def test_every_effect_is_written_as_the_board_wrote_it_before() -> None:
    recorded = RECORDED.read_bytes().splitlines(keepends=True)
    assert [encode_frame(message.to_wire()) for message in EFFECTS] == recorded


def test_every_recorded_frame_reads_back_as_its_event() -> None:
    for line, message in zip(RECORDED.read_bytes().splitlines(), EFFECTS, strict=True):
        wire = decode_line(line)
        assert wire is not None
        assert read_board_message(wire) == (message, None)
