"""Fixtures the host tests share."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    """Programs a test starts and appends here: killed if still running when it ends,
    whatever happened, and their pipes drained."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            process.kill()
        process.communicate()
