"""CPP between the board's GATT peripheral and a phone's app over Bluetooth LE, with no
radio: BlueZoo's virtual adapters on a private D-Bus, a bleak central on one of them. The
board is the real App turning on its own thread; the central finds it by its advertised
name, subscribes and plays."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from dbus_fast import BusType, Message
from dbus_fast.aio import MessageBus
from reedboard.ble.chesslink_ble import NOTIFY_UUID, WRITE_UUID
from reedboard.ble.peripheral import Peripheral
from reedboard.ble.phone import SERVICES
from reedboard.link.chesslink import encode

from tests.ble.central import Central, Turning, board_time, move
from tests.ble.mock_bluez import mock_bluez
from tests.ble.phone_board import PhoneBoard
from tests.link.emulated import chesslink_lights, chesslink_replies, status_fen

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"


@pytest.fixture
def board(tmp_path: Path) -> Iterator[PhoneBoard]:
    with mock_bluez(tmp_path / "bluez"):
        peripheral = Peripheral("", SERVICES)
        peripheral.start()
        try:
            board = PhoneBoard(peripheral)
            with Turning(board):
                yield board
        finally:
            peripheral.close()


def test_the_board_advertises_as_reedboard_and_its_adapters_address(board: PhoneBoard) -> None:
    transport = board.phone.transport
    assert isinstance(transport, Peripheral)
    assert transport.name == "reedboard-0001"


def test_a_whole_game_both_ways_over_bluetooth(board: PhoneBoard) -> None:
    async def play() -> None:
        phone = Central("reedboard-0001")
        await phone.connect()
        for command in ("feature moved", "feature msg", "variant chess_960", "variant atomic"):
            await phone.write(command)
        assert [await phone.next() for _ in range(4)] == ["ok", "ok", "ok", "nok"]
        await phone.write(f"begin {START}")
        assert await phone.next() == f"sync {START}"
        replies = iter(["e7e5", "b8c6", "g8f6"])
        for origin, target in (("e2", "e4"), ("f1", "c4"), ("d1", "h5"), ("h5", "f7")):
            await move(board, origin, target, capture=target == "f7")
            assert await phone.next() == f"move {origin}{target}"
            await phone.write("ok")
            reply = next(replies, None)
            if reply is None:
                break
            await phone.write(f"move {reply}")
            await board_time(board, 50)
            await move(board, reply[:2], reply[2:])
            assert await phone.next() == "moved"
        await phone.write("end checkmate")
        await phone.disconnect()

    asyncio.run(play())
    assert [m.uci() for m in board.game.moves] == [
        "e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7",
    ]  # fmt: skip


def test_malformed_writes_are_answered_and_the_round_goes_on(board: PhoneBoard) -> None:
    async def play() -> None:
        phone = Central("reedboard-0001")
        await phone.connect()
        await phone.write(f"begin {START}")
        assert await phone.next() == f"sync {START}"
        for bad, answer in (
            (b"\xc3\x28", "err a command is UTF-8 text"),
            (b"move", "err move needs a move in UCI"),
            (b"begin ppp", "err begin needs a FEN"),
            (b"promote a7a8k", "err promote needs a move in UCI"),
        ):
            await phone.write(bad)
            assert (await phone.next()).startswith(answer)
        await move(board, "d2", "d4")
        assert await phone.next() == "move d2d4"
        await phone.disconnect()

    asyncio.run(play())


def test_a_central_gone_mid_move_resyncs_when_it_comes_back(board: PhoneBoard) -> None:
    after = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"

    async def play() -> None:
        phone = Central("reedboard-0001")
        await phone.connect()
        await phone.write("feature moved")
        await phone.next()
        await phone.write(f"begin {START}")
        await phone.next()
        await move(board, "e2", "e4")
        assert await phone.next() == "move e2e4"
        await phone.write("ok")
        await phone.write("move e7e5")
        await board_time(board, 50)
        board.lift("e7")  # mid-move, the phone goes
        await phone.disconnect()
        await board_time(board, 150)
        board.place("e5")
        await board_time(board, 1500)

    async def back() -> None:
        # The app back, from the phone's other adapter (BlueZoo links two adapters once).
        phone = Central("reedboard-0001", "hci2")
        await phone.connect()
        await phone.write(f"begin {after}")
        assert await phone.next() == f"sync {after}"
        await move(board, "g1", "f3")
        assert await phone.next() == "move g1f3"
        await phone.disconnect()

    asyncio.run(play())
    assert len(board.game) == 2  # the board kept the game, and the central's move
    asyncio.run(back())


def test_a_second_central_is_dropped_while_the_first_plays(board: PhoneBoard) -> None:
    async def play() -> None:
        first = Central("reedboard-0001", "hci1")
        await first.connect()
        await first.write(f"begin {START}")
        assert await first.next() == f"sync {START}"
        second = Central("reedboard-0001", "hci2")
        await second.connect()
        # Its writes are never read: the first central's round goes on as it was.
        await second.write("begin 8/8/8/8/8/8/8/K6k w")
        await second.write("end abort")
        await move(board, "e2", "e4")
        assert await first.until("move ") == "move e2e4"
        # The board asked BlueZ to drop it (BlueZoo 1.0 does not tell the central so).
        assert not await connected("/org/bluez/hci0/dev_00_AA_00_00_00_03")
        await first.write("ok")
        await first.disconnect()

    asyncio.run(play())
    assert [m.uci() for m in board.game.moves] == ["e2e4"]


async def connected(device: str) -> bool:
    """Whether BlueZ has `device` connected, as the board's adapter sees it."""
    bus = await MessageBus(bus_type=BusType.SYSTEM).connect()
    try:
        reply = await bus.call(
            Message(
                destination="org.bluez",
                path=device,
                interface="org.freedesktop.DBus.Properties",
                member="Get",
                signature="ss",
                body=["org.bluez.Device1", "Connected"],
            )
        )
        assert reply is not None
        return bool(reply.body[0].value)
    finally:
        bus.disconnect()


