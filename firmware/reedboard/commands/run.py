"""`reedboard run`: the board itself.

    reedboard run [--config FILE] [--serial URL] [--journal FILE] [--protocol P]
    reedboard run --fake [--script SCRIPT] [--speed X] [--serial URL] [--until-done]
    reedboard run --fake --random-game SEED [--plies N] [--speed X] [--until-done]

On the Pi it scans the GPIO matrix; with `--fake` a fake matrix, played from an event
script if one is given, or a random legal game that the human model plays from a seed
(`--random-game SEED`). `--speed X` runs the board's clock X times faster than real time,
so every timing rule holds in the board's own milliseconds and the script's changes come
at their times divided by X. Without `--serial`, a fake board prints its effects as JSON
Lines on stdout. SIGINT or SIGTERM ends it cleanly, exit status 0. What stops it at start
is one line on stderr: status 2 for a bad argument, config or script, 78 (NEEDS_A_PERSON)
for a Pi not set up for the board, 1 for anything else. `--protocol dgt` or
`chesslink` speaks the DGT or Millennium ChessLink protocol on the link instead of the
board's own, at that board's serial settings (docs/emulation.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from reedboard.argument_types import number_in, whole_number_in
from reedboard.plain_arguments import plain_values

if TYPE_CHECKING:
    import argparse
    import logging

DEFAULT_JOURNAL = "/var/lib/reedboard/journal.sqlite"
# The human model's game length for --random-game (sim.whole_games.RANDOM_GAME_PLIES, which
# a test keeps equal): written here so that `--help` loads none of the model.
RANDOM_GAME_PLIES = 160

# The options, as argparse's add_argument takes them: argparse's parser is built from
# them, and the board's plain command line is read with them without argparse
# (`plain_command_line`).
BOARD_OPTIONS: dict[str, Mapping[str, Any]] = {
    "--config": {"metavar": "FILE", "help": "board TOML file (default: built-in)"},
    "--serial": {"metavar": "URL", "help": "link to the host: device, pty or URL"},
    "--journal": {
        "metavar": "FILE",
        "help": f"SQLite journal (default {DEFAULT_JOURNAL}; with --fake none unless given)",
    },
    "--mode": {"choices": ("casual", "strict"), "help": "touch-move rules"},
    "--settle-ms": {
        "type": whole_number_in(1, 60_000),
        "metavar": "N",
        "help": "stillness before deciding (default: the config's)",
    },
    "--board-id": {"help": "the name the host and the broker see (default: reedboard)"},
    "--mqtt": {
        "metavar": "URL",
        "help": "publish the game to this MQTT broker too: mqtt://HOST[:PORT] or mqtts://...",
    },
    "--ble": {
        "action": "store_true",
        "help": "be a Bluetooth LE board for phone apps too (CPP; docs/ble.md), as [ble] enabled",
    },
    "--web": {
        "metavar": "HOST:PORT",
        "help": "serve the board's page here, or 'off' (default: [web], 0.0.0.0:80 on a board,"
        " 127.0.0.1:0 with --fake; port 0: a free one)",
    },
    "--opponent": {
        "metavar": "WHO",
        "help": "who plays the other side: person, engine, engine:LEVEL (1-20), engine:elo=N, "
        "with :white or :black for the engine's side; lichess, lichess:seek:MIN+INC, "
        "lichess:challenge:USER (docs/opponents.md)",
    },
    "--protocol": {
        "choices": ("native", "dgt", "chesslink"),
        "default": "native",
        "help": "the link's language: the board's own, or DGT or ChessLink for their software",
    },
}
FAKE_BOARD_OPTIONS: dict[str, Mapping[str, Any]] = {
    "--fake": {"action": "store_true", "help": "a fake matrix instead of the GPIO"},
    "--script": {"metavar": "SCRIPT", "help": "play this event script on it"},
    "--random-game": {
        "type": whole_number_in(0, 2**32 - 1),
        "metavar": "SEED",
        "help": "play a random legal game, chosen and played by the human model from SEED",
    },
    "--plies": {
        "type": whole_number_in(1, 1000),
        "default": RANDOM_GAME_PLIES,
        "metavar": "N",
        "help": "the random game's plies at most",
    },
    "--speed": {
        "type": number_in(0.001, 1000),
        "default": 1.0,
        "metavar": "X",
        "help": "clock speed-up",
    },
    "--until-done": {"action": "store_true", "help": "exit once the script is over and decided"},
    "--print": {"action": "store_true", "help": "print effects as JSON Lines"},
}


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
