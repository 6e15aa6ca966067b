"""Writing to the serial port never waits for the line: what the OS does not take at once
waits in a bounded outbox for later writes, the oldest whole batches dropped when the
reader falls far behind. On a real pty that nobody reads, and one read slowly."""

from __future__ import annotations

import os
import select
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from reedboard.errors import LinkError
from reedboard.link.outbox import Outbox
from reedboard.link.serial_port import SerialPort, open_port
from reedboard_host.emulate import PtyEnd

from tests.app.games import game_script
from tests.link.emulated import chesslink_replies, emulated_app, status_fen

BATCH = 100


@contextmanager
def _pty() -> Iterator[tuple[int, str]]:
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        yield master, os.ttyname(slave)
    finally:
        os.close(master)
        os.close(slave)


def _batch(number: int) -> bytes:
    """A batch that says its own number and shows whether it arrived whole."""
    head = f"<{number:06d}:"
    return (head + "." * (BATCH - len(head) - 1) + ">").encode("ascii")


def _batches(data: bytes) -> list[int]:
    """The numbers of the batches in `data`, which must all be whole and back to back."""
    assert len(data) % BATCH == 0, "a batch was cut"
    numbers = []
    for i in range(0, len(data), BATCH):
        number = int(data[i + 1 : i + 7])
        assert data[i : i + BATCH] == _batch(number), f"batch {number} damaged"
        numbers.append(number)
    return numbers


def _read_all(master: int, port: SerialPort) -> bytes:
    """Read until the port has nothing left to write and the pty nothing left to read.
    The select timeout only waits for bytes already on their way."""
    received = b""
    while True:
        port.write(b"")  # the loop's next turns: the outbox goes on
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            received += os.read(master, 65536)
        elif not port.outbox:
            return received


def test_a_port_nobody_reads_keeps_the_newest_whole_batches_within_its_limit() -> None:
    with _pty() as (master, path):
        port = open_port(path)
        total = 5000  # 500 KB: far more than the pty's buffer holds
        for number in range(total):
            port.write(_batch(number))  # returns at once: the test would hang otherwise
            assert len(port.outbox) <= port.outbox.limit + BATCH
        assert port.outbox.dropped > 0
        numbers = _batches(_read_all(master, port))
        port.close()
    # In order, none twice, the earliest ones (the kernel took them) and the latest ones.
    assert numbers == sorted(set(numbers))
    assert numbers[0] == 0
    assert numbers[-1] == total - 1
    assert len(numbers) * BATCH + port.outbox.dropped == total * BATCH
    assert len(numbers) < total


def test_a_slow_reader_gets_everything_complete_and_in_order() -> None:
    with _pty() as (master, path):
        port = open_port(path)
        port.outbox.limit = 1 << 22  # the whole run fits: nothing may be dropped
        received = b""
        waited = 0
        for number in range(3000):
            port.write(_batch(number))
            waited = max(waited, len(port.outbox))
            if number % 4 == 0:  # the reader takes a little now and then
                ready, _, _ = select.select([master], [], [], 0)
                if ready:
                    received += os.read(master, 64)
        received += _read_all(master, port)
        port.close()
    assert waited > 0, "the pty never filled: the test proves nothing"
    assert port.outbox.dropped == 0
    assert _batches(received) == list(range(3000))


def test_the_outbox_finishes_a_batch_it_began_and_keeps_the_newest() -> None:
    box = Outbox(limit=10)
    box.add(b"aaaaaa")
    box.sent(2)  # "aa" went out: the rest of the batch must follow, or a message is cut
    box.add(b"bbbbbb")
    box.add(b"cccccc")
    assert box.head() == b"aaaa"
    box.sent(4)
    assert box.head() == b"cccccc"  # "bbbbbb" dropped whole
    assert box.dropped == 6
    box.add(b"d" * 50)  # larger than the limit: the newest batch is never dropped
    assert box.head() == b"d" * 50
    box.sent(50)
    assert len(box) == 0 and box.head() == b""


def test_a_chesslink_board_nobody_reads_runs_on_and_the_reader_then_sees_the_game() -> None:
    """The board's own loop on a virtual clock, reporting on every scan to a pty nobody
    reads: it runs to the end of the game (a write that waited would hold it there), and
    the client that finally reads gets whole messages, the last one the final position."""
    moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]
    # Ten seconds of reports first: more than the pty and the outbox hold (asserted below,
    # some are dropped); half a minute of them proved no more, for twice the CPU.
    script = game_script(moves, t0=10_000)
    with _pty() as (master, path):
        port = open_port(path)
        emulated_app("chesslink", script, port).run(until_done=True)
        assert port.outbox.dropped > 0  # it said far more than the pty holds
        received = _read_all(master, port)
        port.close()
    replies = chesslink_replies(received)  # every message whole, its check digits right
    final = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R"
    assert status_fen(replies[-1]) == final


def test_the_hosts_emulated_board_pty_keeps_whole_batches_too(tmp_path: Path) -> None:
    """`reedboard-host emulate`'s end of its pty: a program that reads late gets whole
    messages, the newest last."""
    end = PtyEnd(str(tmp_path / "board"))
    try:
        for number in range(5000):
            end.write(_batch(number))
        assert len(end.outbox) <= end.outbox.limit + BATCH
        fd = os.open(tmp_path / "board", os.O_RDWR | os.O_NOCTTY)
        received = b""
        try:
            while True:
                end.write(b"")
                ready, _, _ = select.select([fd], [], [], 0.2)
                if ready:
                    received += os.read(fd, 65536)
                elif not end.outbox:
                    break
        finally:
            os.close(fd)
    finally:
        end.close()
    numbers = _batches(received)
    assert numbers == sorted(set(numbers))
    assert numbers[0] == 0 and numbers[-1] == 4999


def test_draining_stops_where_the_line_is_full_and_goes_on_later() -> None:
    box = Outbox(limit=100)
    box.add(b"abcdef")
    box.add(b"ghij")
    room = [4]
    line = bytearray()

    def write(data: bytes) -> int:
        taken = data[: room[0]]
        room[0] -= len(taken)
        line.extend(taken)
        return len(taken)

    box.drain(write)
    assert bytes(line) == b"abcd" and len(box) == 6 and box.head() == b"ef"
    room[0] = 100
    box.drain(write)
    assert bytes(line) == b"abcdefghij" and len(box) == 0


def test_a_port_that_cannot_be_opened_is_said_in_a_few_words(tmp_path: Path) -> None:
    # pyserial's text names the port twice around the system's words; one line says it.
    try:
        open_port(str(tmp_path))
    except LinkError as error:
        assert str(error) == f"cannot open serial port {tmp_path}: Is a directory"
    else:
        raise AssertionError("a directory opened as a serial port")
