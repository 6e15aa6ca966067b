"""`reedboard run`: the board itself.

    reedboard run [--config FILE] [--serial URL] [--journal FILE] [--protocol P]
    reedboard run --fake [--script SCRIPT|-] [--speed X] [--serial URL] [--until-done]
    reedboard run --fake --random-game SEED [--plies N] [--speed X] [--until-done]

On the Pi it scans the GPIO matrix; with `--fake` a fake matrix, played from an event
script if one is given, or a random legal game that the human model plays from a seed
(`--random-game SEED`); `--script -` reads the script from stdin as it comes, so a
program plays the fake board live (`replay.live_script`). `--speed X` runs the board's
clock X times faster than real time, so every timing rule holds in the board's own
milliseconds and the script's changes come at their times divided by X. Without
`--serial`, a fake board prints its effects as JSON Lines on stdout. SIGINT or SIGTERM
ends it cleanly, exit status 0. What stops it at start is one line on stderr: status 2
for a bad argument, config or script, 78 (NEEDS_A_PERSON) for a Pi not set up for the
board, 1 for anything else. `--protocol dgt` or
`chesslink` speaks the DGT or Millennium ChessLink protocol on the link instead of the
board's own, at that board's serial settings (docs/emulation.md).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from reedboard.commands.run_options import BOARD_OPTIONS, FAKE_BOARD_OPTIONS
from reedboard.plain_arguments import plain_values

if TYPE_CHECKING:
    import argparse
    import logging


def register(subparsers: Any) -> None:
    from reedboard.command_line import example

    parser: argparse.ArgumentParser = subparsers.add_parser(
        "run",
        help="run the board: scan, infer moves, light the LEDs, talk to the host",
        description="Run the board: scan the matrix, infer the moves, light the LEDs and talk "
        "to the host. With --fake, a fake matrix played from an event script.",
        epilog=example(
            "reedboard run --config board.toml",
            "reedboard run --fake --script game.events --speed 10 --print",
            "reedboard run --fake --random-game 7 --mqtt mqtt://localhost --board-id demo",
        ),
    )
    for flag, settings in BOARD_OPTIONS.items():
        parser.add_argument(flag, **settings)
    fake = parser.add_argument_group("fake board")
    for flag, settings in FAKE_BOARD_OPTIONS.items():
        fake.add_argument(flag, **settings)
    parser.set_defaults(run=run)


def plain_command_line(argv: list[str]) -> argparse.Namespace | None:
    """`reedboard run`'s arguments as argparse gives them, read without it when the
    command line is plain (`reedboard.plain_arguments`): the board's service starts
    without loading argparse. None for any other command line, which argparse reads."""
    if argv[:1] != ["run"]:
        return None
    values = plain_values(argv[1:], {**BOARD_OPTIONS, **FAKE_BOARD_OPTIONS})
    if values is None:
        return None
    # The attributes argparse's Namespace would have, which is all a command reads.
    return cast("argparse.Namespace", SimpleNamespace(command="run", **values, run=run))


def run(args: argparse.Namespace) -> int:
    # The matrix is opened and read first, and read on a thread while the board's parts
    # load: a Pi Zero 2 W spends seconds loading them, and what the players do meanwhile
    # must reach the game. The log is set up after that first read, which thus waits for
    # neither argparse nor `logging`. `reedboard --help` and the other commands load none
    # of it.
    from reedboard.commands.first_scan import open_first
    from reedboard.errors import HardwareError, ReedboardError

    try:
        first = open_first(args)
    except ReedboardError as error:
        from reedboard.commands.run_board import board_failed

        logger = _log_to_stderr()
        if isinstance(error, HardwareError) and error.__cause__ is not None:
            # For a report, at debug: where the library failed (before the log was set up).
            logger.debug("what the GPIO library raised", exc_info=error.__cause__)
        return board_failed(error)
    if first is None:
        from reedboard.commands.run_board import run_board

        _log_to_stderr()
        return run_board(args)
    try:
        with first.ahead.start():  # stopped whatever happens, and by the loop once it starts
            _log_to_stderr()
            first.ahead.log_first_read()
            from reedboard.commands.run_board import run_board

            return run_board(args, first)
    finally:
        first.close()


def _log_to_stderr() -> logging.Logger:
    """The board's log on stderr, as every command's (cli.main sets up the others'); this
    module's logger."""
    import logging

    from reedboard.log_setup import log_to_stderr

    log_to_stderr("reedboard")
    return logging.getLogger(__name__)
