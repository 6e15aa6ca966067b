"""The pty a test hands a program by its own path: the path reaches the pty while the
test holds it, and nothing at all once it is closed, whoever has its number by then."""

from __future__ import annotations

import os

import pytest

from tests.support.linked_pty import LinkedPty


def test_the_path_reaches_the_pty() -> None:
    with LinkedPty() as line:
        fd = os.open(line.path, os.O_RDWR | os.O_NOCTTY)
        try:
            os.write(fd, b"ping")
            assert os.read(line.master, 16) == b"ping"
            os.write(line.master, b"pong")
            assert os.read(fd, 16) == b"pong"
        finally:
            os.close(fd)


def test_a_closed_ptys_path_never_reaches_the_next_pty_of_its_number() -> None:
    line = LinkedPty()
    line.close()
    # The kernel hands the freed number to the next pty (another test's, unless another
    # program took it first): the path must not lead there.
    master, slave = os.openpty()
    try:
        with pytest.raises(FileNotFoundError):
            os.open(line.path, os.O_RDWR | os.O_NOCTTY)
    finally:
        os.close(master)
        os.close(slave)
