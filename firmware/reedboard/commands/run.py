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

import argparse
from typing import Any

from reedboard.command_line import example, number_in, whole_number_in

DEFAULT_JOURNAL = "/var/lib/reedboard/journal.sqlite"
# The human model's game length for --random-game (sim.whole_games.RANDOM_GAME_PLIES, which
# a test keeps equal): written here so that `--help` loads none of the model.
RANDOM_GAME_PLIES = 160


def register(subparsers: Any) -> None:
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
    parser.add_argument("--config", metavar="FILE", help="board TOML file (default: built-in)")
    parser.add_argument("--serial", metavar="URL", help="link to the host: device, pty or URL")
    parser.add_argument(
        "--journal",
        metavar="FILE",
        help=f"SQLite journal (default {DEFAULT_JOURNAL}; with --fake none unless given)",
    )
    parser.add_argument("--mode", choices=("casual", "strict"), help="touch-move rules")
    parser.add_argument(
        "--settle-ms",
        type=whole_number_in(1, 60_000),
        metavar="N",
        help="stillness before deciding (default: the config's)",
    )
    parser.add_argument(
        "--board-id", help="the name the host and the broker see (default: reedboard)"
    )
    parser.add_argument(
        "--mqtt",
        metavar="URL",
        help="publish the game to this MQTT broker too: mqtt://HOST[:PORT] or mqtts://...",
    )
    parser.add_argument(
        "--protocol",
        choices=("native", "dgt", "chesslink"),
        default="native",
        help="the link's language: the board's own, or DGT or ChessLink for their software",
    )
    parser.add_argument(
        "--opponent",
        metavar="WHO",
        help="who plays the other side: person, engine, engine:LEVEL (1-20), engine:elo=N, "
        "with :white or :black for the engine's side (docs/opponents.md)",
    )
    fake = parser.add_argument_group("fake board")
    fake.add_argument("--fake", action="store_true", help="a fake matrix instead of the GPIO")
    fake.add_argument("--script", metavar="SCRIPT", help="play this event script on it")
    fake.add_argument(
        "--random-game",
        type=whole_number_in(0, 2**32 - 1),
        metavar="SEED",
        help="play a random legal game, chosen and played by the human model from SEED",
    )
    fake.add_argument(
        "--plies",
        type=whole_number_in(1, 1000),
        default=RANDOM_GAME_PLIES,
        metavar="N",
        help="the random game's plies at most",
    )
    fake.add_argument(
        "--speed", type=number_in(0.001, 1000), default=1.0, metavar="X", help="clock speed-up"
    )
    fake.add_argument(
        "--until-done", action="store_true", help="exit once the script is over and decided"
    )
    fake.add_argument("--print", action="store_true", help="print effects as JSON Lines")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # The matrix is opened and read first, on a thread, while the board's parts load: a
    # Pi Zero 2 W spends seconds loading them, and what the players do meanwhile must
    # reach the game. `reedboard --help` and the other commands load none of it.
    from reedboard.commands.first_scan import open_first
    from reedboard.errors import ReedboardError

    try:
        first = open_first(args)
    except ReedboardError as error:
        from reedboard.commands.run_board import board_failed

        return board_failed(error)
    if first is None:
        from reedboard.commands.run_board import run_board

        return run_board(args)
    try:
        with first.ahead.start():  # stopped whatever happens, and by the loop once it starts
            from reedboard.commands.run_board import run_board

            return run_board(args, first)
    finally:
        first.close()