def replies_so_far(raw: bytearray) -> list[str]:
    """The board's ChessLink messages in the notifications so far ([] while the last is
    still arriving in pieces)."""
    try:
        return chesslink_replies(bytes(raw))
    except (ValueError, IndexError, AssertionError):
        return []  # a message cut between notifications: one of its check digits to come


def test_a_chesslink_app_over_bluetooth(board: PhoneBoard) -> None:
    after = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"

    async def play() -> None:
        app = Central("reedboard-0001", write_uuid=WRITE_UUID, notify_uuid=NOTIFY_UUID)
        await app.connect()
        for message in ("V", "W0207", "S"):
            await app.write(encode(message, parity_bit=True))
        while len(replies_so_far(app.raw)) < 3:
            await app.next()
        assert replies_so_far(app.raw)[0] == "v0105"
        await move(board, "e2", "e4")
        await until_status(app, after)
        # The app's move, lit by it on the LEDs; the player makes it.
        lights = chesslink_lights({"e7": 0xFF, "e5": 0xFF})
        await app.write(bytes(b | (0 if bin(b).count("1") % 2 else 0x80) for b in lights))
        while board.app.board_game is None or not board.app.board_game.arbiter.view().hint:
            await board_time(board, 5)  # until the board shows the app's move
        await move(board, "e7", "e5")
        await until_status(app, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR")
        assert all(bin(b).count("1") % 2 == 1 for b in app.raw)
        await app.disconnect()

    asyncio.run(play())
    assert [m.uci() for m in board.game.moves] == ["e2e4", "e7e5"]


async def until_status(app: Central, placement: str) -> None:
    """Until the board's latest ChessLink status shows `placement`."""
    while True:
        now = replies_so_far(app.raw)
        if now and now[-1].startswith("s") and status_fen(now[-1]) == placement:
            return
        await app.next()


def test_set_state_and_time_over_bluetooth(board: PhoneBoard) -> None:
    after = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"

    async def play() -> None:
        phone = Central("reedboard-0001")
        await phone.connect()
        for command in ("feature set_state", "feature time", f"begin {after}"):
            await phone.write(command)
        assert [await phone.next() for _ in range(3)] == [
            "ok",
            "ok",
            "unsync_setible rnbqkbnr/pppppppp/8/8/8/8/PPPP?PPP/RNBQKBNR b",
        ]
        await phone.write("set_state")  # the board lights e2 to clear, e4 to fill
        await move(board, "e2", "e4")
        assert await phone.until("sync ") == f"sync {after}"
        await phone.write("time 300000 297500")
        await phone.write("move e7e5")
        await board_time(board, 50)
        await move(board, "e7", "e5")
        await board_time(board, 1500)
        assert [m.uci() for m in board.game.moves] == ["e7e5"]
        assert board.phone.session.clocks == (300000, 297500)  # told before its move
        await phone.disconnect()

    asyncio.run(play())


def test_the_board_registers_again_when_bluetoothd_restarts(tmp_path: Path) -> None:
    with mock_bluez(tmp_path / "bluez") as bluez:
        peripheral = Peripheral("", SERVICES)
        peripheral.start()
        try:
            board = PhoneBoard(peripheral)
            with Turning(board):

                async def play(adapter: str) -> None:
                    phone = Central("reedboard-0001", adapter)
                    await phone.connect()
                    await phone.write(f"begin {START}")
                    assert await phone.next() == f"sync {START}"
                    await move(board, "e2", "e4")
                    assert await phone.next() == "move e2e4"
                    await phone.write("nok")  # the board takes it back
                    await move(board, "e4", "e2")
                    await board_time(board, 1500)
                    await phone.disconnect()

                asyncio.run(play("hci1"))
                bluez.restart()  # its name leaves the bus and comes back, without the board
                asyncio.run(play("hci1"))  # found, connected, served: registered again
            assert peripheral.registrations == 2
        finally:
            peripheral.close()
