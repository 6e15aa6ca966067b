"""Millennium ChessLink over Bluetooth LE: the board's ChessLink codec on the transparent
UART service, each byte with its odd parity bit, the phone's side in memory."""

from __future__ import annotations

import chess
from reedboard.ble.chesslink_ble import parity_checked
from reedboard.ble.peripheral import Connection
from reedboard.link.chesslink import encode

from tests.ble.phone_board import PHONE, MemoryTransport, PhoneBoard
from tests.link.emulated import chesslink_lights, chesslink_replies, status_fen

# Reports on a change that 5 scans saw, as the Millennium apps set the board.
SETUP = ("V", "W0207", "S")


def write(board: PhoneBoard, transport: MemoryTransport, *texts: str) -> list[str]:
    """The central's messages, each with its parity bits; the board's replies."""
    transport.chesslink.clear()
    for text in texts:
        transport.write(encode(text, parity_bit=True), service="chesslink")
    board.run(50)
    return replies(transport)


def replies(transport: MemoryTransport) -> list[str]:
    data = bytes(transport.chesslink)
    transport.chesslink.clear()
    assert all(bin(b).count("1") % 2 == 1 for b in data), "every byte with odd parity"
    return chesslink_replies(data)


def connected() -> tuple[PhoneBoard, MemoryTransport]:
    transport = MemoryTransport()
    board = PhoneBoard(transport)
    board.run(50)
    transport.incoming.append(Connection(PHONE, "00:AA:00:00:00:02", True))
    return board, transport


def test_a_game_both_ways_as_a_chesslink_app_sees_it() -> None:
    b, t = connected()
    version, _ack, status = write(b, t, *SETUP)
    assert version == "v0105"
    assert status_fen(status) == chess.STARTING_BOARD_FEN
    game = chess.Board()
    for uci, lit_by_app in (("e2e4", False), ("e7e5", True), ("g1f3", False), ("b8c6", True)):
        if lit_by_app:
            # The app lights the move it wants made; the board shows it, the player makes it.
            write(b, t, chesslink_lights({uci[:2]: 0xFF, uci[2:]: 0xFF}).decode())
            assert b.app.board_game is not None and b.app.board_game.arbiter.view().hint
        b.move(uci[:2], uci[2:])
        game.push_uci(uci)
        statuses = [r for r in replies(t) if r.startswith("s")]
        assert status_fen(statuses[-1]) == game.board_fen()
    assert [m.uci() for m in b.game.moves] == ["e2e4", "e7e5", "g1f3", "b8c6"]


def test_bad_parity_and_bad_check_digits_are_dropped() -> None:
    b, t = connected()
    write(b, t, "W0201")  # no reports but answers: what comes back answers a message
    good = encode("S", parity_bit=True)
    flipped = bytes([good[0] ^ 0x80]) + good[1:]  # S's parity bit wrong
    assert parity_checked(flipped)[1] == 1
    t.write(flipped, service="chesslink")
    t.write(encode("V", parity_bit=True)[:1] + b"\xb0\xb0", service="chesslink")  # V 00: bad check
    b.run(50)
    assert replies(t) == []
    assert b.phone.chesslink.parity_errors == 1
    assert write(b, t, "V") == ["v0105"]  # the next good message is answered
    b.move("d2", "d4")
    assert len(b.game) == 1
