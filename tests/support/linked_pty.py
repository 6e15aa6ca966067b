"""A raw pseudo-terminal that a program opens by a path of the test's own: a link to the
pty in a fresh directory, removed before the pty closes.

A program handed the raw `/dev/pts/N` is safe only if it ends before the pty closes: the
number is free again at once, and another test's next pty takes it. A program left
running (its test failed or timed out) that opens its port again, as a kept link does,
would then take that other test's line and its exclusive lock. Through the link it finds
nothing there instead."""

from __future__ import annotations

import contextlib
import os
import tempfile
import tty


class LinkedPty:
    """`master`: the test's end; `path`: the end a program opens, a link to the pty."""

    def __init__(self, name: str = "port") -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line discipline, before either side opens it
        self._link_dir = tempfile.mkdtemp(prefix="pty-")
        self.path = os.path.join(self._link_dir, name)
        os.symlink(os.ttyname(self._slave), self.path)

    @property
    def slave(self) -> int:
        """The program's end, open here as well so the pty outlives the program's closes."""
        return self._slave

    def close(self) -> None:
        """The path first, then the pty: once closed its number is another test's."""
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        with contextlib.suppress(OSError):
            os.rmdir(self._link_dir)
        for fd in (self.master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> LinkedPty:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
