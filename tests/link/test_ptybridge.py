"""The pty bridge tells when the board's end has spoken, so that a test starts the host
only once there is a board to answer its handshake, on a clean line or a cut one."""

from __future__ import annotations

import os
import select

from tests.link.ptybridge import PtyBridge

WAIT_S = 30.0  # a generous bound for a loaded machine; the event comes as soon as it can


def _board_writes(bridge: PtyBridge, data: bytes) -> None:
    fd = os.open(bridge.board_path, os.O_RDWR | os.O_NOCTTY)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def test_the_board_has_not_spoken_before_it_writes() -> None:
    """The host's words, relayed to the board's end, are not the board's."""
    with PtyBridge() as bridge:
        board = os.open(bridge.board_path, os.O_RDWR | os.O_NOCTTY)
        host = os.open(bridge.host_path, os.O_RDWR | os.O_NOCTTY)
        try:
            os.write(host, b"hello\n")
            got = b""
            while b"hello" not in got:  # relayed: the bridge has read the host's end
                ready, _, _ = select.select([board], [], [], WAIT_S)
                assert ready, "the host's bytes never reached the board's end"
                got += os.read(board, 100)
            assert not bridge.board_spoke.is_set()
        finally:
            os.close(host)
            os.close(board)


def test_the_board_has_spoken_once_it_writes() -> None:
    with PtyBridge() as bridge:
        _board_writes(bridge, b"alive\n")
        assert bridge.board_spoke.wait(WAIT_S)


def test_the_board_has_spoken_on_a_cut_line_too() -> None:
    """Its bytes are lost on the way, but the board is there: the host may start."""
    with PtyBridge() as bridge:
        bridge.cut.set()
        _board_writes(bridge, b"alive\n")
        assert bridge.board_spoke.wait(WAIT_S)
