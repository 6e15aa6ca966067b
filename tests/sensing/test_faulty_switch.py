"""A faulty switch must not blind the board: a square chattering faster than the hold
time is isolated after a few flips, keeps its last settled state, and every other square
goes on; it is trusted again once it has been quiet for a while."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from reedboard.app import App
from reedboard.app_ports import HostLink, RecordingLights, Sensing
from reedboard.config import MatrixConfig
from reedboard.hal.clock import VirtualClock
from reedboard.hal.fake_gpio import FakeGPIO
from reedboard.hal.matrix import MatrixScanner
from reedboard.hal.matrix_layout import MatrixLayout
from reedboard.lights.scenes import scene_roles
from reedboard.link.board_messages import EffectMessage, read_board_message
from reedboard.reader.move_reader import STUCK_MS
from reedboard.rules.position import Position
from reedboard.rules.squares import parse_square, squares_of
from reedboard.sensing.debounce import (
    CHATTER_MS,
    DEFAULT_HOLD_MS,
    RECOVER_MS,
    Debouncer,
    SensorNotice,
    SquareChange,
)
from reedboard_host.board_text import effect_line

from tests.sensing.test_debounce import chatter

E2, E4, H5 = parse_square("e2"), parse_square("e4"), parse_square("h5")
START = Position.standard().occupied


def chattering(debouncer: Debouncer, sq: int, t0: int, t1: int, period: int) -> list[SquareChange]:
    """Square `sq` flips every `period` ms from t0 to t1 (event feeding)."""
    out: list[SquareChange] = []
    level = bool(debouncer.raw >> sq & 1)
    for t in range(t0, t1, period):
        level = not level
        out += debouncer.feed_change(sq, level, t)
    return out


def test_a_chattering_square_no_longer_holds_back_the_others() -> None:
    debouncer = Debouncer(START)
    out = debouncer.feed_change(E2, False, 1000)  # a real lift while h5 goes mad
    out += chattering(debouncer, H5, 1001, 3000, 4)
    out += debouncer.tick(3000)
    assert SquareChange(E2, False, 1000) in out
    # Released as soon as h5 is isolated: well before the chatter ends.
    assert debouncer.occupancy == START & ~(1 << E2)
    assert debouncer.faulty == 1 << H5
    notices = debouncer.take_notices()
    assert [(n.square, n.kind, n.occupied) for n in notices] == [(H5, "chattering", False)]
    assert notices[0].t_ms <= 1001 + CHATTER_MS + 8
    assert debouncer.take_notices() == []
    assert all(change.square != H5 for change in out)


def test_the_others_are_released_within_the_chatter_bound_in_a_scan_loop() -> None:
    debouncer = Debouncer(START)
    released: dict[int, int] = {}
    for t in range(0, 2000, 5):
        board = START
        if t >= 1000:
            board &= ~(1 << E2)
        if (t // 5) % 2:  # h5 flips at every scan: faster than the hold time
            board ^= 1 << H5
        for change in debouncer.feed(board, t):
            released.setdefault(change.square, t)
    assert E2 in released and released[E2] <= 1000 + CHATTER_MS + DEFAULT_HOLD_MS + 10
    assert H5 not in released
    assert debouncer.faulty == 1 << H5


def test_an_isolated_square_rejoins_after_a_quiet_spell() -> None:
    debouncer = Debouncer(START)
    chattering(debouncer, H5, 1000, 1498, 3)  # 166 flips: it ends reading empty
    assert debouncer.faulty == 1 << H5
    debouncer.take_notices()
    # It settles reading occupied (as a stray magnet would): nothing for RECOVER_MS.
    debouncer.feed_change(H5, True, 1600)
    assert debouncer.next_deadline() == 1600 + RECOVER_MS
    assert debouncer.tick(1600 + RECOVER_MS - 1) == []
    assert debouncer.tick(1600 + RECOVER_MS) == [SquareChange(H5, True, 1600 + RECOVER_MS)]
    assert debouncer.faulty == 0
    assert debouncer.take_notices() == [SensorNotice(H5, "recovered", True, 1600 + RECOVER_MS)]


@given(chatter(settles_changed=True, width=5))
def test_bounce_never_isolates_a_square(edges: list[int]) -> None:
    debouncer = Debouncer(START)
    level = True
    for t in edges:
        level = not level
        debouncer.feed_change(E2, level, 1000 + t)
    debouncer.tick(2000)
    assert debouncer.faulty == 0
    assert debouncer.take_notices() == []


def test_a_slow_magnet_settling_for_40_ms_is_not_a_fault() -> None:
    """A piece set down slowly may chatter for a few tens of ms: still a hand."""
    debouncer = Debouncer(START)
    out = chattering(debouncer, E4, 1000, 1041, 4)  # 11 flips over 40 ms
    out += debouncer.tick(1200)
    assert debouncer.faulty == 0
    assert out == [SquareChange(E4, True, 1000)]


# ----- the running board: real scanner code over the fake GPIO -----


def test_the_board_plays_on_beside_a_chattering_switch(caplog: pytest.LogCaptureFixture) -> None:
    config = MatrixConfig()
    layout = MatrixLayout(config.a1, config.rows_are)
    gpio = FakeGPIO(config.rows, config.columns)
    gpio.set_closed(layout.cell_of(sq) for sq in squares_of(START))
    scanner = MatrixScanner(gpio, config.rows, config.columns, layout, sleep=lambda _s: None)
    effects: list[dict[str, Any]] = []
    renderer = RecordingLights()
    clock = VirtualClock()
    app = App(
        Sensing(scanner, matrix=config),
        clock,
        link=HostLink(on_effect=lambda message: effects.append(message.to_wire())),
        lights=renderer,
    )
    app.start()
    h5 = layout.cell_of(H5)
    for now in range(0, 4000, 5):
        clock.sleep_until(now)
        if now >= 500:
            gpio.set_switch(*h5, closed=(now // 5) % 2 == 1)  # chatters from 500 ms on
        if now == 1000:
            gpio.set_switch(*layout.cell_of(E2), closed=False)
        if now == 1400:
            gpio.set_switch(*layout.cell_of(E4), closed=True)
        app.step(now)
    assert [e["uci"] for e in effects if e["event"] == "move"] == ["e2e4"]
    faults = [e for e in effects if e["event"] == "sensor"]
    assert len(faults) == 1
    fault = faults[0]
    assert fault["square"] == "h5" and fault["fault"] == "chattering"
    row, column = h5
    assert fault["row"] == f"ROW{row + 1}" and fault["column"] == f"COL{column + 1}"
    assert fault["pins"] == sorted([config.rows[row], config.columns[column]])
    assert any("h5" in line and "GPIO" in line for line in caplog.messages)
    # What a host watching the board prints of it.
    read, _problem = read_board_message(fault)
    assert isinstance(read, EffectMessage)
    assert effect_line(read).startswith("sensor     switch chattering: h5 (ROW")
    assert not [e for e in effects if e["event"] == "illegal"]
    assert scene_roles(renderer.views[-1][1])[H5] == "fault"


def test_the_board_finds_a_switch_stuck_closed_and_plays_on() -> None:
    """e2's switch welded closed: the pawn leaves unseen and arrives on e4."""
    config = MatrixConfig()
    layout = MatrixLayout(config.a1, config.rows_are)
    gpio = FakeGPIO(config.rows, config.columns)
    gpio.set_closed(layout.cell_of(sq) for sq in squares_of(START))
    gpio.stick_switch(*layout.cell_of(E2), closed=True)
    scanner = MatrixScanner(gpio, config.rows, config.columns, layout, sleep=lambda _s: None)
    effects: list[dict[str, Any]] = []
    clock = VirtualClock()
    app = App(
        Sensing(scanner, matrix=config),
        clock,
        link=HostLink(on_effect=lambda message: effects.append(message.to_wire())),
    )
    app.start()
    for now in range(0, 1000 + 2500 + STUCK_MS, 5):
        clock.sleep_until(now)
        if now == 500:
            gpio.set_switch(*layout.cell_of(E2), closed=False)  # lifted: the switch stays shut
        if now == 1000:
            gpio.set_switch(*layout.cell_of(E4), closed=True)
        app.step(now)
    assert [e["uci"] for e in effects if e["event"] == "move"] == ["e2e4"]
    fault = next(e for e in effects if e["event"] == "sensor")
    assert (fault["square"], fault["fault"], fault["occupied"]) == ("e2", "stuck", False)
    assert "GPIO" in fault["where"]
