"""`reedboard run`'s options, as argparse's add_argument takes them: argparse's parser is
built from them (`run.register`), and the board's plain command line is read with them
without argparse (`run.plain_command_line`). The board's assembly reads the defaults
written here (the journal's place) without loading the command's module."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reedboard.argument_types import number_in, whole_number_in

DEFAULT_JOURNAL = "/var/lib/reedboard/journal.sqlite"
# The human model's game length for --random-game (sim.whole_games.RANDOM_GAME_PLIES, which
# a test keeps equal): written here so that `--help` loads none of the model.
RANDOM_GAME_PLIES = 160

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
    "--script": {
        "metavar": "SCRIPT",
        "help": "play this event script on it ('-': read from stdin as it comes, live)",
    },
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
