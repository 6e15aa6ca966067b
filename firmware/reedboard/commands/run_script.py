"""The script a fake board plays (`reedboard run --fake`): an event script's file, stdin
read as it comes (`--script -`, played live), or the human model's random game from a
seed (`--random-game`)."""

from __future__ import annotations

import argparse
import sys

from reedboard.errors import ScriptError
from reedboard.replay.live_script import LIVE, LiveScript
from reedboard.replay.script import Script, parse_script


def board_script(args: argparse.Namespace) -> tuple[Script | None, LiveScript | None]:
    """The script to play (None: none) and, for `--script -`, the live input that goes on
    feeding the board once it runs (its headers already read). Raises `ScriptError`."""
    if args.script == LIVE:
        live = LiveScript(sys.stdin)
        return live.headers(), live
    if args.script:
        return _read_script(args.script), None
    if args.random_game is not None:
        # The human model plays it: loaded only by a fake board that asks for one.
        from reedboard.sim.whole_games import random_game_script

        text = random_game_script(args.random_game, max_plies=args.plies).text()
        return parse_script(text), None
    return None, None


def warn(message: str) -> None:
    """A live line that cannot be read, said on stderr: the game goes on."""
    print(f"reedboard run: {message}", file=sys.stderr, flush=True)


def _read_script(path: str) -> Script:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise ScriptError(f"cannot read {path}: {error}") from None
    try:
        return parse_script(text)
    except ScriptError as error:
        raise ScriptError(f"{path}: {error}") from None
