"""`led-test` lights the LEDs as a maker checking a build wants: each LED alone in chain
order, then the whole chain red, green, blue and white, then the board's scene again. Here
through the running board's own lights (`reedboard run`'s wiring) on the recording strip,
and end to end: `reedboard-host led-test` over a real pty to a running board."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Sequence

import pytest
from reedboard.app import App
from reedboard.app_ports import HostLink, Sensing
from reedboard.commands.run_board import board_lights
from reedboard.config import LedConfig
from reedboard.hal.clock import MonotonicClock, VirtualClock
from reedboard.hal.recording_strip import RecordingStrip
from reedboard.lights.led_test import COLOURS, DOT, duration_ms
from reedboard.lights.palette import RGB
from reedboard.link.messages import LedTest
from reedboard.link.serial_port import open_port
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board

from tests.link.ptybridge import PtyBridge

DARK: RGB = (0, 0, 0)


def lit(frame: tuple[RGB, ...]) -> list[int]:
    return [index for index, colour in enumerate(frame) if colour != DARK]


def expected_frames(count: int) -> list[tuple[RGB, ...]]:
    dots = [tuple(DOT if i == n else DARK for i in range(count)) for n in range(count)]
    return [*dots, *(tuple([colour] * count) for colour in COLOURS)]


@pytest.mark.parametrize("count", [64, 81])
def test_the_led_test_runs_the_chain_then_the_colours_then_the_scene(count: int) -> None:
    strip = RecordingStrip(count)
    board = scripted_board(parse_script("@start standard\n100 lift e2\n400 place e4\n"))
    app = App(
        Sensing(board, source=board),
        VirtualClock(),
        lights=board_lights(LedConfig(count=count), strip),
    )
    for now in range(0, 1000, 5):
        app.step(now)
    scene = strip.last
    assert scene is not None and lit(scene)  # 1. e4 glows as the last move
    before = len(strip.frames)
    app.local_command(LedTest(), 1000)
    for now in range(1000, 1000 + duration_ms(count) + 100, 5):
        app.step(now)
    shown = list(strip.frames)[before:]
    assert shown == [*expected_frames(count), scene]


def test_reedboard_host_led_test_lights_the_running_board() -> None:
    strip = RecordingStrip(64)
    seen = threading.Condition()

    class Watched(RecordingStrip):
        def show(self, pixels: Sequence[RGB]) -> None:
            with seen:
                strip.show(pixels)
                seen.notify_all()

    board = scripted_board(parse_script("@start standard\n"))
    stop = threading.Event()
    with PtyBridge() as bridge:
        app = App(Sensing(board, source=board), MonotonicClock(), link=HostLink(open_port(bridge.board_path)), lights=board_lights(LedConfig(), Watched(64)))  # fmt: skip
        app.start()
        runner = threading.Thread(target=app.run, args=(stop.is_set,), daemon=True)
        runner.start()
        try:
            result = subprocess.run(
                [sys.executable, "-m", "reedboard_host.cli", "led-test", "--port",
                 bridge.host_path], capture_output=True, text=True, timeout=60,
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            wanted = tuple([COLOURS[-1]] * 64)  # the last step: the whole chain white
            deadline = time.monotonic() + 60
            with seen:
                while wanted not in strip.frames:
                    assert time.monotonic() < deadline, "the LED test never reached white"
                    seen.wait(0.5)
        finally:
            stop.set()
            runner.join(10)
    frames = list(strip.frames)
    dots = [lit(f)[0] for f in frames if len(lit(f)) == 1 and f[lit(f)[0]] == DOT]
    assert dots[0] == 0 and dots == sorted(dots)  # the dot runs along the chain from its start
    for colour in COLOURS:
        assert tuple([colour] * 64) in frames
