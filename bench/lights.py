"""Lights benchmark: time per frame of scene + layout + driver, and transmissions.

    python bench/lights.py [--frames N]

The driver is Adafruit's real pixel buffer with a recording `_transmit`, so the figure
includes brightness and byte order. Views come from the real arbiter in a few states.
Goal on a PC: under 0.3 ms per frame; and no transmission while nothing changes.
"""

from __future__ import annotations

import argparse
import statistics
import time

from reedboard.hal.pixelbuf_strip import PixelBufStrip
from reedboard.hal.recording_pixelbuf import RecordingPixelBuf
from reedboard.lights.output import LightsOutput
from reedboard.lights.scenes import scene_for
from reedboard.lights.strip_layout import StripLayout
from reedboard.reader.move_reader import MoveReader
from reedboard.reader.view import BoardView
from reedboard.rules.game import Game
from reedboard.rules.squares import parse_square
from reedboard.sensing.debounce import SquareChange


def views() -> dict[str, BoardView]:
    out = {}
    arbiter = MoveReader(Game.from_fen("r3k2r/ppp2ppp/2n5/3pP3/8/2N5/PPP2PPP/R3K2R w KQkq d6 0 1"))
    out["idle"] = arbiter.view()
    arbiter.feed(SquareChange(parse_square("e1"), False, 1000))
    out["king lifted"] = arbiter.view()
    arbiter = MoveReader(Game())
    arbiter.feed(SquareChange(parse_square("d1"), False, 1000))
    arbiter.feed(SquareChange(parse_square("d4"), True, 1400))
    arbiter.tick(5000)
    out["mismatch"] = arbiter.view()
    return out


def per_frame_us(view: BoardView, layout: StripLayout, frames: int) -> tuple[float, float, int]:
    buffer = RecordingPixelBuf(layout.count, byteorder="GRB", brightness=0.25)
    output = LightsOutput(layout, PixelBufStrip(buffer))
    samples = []
    for i in range(frames):
        start = time.perf_counter()
        output.update(scene_for(view), i * 20)  # a 50 Hz loop
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6, statistics.mean(samples) * 1e6, len(buffer.transmitted)


def main() -> None:
    parser = argparse.ArgumentParser(description="lights time per frame")
    parser.add_argument("--frames", type=int, default=2000)
    args = parser.parse_args()
    layouts = {"64 serpentine": StripLayout.per_square(), "81 corners": StripLayout.corner_grid()}
    print(
        f"{'state':<12} {'layout':<14} {'median us':>9} {'mean us':>8} {'sent':>6} of {args.frames}"
    )
    for name, view in views().items():
        for label, layout in layouts.items():
            median, mean, sent = per_frame_us(view, layout, args.frames)
            print(f"{name:<12} {label:<14} {median:9.1f} {mean:8.1f} {sent:6d}")
    # The first frame of a new scene: everything recomputed and transmitted.
    view = views()["king lifted"]
    samples = []
    for _ in range(args.frames // 4):
        buffer = RecordingPixelBuf(64, byteorder="GRB", brightness=0.25)
        output = LightsOutput(StripLayout.per_square(), PixelBufStrip(buffer))
        start = time.perf_counter()
        output.update(scene_for(view), 0)
        samples.append(time.perf_counter() - start)
    print(f"new scene, transmitted: {statistics.median(samples) * 1e6:.1f} us/frame")


if __name__ == "__main__":
    main()
