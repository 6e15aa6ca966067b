"""Who controls the board over Bluetooth, in words."""

from __future__ import annotations

from reedboard.link.board_messages import CentralMessage
from reedboard.link.central_words import central_words


def test_the_words_name_the_phone_its_protocol_and_its_clocks() -> None:
    assert central_words(None) == ""
    assert central_words(CentralMessage(connected=False)) == ""
    assert central_words(CentralMessage(True, address="00:AA:00:00:00:02")) == (
        "Phone (00:AA:00:00:00:02) controls the board over Bluetooth."
    )
    phone = CentralMessage(True, "cpp", "Pixel 7", "00:AA:00:00:00:02", 3_723_000, 59_999)
    assert central_words(phone) == (
        "Phone Pixel 7 (00:AA:00:00:00:02) controls the board over Bluetooth, with the"
        " Chess Peripheral Protocol; its clocks: White 1:02:03, Black 0:59."
    )
    assert "Millennium ChessLink" in central_words(CentralMessage(True, "chesslink"))
    match = CentralMessage(True, "cpp", "Pixel 7", score="1.5 2.5")
    assert central_words(match).endswith("Protocol; the match: White 1.5, Black 2.5.")
