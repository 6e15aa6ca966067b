"""The log lines a test reads: the messages pytest's `caplog` caught from one package."""

from __future__ import annotations

import pytest


def logged(caplog: pytest.LogCaptureFixture, package: str) -> list[str]:
    """The messages logged under `package` (a logger name, or the first part of one)."""
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == package or record.name.startswith(f"{package}.")
    ]
