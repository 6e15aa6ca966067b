"""The LED driver on Adafruit's real pixel buffer code: bytes on the wire, brightness,
the power cap, and no transmission for an unchanged frame."""

from __future__ import annotations

import pytest
from reedboard.hal.led_power import CHANNEL_MA, frame_current_ma
from reedboard.hal.pixelbuf_strip import PixelBufStrip
from reedboard.hal.ports import LedStrip
from reedboard.hal.recording_pixelbuf import RecordingPixelBuf

RED, GREEN, BLUE = (255, 0, 0), (0, 255, 0), (0, 0, 255)


def strip_of(
    count: int, order: str = "GRB", brightness: float = 1.0, **kw: float
) -> tuple[RecordingPixelBuf, PixelBufStrip]:
    buffer = RecordingPixelBuf(count, byteorder=order, brightness=brightness)
    return buffer, PixelBufStrip(buffer, **kw)


def test_it_is_an_led_strip() -> None:
    _, strip = strip_of(3)
    assert isinstance(strip, LedStrip)


@pytest.mark.parametrize(
    ("order", "wire"),
    [
        ("GRB", bytes([0, 255, 0, 255, 0, 0, 0, 0, 255])),  # WS2812: green first
        ("RGB", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255])),
        ("BRG", bytes([0, 255, 0, 0, 0, 255, 255, 0, 0])),
    ],
)
def test_colours_go_out_in_the_strips_byte_order(order: str, wire: bytes) -> None:
    buffer, strip = strip_of(3, order)
    strip.show([RED, GREEN, BLUE])
    assert buffer.transmitted == [wire]


def test_brightness_scales_every_byte() -> None:
    buffer, strip = strip_of(2, "GRB", brightness=0.25)
    strip.show([(200, 100, 40), (255, 255, 255)])
    assert buffer.transmitted == [bytes([25, 50, 10, 63, 63, 63])]


def test_an_unchanged_frame_is_not_transmitted() -> None:
    buffer, strip = strip_of(4)
    strip.show([RED] * 4)
    strip.show([RED] * 4)
    strip.show((RED, RED, RED, RED))
    assert len(buffer.transmitted) == 1 == strip.transmissions
    strip.show([RED, RED, GREEN, RED])
    assert len(buffer.transmitted) == 2
    assert buffer.transmitted[-1][6:9] == bytes([255, 0, 0])  # GRB of green


def test_a_frame_over_the_power_budget_is_scaled_down() -> None:
    white = [(255, 255, 255)] * 64
    assert frame_current_ma(white) == pytest.approx(64 * 3 * CHANNEL_MA)  # about 3.8 A
    buffer, strip = strip_of(64, brightness=1.0, budget_ma=1920)
    strip.show(white)
    sent = buffer.transmitted[-1]
    assert max(sent) == 127
    assert sum(sent) * CHANNEL_MA / 255 <= 1920
    buffer, strip = strip_of(64, brightness=0.25, budget_ma=1920)
    strip.show(white)  # a quarter brightness is within budget: untouched
    assert set(buffer.transmitted[-1]) == {63}


def test_a_few_lit_squares_keep_full_brightness() -> None:
    buffer, strip = strip_of(64, brightness=1.0)
    strip.show([(255, 255, 255)] * 8 + [(0, 0, 0)] * 56)
    assert buffer.transmitted[-1][:24] == bytes([255] * 24)


def test_wrong_length_is_refused_and_close_leaves_it_dark() -> None:
    buffer, strip = strip_of(3)
    with pytest.raises(ValueError):
        strip.show([RED] * 4)
    with strip:
        strip.show([RED] * 3)
    assert buffer.transmitted[-1] == bytes(9)
