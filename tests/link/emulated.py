"""Test helpers for the emulations: tiny client-side decoders written from the protocols'
descriptions (not from the board's codecs), and a board played in-process from an event
script, with the client's bytes fed to it and every byte it writes kept."""

from __future__ import annotations

from dataclasses import dataclass

import chess
from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.board_game import BoardGame, Settings
from reedboard.hal.clock import VirtualClock
from reedboard.link.emulation import Emulated, EmulatedEndpoint
from reedboard.link.port import LinkPort
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game

DGT_LETTERS = ".PRNBKQprnbkq"


class FakeLink:
    def __init__(self, incoming: bytes) -> None:
        self.incoming = incoming
        self.out = bytearray()

    def read(self, wait_s: float = 0.0) -> bytes:
        data, self.incoming = self.incoming, b""
        return data

    def write(self, data: bytes) -> None:
        self.out += data


class TimedLink(FakeLink):
    """A `FakeLink` that notes the board time of each write."""

    def __init__(self, incoming: bytes, clock: VirtualClock) -> None:
        super().__init__(incoming)
        self.clock = clock
        self.writes: list[tuple[int, bytes]] = []

    def write(self, data: bytes) -> None:
        super().write(data)
        if data:
            self.writes.append((self.clock.now_ms(), data))


def emulated_app(
    protocol: Emulated,
    script_text: str,
    link: LinkPort,
    clock: VirtualClock | None = None,
    scan_hz: float = 200.0,
) -> App:
    """A board that plays the script on a virtual clock and speaks `protocol` on `link`
    (a timed game when the script has `@clock`), scanning `scan_hz` times a second. Its
    switches are read directly: an emulation speaks of what the board saw, whatever the
    wiring (the simulated matrix was half of each turn's CPU)."""
    script = parse_script(script_text)
    source = scripted_board(script, electrical=False)
    emulation = EmulatedEndpoint(protocol, "test")

    def watch(board_game: BoardGame, now: int) -> None:
        emulation.observe(board_game.game.position, board_game.debouncer.occupancy, now)

    return App(
        Sensing(source, scan_hz=scan_hz, source=source),
        clock or VirtualClock(),
        link=HostLink(link, endpoint=lambda _id: emulation, watch=watch),
        game=GameSetup(
            start=Game(script.start),
            settings=None if script.clock is None else Settings(time_control=script.clock),
        ),
    )


def play(protocol: Emulated, script_text: str, client: bytes) -> bytes:
    """Run the board through the script; the client's bytes arrive at once. Returns all
    the board wrote."""
    link = FakeLink(client)
    emulated_app(protocol, script_text, link).run(until_done=True)
    return bytes(link.out)


def play_timed(
    protocol: Emulated, script_text: str, client: bytes, scan_hz: float = 200.0
) -> list[tuple[int, bytes]]:
    """As `play`, but each write with the board time it was made at."""
    clock = VirtualClock()
    link = TimedLink(client, clock)
    emulated_app(protocol, script_text, link, clock, scan_hz).run(until_done=True)
    return link.writes


# ----- DGT, as a client reads it -----


def dgt_messages(data: bytes) -> list[tuple[int, bytes]]:
    """(id, data) of each message; the length counts the 3 header bytes."""
    messages = []
    i = 0
    while i < len(data):
        kind = data[i]
        assert kind & 0x80, f"byte {i} is not a message id: {data[i : i + 8].hex()}"
        size = data[i + 1] << 7 | data[i + 2]
        messages.append((kind, data[i + 3 : i + size]))
        i += size
    return messages


