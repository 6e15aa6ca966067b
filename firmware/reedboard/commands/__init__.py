"""Subcommands of `reedboard`. Each module has `register(subparsers)` and sets `run`."""

from __future__ import annotations

from types import ModuleType


def all_commands() -> tuple[ModuleType, ...]:
    """Every command's module, in help's order. Imported when asked, not with the package:
    `reedboard run`'s plain command line needs `run` alone (commands/run.py)."""
    from reedboard.commands import chess960, journal, perft, replay, run, scan, sim

    return (perft, chess960, replay, journal, scan, run, sim)
