"""Millennium ChessLink over Bluetooth LE: the board's one ChessLink codec
(`link.chesslink`, driven by `link.emulation` as on a serial line) carried by the
Microchip "transparent UART" GATT service that the Millennium apps look for. Pure.

On the serial line the UART checks each byte's odd parity; over Bluetooth the bytes
carry their parity bit as they are, so it is checked here: a byte whose parity is wrong
becomes a character no ChessLink message holds, and the message it was part of fails
the codec's check digits and is dropped, as a serial port's parity error would have it.
What the board sends is cut into notifications of at most `CHUNK` bytes, the payload of
the smallest ATT MTU (23), which every central takes.
"""

from __future__ import annotations

from typing import Final

from reedboard.link.board_messages import Outgoing
from reedboard.link.emulation import EmulatedEndpoint
from reedboard.link.messages import Command
from reedboard.rules.game import Game
from reedboard.rules.squares import Bitboard

SERVICE_UUID: Final = "49535343-fe7d-4ae5-8fa9-9fafd205e455"
NOTIFY_UUID: Final = "49535343-1e4d-4bd9-ba61-23c647249616"  # the module's TX
WRITE_UUID: Final = "49535343-8841-43f4-a8d4-ecbe34729bb3"  # the module's RX
CHUNK: Final = 20
DAMAGED: Final = 0x7F  # DEL: neither a command letter nor a hex digit


def odd_parity(byte: int) -> bool:
    return bin(byte).count("1") % 2 == 1


def parity_checked(data: bytes) -> tuple[bytes, int]:
    """The seven data bits of each byte, a byte with wrong parity as DEL; and how many
    were wrong."""
    out = bytearray()
    wrong = 0
    for byte in data:
        if odd_parity(byte):
            out.append(byte & 0x7F)
        else:
            out.append(DAMAGED)
            wrong += 1
    return bytes(out), wrong


def chunks(data: bytes) -> list[bytes]:
    return [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)]


class ChessLinkOverBle:
    """The ChessLink side of the phone's client: bytes in from the central's writes,
    commands out to the board, reports out in notifications."""

    def __init__(self, session: str) -> None:
        self.endpoint = EmulatedEndpoint("chesslink", session, parity_bit=True)
        self.parity_errors = 0

    def received(self, data: bytes) -> list[Command]:
        clean, wrong = parity_checked(data)
        self.parity_errors += wrong
        return self.endpoint.receive_data(clean)

    def hear(self, message: Outgoing) -> None:
        self.endpoint.send(message)

    def observe(self, game: Game, sensors: Bitboard, now_ms: int) -> None:
        self.endpoint.observe(game.position, sensors, now_ms)

    def to_send(self) -> list[bytes]:
        return chunks(self.endpoint.data_to_send())
