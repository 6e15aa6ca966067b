"""The host's connection holds its port at most once: opened again, the port it still
holds is closed first, so the host never finds its own port busy."""

from __future__ import annotations

from reedboard_host.connection import BoardConnection

from tests.host.fake_peer import FakePeer


def test_a_connection_opened_again_does_not_lock_itself_out() -> None:
    with FakePeer("silent") as peer:
        connection = BoardConnection(peer.path)
        try:
            connection.open_line()
            connection.open_line()  # pyserial's exclusive lock is the first port's
        finally:
            connection.close()
        again = BoardConnection(peer.path)
        try:
            again.open_line()  # nothing left holding it once closed
        finally:
            again.close()
