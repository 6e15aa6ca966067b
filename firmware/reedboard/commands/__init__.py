"""Subcommands of `reedboard`. Each module has `register(subparsers)` and sets `run`."""

from __future__ import annotations

from types import ModuleType

from reedboard.commands import chess960, journal, perft, replay, run, scan, sim

COMMANDS: tuple[ModuleType, ...] = (perft, chess960, replay, journal, scan, run, sim)
