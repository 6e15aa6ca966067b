"""A whole game through each emulation over a real pseudo-terminal: `reedboard run --fake
--script ... --protocol dgt|chesslink --serial PTY` with a test client on the other end,
and `reedboard-host emulate dgt|chesslink` in front of a board on its own protocol."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import chess
import pytest
from reedboard.link.emulation import Emulated
from reedboard.reader.view import BoardView
from reedboard.rules.position import Position
from reedboard_host.emulate import emulate_on_pty

from tests.app.games import move_lines
from tests.children import child, stop
from tests.host.running_board import RunningBoard, host_command
from tests.link.emulated import (
    DgtClient,
    chesslink_lights,
    chesslink_message,
    chesslink_replies,
    dgt_messages,
    status_fen,
)
from tests.link.held_line import HeldLine
from tests.support.linked_pty import LinkedPty

pytestmark = pytest.mark.timeout(150)  # a whole game through an emulation, with its own 60 s limit

# Castling on both sides, en passant, captures, a check.
MOVES = [
    "e2e4",
    "g8f6",
    "e4e5",
    "d7d5",
    "e5d6",
    "e7d6",
    "g1f3",
    "f8e7",
    "f1c4",
    "e8g8",
    "e1g1",
    "b8c6",
    "c4f7",
    "f8f7",
]


def _final() -> str:
    board = chess.Board()
    for uci in MOVES:
        board.push_uci(uci)
    return board.board_fen()


@contextmanager
def _scripted_board(
    protocol: str, *, speed: int
) -> Iterator[tuple[LinkedPty, subprocess.Popen[str]]]:
    """`reedboard run --fake --script -` emulating `protocol` on a pty, started (its
    script's headers sent, the standard start) and stopped whatever happens; the test
    writes the script's lines to its stdin."""
    with (
        LinkedPty() as line,
        child(
            [sys.executable, "-m", "reedboard.cli", "run", "--fake", "--script", "-",
             "--speed", str(speed), "--serial", line.path, "--protocol", protocol,
             "--web", "off"],
            stdin=subprocess.PIPE, text=True,
        ) as board,
    ):  # fmt: skip
        assert board.stdin is not None
        board.stdin.write("@start standard\n\n")  # the headers end: the board starts
        board.stdin.flush()
        yield line, board


def _run_game(
    protocol: str,
    talk: Callable[[bytes], bytes],
    ready: Callable[[bytes], bool],
    done: Callable[[bytes], bool],
) -> None:
    """Start the board on a pty; `talk(received)` returns what the client sends next. The
    game is played (its lines handed to the board, `--script -`) once the client is
    `ready` (it has what it asked for at its start), so a client slow to get there on a
    loaded machine still sees every move. Fails if the client is not `done` in time."""
    received = b""
    with _scripted_board(protocol, speed=40) as (line, board):
        assert board.stdin is not None
        played = False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (played and done(received)):
            ready_to_read, _, _ = select.select([line.master], [], [], 0.1)
            if ready_to_read:
                received += os.read(line.master, 65536)
            if not played and ready(received):
                board.stdin.write(_live_lines(MOVES))
                board.stdin.flush()
                played = True
            reply = talk(received)
            if reply:
                os.write(line.master, reply)
        assert played, f"the client was never ready; it read {len(received)} bytes"
        assert done(received), f"the client never saw the game's end; it read {len(received)}"
        assert stop(board) == 0


def _live_lines(moves: list[str]) -> str:
    """The game's lines as a live script's: each `+N` ms after the one before."""
    position, lines, t = Position.standard(), [], 500
    for uci in moves:
        more, t = move_lines(position, uci, t)
        lines += more
        position = position.play(position.parse_uci(uci))
    text, last = "", 0
    for sensor in lines:
        text += f"+{sensor.t_ms - last} {sensor.action} {sensor.what}\n"
        last = sensor.t_ms
    return text


def test_a_whole_game_through_the_dgt_emulation() -> None:
    asked = [0.0]

    def talk(received: bytes) -> bytes:
        # The board opens its port when it starts: ask until it answers, for the board
        # and for field updates from then on.
        if 0x86 in _kinds(received) or time.monotonic() - asked[0] < 0.2:
            return b""
        asked[0] = time.monotonic()
        return bytes((0x40, 0x4D, 0x42, 0x44))

    def done(received: bytes) -> bool:
        client = DgtClient()
        client.feed(_whole_dgt(received))
        return client.board_fen() == _final() and 0x8E in _kinds(received)

    _run_game("dgt", talk, lambda received: 0x86 in _kinds(received), done)


def _kinds(received: bytes) -> list[int]:
    return [kind for kind, _ in dgt_messages(_whole_dgt(received))]


def _whole_dgt(data: bytes) -> bytes:
    """The complete messages at the front of `data`."""
    i = 0
    while i + 3 <= len(data):
        size = data[i + 1] << 7 | data[i + 2]
        if i + size > len(data):
            break
        i += size
    return data[:i]


def test_a_whole_game_through_the_chesslink_emulation() -> None:
    asked = [False]

    def replies(received: bytes) -> list[str]:
        text = bytes(b & 0x7F for b in received).decode("ascii")
        return chesslink_replies(_whole_chesslink(text).encode("ascii"))

    def talk(received: bytes) -> bytes:
        if asked[0] or not replies(received):
            return b""
        asked[0] = True  # it reports on every scan: it is listening
        return chesslink_message("V") + chesslink_message("W0203")

    def ready(received: bytes) -> bool:
        return {"v0105", "w0203"} <= set(replies(received))

    def done(received: bytes) -> bool:
        statuses = [r for r in replies(received) if r.startswith("s")]
        return bool(statuses) and status_fen(statuses[-1]) == _final()

    _run_game("chesslink", talk, ready, done)


def _whole_chesslink(text: str) -> str:
    sizes = {"s": 67, "v": 7, "l": 3, "x": 3, "w": 7, "r": 7}
    i = 0
    while i < len(text) and i + sizes[text[i]] <= len(text):
        i += sizes[text[i]]
    return text[:i]


def test_a_whole_game_through_the_hosts_dgt_emulation() -> None:
    """The board speaks its own protocol; `reedboard-host emulate dgt` makes the DGT board
    on a pty, and a DGT client there sees the whole game, by field updates. The game is
    played once the client is there (it sees the start): a board that played on its own
    clock meanwhile would be over by the time a host slow to start on a loaded machine
    came, and the client would see its end only as a board dump."""
    # The board at 12 times its pace: the game is pushed at once, and the client reads it
    # by the field updates whatever the pace (at 4, two thirds of the test was waiting).
    with RunningBoard(speed=12) as board, _emulation_here(board.port, "dgt") as fd:
        client = _DgtPtyClient(fd)
        client.shows(chess.Board().board_fen())
        asked_at = len(_whole_dgt(client.data))
        position, lines, t = Position.standard(), [], 0
        for uci in MOVES:
            move, t = move_lines(position, uci, t)
            lines += move
            position = position.play(position.parse_uci(uci))
        board.push(lines)
        _committed(board, len(MOVES))
        assert board.moves() == MOVES
        client.shows(_final())
        updates = [kind for kind, _ in dgt_messages(_whole_dgt(client.data)[asked_at:])]
        assert 0x8E in updates and 0x86 not in updates  # field updates, no dump asked for


# Captures, en passant, a promotion with capture, castling on both sides.
SPECIAL = [
    "e2e4",
    "d7d5",
    "e4d5",
    "c7c5",
    "d5c6",
    "g8f6",
    "c6b7",
    "e7e6",
    "b7a8q",
    "f8d6",
    "g1f3",
    "e8g8",
    "f1e2",
    "d8e7",
    "e1g1",
]


def test_a_whole_game_through_the_hosts_chesslink_emulation() -> None:
    """`reedboard-host emulate chesslink` in front of a running board on its own protocol:
    a ChessLink client on the pty shakes hands, gets status reports without asking, and
    after every move of a game with captures, en passant, a promotion and castling its
    board is the game's. Each move is made only once the client agrees with the last."""
    with RunningBoard(speed=4) as board, _emulation_here(board.port, "chesslink") as fd:
        client = _ChessLinkClient(fd)
        client.send("V", "R02", "S")
        replies = client.until(lambda r: "v0105" in r and "r0200" in r and bool(_statuses(r)))
        assert status_fen(_statuses(replies)[0]) == chess.Board().board_fen()
        # Automatic reports, every scan by default: more come without asking.
        client.until(lambda r: len(_statuses(r)) >= 5)
        game = chess.Board()
        position = Position.standard()
        for uci in SPECIAL:
            lines, _end = move_lines(position, uci, 0)
            board.push(lines)
            position = position.play(position.parse_uci(uci))
            game.push_uci(uci)
            _committed(board, len(game.move_stack))
            assert board.moves() == [m.uci() for m in game.move_stack]
            # The reports after the board committed the move come to show the game's board.
            client.status_after(len(client.statuses()), game.board_fen())
        assert game.board_fen() == "Qnb2rk1/p3qppp/3bpn2/8/8/5N2/PPPPBPPP/RNBQ1RK1"
        # The client's LEDs reach the board's lights: squares that are no move are marked,
        # a legal move is shown as the move to carry out.
        os.write(fd, chesslink_lights({"d4": 0xFF, "h3": 0x0F}))
        _lit(board, lambda v: (v.marked, v.marked_blink) == (1 << 27, 1 << 23))
        os.write(fd, chesslink_lights({"b8": 0xFF, "c6": 0xFF}))  # Nc6
        _lit(board, lambda v: v.hint == (57, 42) and not v.marked and not v.marked_blink)


@contextmanager
def _host_emulation(port: str, protocol: str) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """`reedboard-host emulate PROTOCOL` on the board at `port`; yields the client's end
    of its pty and the host's process, and checks that the host ends cleanly and removes
    its link."""
    with tempfile.TemporaryDirectory() as folder:
        link = Path(folder) / protocol
        command = host_command("emulate", protocol, "--pty", str(link), "--port", port)
        with child(command, stderr=subprocess.PIPE, text=True) as host:
            fd = -1
            try:
                deadline = time.monotonic() + 30
                while not link.exists() and time.monotonic() < deadline and host.poll() is None:
                    time.sleep(0.05)  # polling for the host's pty to appear, not timing anything
                fd = os.open(link, os.O_RDWR | os.O_NOCTTY)
                yield fd, host
            finally:
                if fd >= 0:
                    os.close(fd)
                host.send_signal(signal.SIGCONT)  # in case a test left it paused
            assert stop(host) == 0, host.stderr.read() if host.stderr else ""
        assert not link.exists()


@contextmanager
def _emulation_here(port: str, protocol: Emulated) -> Iterator[int]:
    """`reedboard-host emulate PROTOCOL`'s run (`emulate_on_pty`, which the command runs
    as it is) on a thread of the test's, stopped when the block ends: the client's end of
    its pty. The same checks as on the program: it ends without an error and removes its
    link. One program the less to start: the under-promotion tests start the command."""
    with tempfile.TemporaryDirectory() as folder:
        link = Path(folder) / protocol
        stopping = threading.Event()
        failed: list[BaseException] = []

        def run() -> None:
            try:
                emulate_on_pty(protocol, port, str(link), stopping.is_set)
            except BaseException as error:  # the test's thread reports it
                failed.append(error)

        thread = threading.Thread(target=run, name=f"emulate {protocol}", daemon=True)
        thread.start()
        fd = -1
        try:
            deadline = time.monotonic() + 30
            while not link.exists() and thread.is_alive():
                assert time.monotonic() < deadline, "the emulation never made its pty"
                time.sleep(0.02)  # polling for the pty to appear, not timing anything
            assert not failed, failed
            fd = os.open(link, os.O_RDWR | os.O_NOCTTY)
            yield fd
        finally:
            if fd >= 0:
                os.close(fd)
            stopping.set()
            thread.join(30)
        assert not thread.is_alive(), "the emulation did not end when asked"
        assert not failed, failed
        assert not link.exists()


class _ChessLinkClient:
    """A ChessLink client on a pty: sends commands with their check digits and keeps
    every whole message the board sent."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.text = ""

    def send(self, *commands: str) -> None:
        os.write(self.fd, b"".join(chesslink_message(c) for c in commands))

    def until(self, done: Callable[[list[str]], bool], limit_s: float = 60) -> list[str]:
        """Read until `done(replies)`, replies being all whole messages so far; fails
        after `limit_s` (a limit for a stuck run, not a measurement)."""
        deadline = time.monotonic() + limit_s
        while True:
            replies = chesslink_replies(_whole_chesslink(self.text).encode("ascii"))
            if replies and done(replies):
                return replies
            assert time.monotonic() < deadline, f"the client gave up; last: {replies[-3:]}"
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                self.text += bytes(b & 0x7F for b in os.read(self.fd, 65536)).decode("ascii")

    def statuses(self) -> list[str]:
        return _statuses(chesslink_replies(_whole_chesslink(self.text).encode("ascii")))

    def status_after(self, count: int, fen: str) -> None:
        """Wait for a status report beyond the first `count` that shows `fen`."""
        self.until(lambda r: len(_statuses(r)) > count and status_fen(_statuses(r)[-1]) == fen)


def _lit(board: RunningBoard, done: Callable[[BoardView], bool], limit_s: float = 30) -> None:
    """Wait until the board's lights show a view `done` accepts."""
    with board.changed:
        assert board.changed.wait_for(lambda: board.view is not None and done(board.view), limit_s)


def _committed(board: RunningBoard, plies: int, limit_s: float = 60) -> None:
    """Wait until the board's game has `plies` moves (a limit for a stuck run only)."""
    with board.changed:
        assert board.changed.wait_for(lambda: len(board.moves()) >= plies, limit_s)


def _statuses(replies: list[str]) -> list[str]:
    return [r for r in replies if r.startswith("s")]


# ----- a slide's waypoint, with the registers python-mchess sets -----

# V, reports on a change seen by 5 scans, the scan time read, set to 48 x 2.048 = 98.3 ms
# and read back, then the status: python-mchess's configuration when it connects.
MCHESS_SETUP = ("V", "W0207", "R01", "W0130", "R01", "S")
MCHESS_ANSWERS = ["v0105", "w0207", "r0114", "w0130", "r0130"]
WAYPOINT_B3 = "rnbqkbnr/pppppppp/8/8/8/1P6/P1PPPPPP/RNBQKBNR"
AFTER_B4 = "rnbqkbnr/pppppppp/8/8/1P6/8/P1PPPPPP/RNBQKBNR"
# The pawn slides b2-b3-b4 and rests 133 ms on b3 on its way.
SLIDE = [(0, "lift", "b2"), (300, "place", "b3"), (433, "lift", "b3"), (433, "place", "b4")]


def _configured_as_python_mchess(client: _ChessLinkClient) -> int:
    """Send python-mchess's set-up and wait for every answer; returns how many statuses
    came before the one that answers its S (all later ones follow the registers)."""
    client.send(*MCHESS_SETUP)
    replies = client.until(lambda r: "r0130" in r and bool(_statuses(r[r.index("r0130") :])))
    assert [r for r in replies if not r.startswith("s")][-5:] == MCHESS_ANSWERS
    after = replies.index("r0130")
    answer = _statuses(replies[after:])[0]
    # The registers were in effect before the slide: the S answer shows the start.
    assert status_fen(answer) == chess.Board().board_fen()
    return len(_statuses(replies[:after]))


def _waypoint_never_shown(client: _ChessLinkClient, before: int) -> None:
    """Wait for the status after b2b4; none since the set-up may show the pawn on b3."""
    client.until(lambda r: status_fen(_statuses(r)[-1]) == AFTER_B4)
    later = [status_fen(s) for s in client.statuses()[before:]]
    assert WAYPOINT_B3 not in later, later
    assert later[0] == chess.Board().board_fen() and later[-1] == AFTER_B4


def test_a_slides_waypoint_is_not_a_move_for_python_mchess_on_the_board() -> None:
    """`reedboard run --protocol chesslink`: with the registers python-mchess writes, the
    pawn resting 133 ms on b3 on its way to b4 never shows on b3 in a status. The slide
    is played (`--script -`) once the client has set the registers, however long that
    takes on a loaded machine."""
    with _scripted_board("chesslink", speed=10) as (line, board):
        assert board.stdin is not None
        client = _ChessLinkClient(line.master)
        client.until(bool)  # it reports every scan once its port is open: it listens
        before = _configured_as_python_mchess(client)
        lines, last = "", 0
        for t, action, square in SLIDE:
            lines += f"+{t - last} {action} {square}\n"
            last = t
        board.stdin.write(lines)
        board.stdin.flush()
        _waypoint_never_shown(client, before)
        assert stop(board) == 0


def test_a_slides_waypoint_is_not_a_move_for_python_mchess_through_the_host() -> None:
    """`reedboard-host emulate chesslink` in front of a running board: the same slide at
    the board's real pace, the host reporting as the registers ask; the board itself
    takes the move as b2b4."""
    with RunningBoard() as board, _emulation_here(board.port, "chesslink") as fd:
        client = _ChessLinkClient(fd)
        before = _configured_as_python_mchess(client)
        board.push(SLIDE)
        _committed(board, 1)
        assert board.moves() == ["b2b4"]
        _waypoint_never_shown(client, before)


# ----- the promoted piece, whatever order the host hears things in -----

# White's pawn reaches b7; then bxa8=B, an under-promotion with capture.
TO_THE_PROMOTION = ["e2e4", "d7d5", "e4d5", "c7c6", "d5c6", "g8f6", "c6b7", "e7e6"]
UNDER_PROMOTION = "b7a8b"


@pytest.mark.parametrize("protocol", ["dgt", "chesslink"])
def test_an_under_promotion_with_capture_reaches_the_client_through_the_host(
    protocol: str,
) -> None:
    """`reedboard-host emulate`: the `state` the host asked for while the pawn and its
    victim were in the hand arrives in the same read as the promotion's effect (the line
    is held meanwhile, as a busy host reads); the client's board, and the board it asks
    for, show the chosen bishop on a8 right after the move, not the queen of the hand."""
    with (
        RunningBoard(speed=4) as board,
        HeldLine(board.port) as line,
        _host_emulation(line.host_path, protocol) as (fd, host),
    ):
        client: _DgtPtyClient | _ChessLinkPtyClient = (
            _DgtPtyClient(fd) if protocol == "dgt" else _ChessLinkPtyClient(fd)
        )
        game = chess.Board()
        position = Position.standard()
        for uci in TO_THE_PROMOTION:
            lines, _end = move_lines(position, uci, 0)
            board.push(lines)
            position = position.play(position.parse_uci(uci))
            game.push_uci(uci)
            _committed(board, len(game.move_stack))
        client.shows(game.board_fen())
        a8, b7 = chess.A8, chess.B7
        board.push([(0, "choose", "b"), (0, "lift", "a8"), (300, "lift", "b7")])
        _lit(board, lambda v: v.lifted == 1 << a8 | 1 << b7)
        line.hold()
        _until(lambda: b'"type":"state"' in line.held())  # asked with both in the hand
        board.push([(0, "place", "a8")])
        _committed(board, len(game.move_stack) + 1)
        _until(lambda: b'"event":"move"' in line.held())
        # The host reads all that came meanwhile at once: paused while it arrives.
        host.send_signal(signal.SIGSTOP)
        try:
            _until(lambda: _process_state(host.pid) == "T")
            released = line.release()
            _until(lambda: line.handed_over(released))
        finally:
            host.send_signal(signal.SIGCONT)
        game.push_uci(UNDER_PROMOTION)
        assert board.moves() == [m.uci() for m in game.move_stack]
        client.shows(game.board_fen())
        assert client.asks_for_the_board() == game.board_fen()


def _process_state(pid: int) -> str:
    """The state letter of a process (R running, S sleeping, T stopped ...)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rindex(")") + 2]


def _until(done: Callable[[], bool], limit_s: float = 30) -> None:
    deadline = time.monotonic() + limit_s
    while not done():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.01)  # waiting for a condition, not timing anything


class _DgtPtyClient:
    """A DGT client on a pty: asks for the board and for field updates, keeps all it
    reads."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.data = b""
        os.write(fd, bytes((0x42, 0x44)))

    def _read_until(self, done: Callable[[bytes], bool], limit_s: float = 30) -> None:
        deadline = time.monotonic() + limit_s
        while not done(_whole_dgt(self.data)):
            assert time.monotonic() < deadline, f"the client gave up; read {len(self.data)}"
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                self.data += os.read(self.fd, 65536)

    def shows(self, fen: str) -> None:
        """Wait until the board and field updates it read show `fen`."""

        def done(data: bytes) -> bool:
            client = DgtClient()
            client.feed(data)
            return client.board_fen() == fen

        self._read_until(done)

    def asks_for_the_board(self) -> str:
        """Send `42` and return the board its dump shows."""
        mark = len(_whole_dgt(self.data))
        os.write(self.fd, bytes((0x42,)))
        self._read_until(lambda d: any(k == 0x86 for k, _ in dgt_messages(d[mark:])))
        _kind, dump = next(m for m in dgt_messages(_whole_dgt(self.data)[mark:]) if m[0] == 0x86)
        client = DgtClient()
        client.feed(bytes((0x86, 0x00, 0x43)) + dump)
        return client.board_fen()


class _ChessLinkPtyClient(_ChessLinkClient):
    """A ChessLink client that asks for reports on every change."""

    def __init__(self, fd: int) -> None:
        super().__init__(fd)
        self.send("W0203", "S")
        self.until(lambda r: "w0203" in r)

    def shows(self, fen: str) -> None:
        self.until(lambda r: bool(_statuses(r)) and status_fen(_statuses(r)[-1]) == fen)

    def asks_for_the_board(self) -> str:
        """Send `S` and return the board of the status that answers it (with reports on
        a change only, none other comes while nothing moves)."""
        count = len(self.statuses())
        self.send("S")
        self.until(lambda r: len(_statuses(r)) > count)
        return status_fen(self.statuses()[count])