class DgtClient:
    """Keeps the board as a DGT client does: 64 codes, index 0 = a8, 63 = h1."""

    def __init__(self) -> None:
        self.codes = [0] * 64

    def feed(self, data: bytes) -> list[tuple[str, int]]:
        """Apply the messages; returns the field updates as (square name, code)."""
        updates = []
        for kind, body in dgt_messages(data):
            if kind == 0x86:
                self.codes = list(body)
            elif kind == 0x8E:
                self.codes[body[0]] = body[1]
                updates.append((dgt_name(body[0]), body[1]))
        return updates

    def board_fen(self) -> str:
        board = chess.Board(None)
        for index, code in enumerate(self.codes):
            if code:
                square = chess.square(index % 8, 7 - index // 8)
                board.set_piece_at(square, chess.Piece.from_symbol(DGT_LETTERS[code]))
        return board.board_fen()


@dataclass(frozen=True)
class DgtClockTimes:
    """A `BWTIME` (0x8D) message's body as DGT's protocol description lays it out: the
    right player's hours (low 4 bits, flag in bit 4), minutes and seconds in BCD, the
    same for the left player, then the status byte."""

    right_s: int
    left_s: int
    right_flag: bool
    left_flag: bool
    running: bool
    right_high: bool
    left_turn: bool
    right_turn: bool
    no_clock: bool


def dgt_clock_times(body: bytes) -> DgtClockTimes:
    assert len(body) == 7, body.hex()
    assert body[0] & 0x0F != 0x0A and body[3] & 0x0F != 0x0A, "an acknowledgement"

    def seconds(at: int) -> int:
        hours = body[at] & 0x0F
        minutes = (body[at + 1] >> 4) * 10 + (body[at + 1] & 0x0F)
        secs = (body[at + 2] >> 4) * 10 + (body[at + 2] & 0x0F)
        assert hours <= 9 and minutes <= 59 and secs <= 59, body.hex()
        return hours * 3600 + minutes * 60 + secs

    status = body[6]
    return DgtClockTimes(
        right_s=seconds(0),
        left_s=seconds(3),
        right_flag=bool(body[0] & 0x10),
        left_flag=bool(body[3] & 0x10),
        running=bool(status & 0x01),
        right_high=bool(status & 0x02),
        left_turn=bool(status & 0x08),
        right_turn=bool(status & 0x10),
        no_clock=bool(status & 0x20),
    )


def _is_ack(body: bytes) -> bool:
    return body[0] & 0x0F == 0x0A or body[3] & 0x0F == 0x0A


def dgt_clocks(data: bytes) -> list[DgtClockTimes]:
    """Every `BWTIME` in `data` that carries times, decoded."""
    bodies = [body for kind, body in dgt_messages(data) if kind == 0x8D]
    return [dgt_clock_times(body) for body in bodies if not _is_ack(body)]


def dgt_clock_acks(data: bytes) -> list[tuple[int, int, int, int]]:
    """Every clock acknowledgement in `data`: (ack0, ack1, ack2, ack3), each rebuilt
    from the low 7 bits of its byte and its high bit from the fourth byte (ack0, ack1)
    or the first (ack2, ack3), as DGT's description builds them."""
    acks = []
    for kind, b in dgt_messages(data):
        if kind == 0x8D and _is_ack(b):
            acks.append(
                (
                    (b[1] & 0x7F) | (b[3] << 3 & 0x80),
                    (b[2] & 0x7F) | (b[3] << 2 & 0x80),
                    (b[4] & 0x7F) | (b[0] << 3 & 0x80),
                    (b[5] & 0x7F) | (b[0] << 2 & 0x80),
                )
            )
    return acks


def dgt_name(index: int) -> str:
    return chess.square_name(chess.square(index % 8, 7 - index // 8))


def dgt_index(name: str) -> int:
    square = chess.parse_square(name)
    return (7 - chess.square_rank(square)) * 8 + chess.square_file(square)


# ----- ChessLink, as a client reads it -----

REPLY_SIZES = {"s": 64, "v": 4, "l": 0, "x": 0, "w": 4, "r": 4}


def chesslink_message(text: str) -> bytes:
    check = 0
    for char in text:
        check ^= ord(char)
    return f"{text}{check:02X}".encode("ascii")


def chesslink_replies(data: bytes) -> list[str]:
    """The board's messages (without check digits), each checked; bit 7 ignored."""
    text = bytes(b & 0x7F for b in data).decode("ascii")
    replies = []
    i = 0
    while i < len(text):
        size = REPLY_SIZES[text[i]]
        body, check = text[i : i + 1 + size], text[i + 1 + size : i + 3 + size]
        value = 0
        for char in body:
            value ^= ord(char)
        assert int(check, 16) == value, f"bad check digits in {body}{check}"
        replies.append(body)
        i += 3 + size
    return replies


def status_fen(status: str) -> str:
    """A status (`s` and 64 characters: h1, g1 ... a1, h2 ... a8) as a board FEN."""
    board = chess.Board(None)
    for index, char in enumerate(status[1:]):
        if char != ".":
            square = chess.square(7 - index % 8, index // 8)
            board.set_piece_at(square, chess.Piece.from_symbol(char))
    return board.board_fen()


def chesslink_lights(pattern: dict[str, int], slot_time: int = 0x20) -> bytes:
    """An `L` message lighting the four corners of each named square with its pattern
    byte (a corner two squares share takes the later one's)."""
    patterns = [0] * 81
    for name, byte in pattern.items():
        square = chess.parse_square(name)
        file, rank = chess.square_file(square), chess.square_rank(square)
        for f in (file, file + 1):
            for r in (rank, rank + 1):
                patterns[(8 - f) * 9 + r] = byte  # LED 0 at h1, 8 at h8, 72 at a1
    return chesslink_message(f"L{slot_time:02X}" + "".join(f"{p:02X}" for p in patterns))
