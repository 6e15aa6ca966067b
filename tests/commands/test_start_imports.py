"""A board loads only what its configuration uses. A Pi Zero 2 W spends seconds importing
paho-mqtt (with ssl, http and email), asyncio and the web server, so `reedboard --help`
loads no board at all, and `reedboard run` reaches its first scan without the broker's
client, the simulator's libraries, espeak-ng's adapter or the serial port's finder unless
it is given them. Each case runs in a fresh interpreter, as a board starts; the figures
themselves are bench/startup.py's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# What no board needs to start, unless it is configured to: the broker's client and what
# it brings, the simulator's, a voice's (espeak-ng, the phrasebooks), a port finder's.
NEVER_AT_START = (
    "paho",
    "ssl",
    "email",
    "http",
    "urllib.request",
    "asyncio",
    "aiohttp",
    "webbrowser",
    "subprocess",
    "serial.tools",
    "tomllib",
    "reedboard.link.mqtt_client",
    "reedboard.hal.espeak",
    "reedboard.speaking",
    "reedboard.voice.languages",
    "reedboard.simweb",
)
# What the board's first scan does not wait for: a Pi Zero 2 W takes about a quarter of a
# second to import `dataclasses` (with `inspect`) and create the configuration's classes
# as dataclasses, and a fifth for argparse's `shutil` (bench/startup.py).
# (`pathlib` is left out of the board's own path too, but a development install's import
# hook loads it first, so only bench/startup.py on an installed copy can show it.)
# Nor for argparse and the other commands' modules: the board's plain command line is read
# without them (reedboard.plain_arguments), another fifth of a second there; nor for the
# log (`logging`, with `traceback`), set up after the first scan.
NOT_BEFORE_THE_FIRST_SCAN = (
    "dataclasses",
    "inspect",
    "shutil",
    "argparse",
    "gettext",
    "logging",
    "traceback",
    "reedboard.command_line",
    "reedboard.hal.setup_trouble",
    "reedboard.commands.sim",
    "reedboard.commands.replay",
    "reedboard.rules.attacks",
)
# `reedboard --help` lists the commands: none of their work, rules or journal, and no log
# (`logging` with `traceback`: a tenth of a second at a Zero 2 W's speed).
NOT_FOR_HELP = (
    *NEVER_AT_START,
    "sqlite3",
    "serial",
    "reedboard.rules",
    "reedboard.app",
    "logging",
    "traceback",
)

# Runs the command line; `reedboard run` stops right after the board's start-up scan (the
# loop's start, before its first turn) and prints what was imported by then.
HARNESS = """
import json, os, sys
from reedboard import cli

def dump():
    sys.stdout.flush()
    os.write(1, ("\\n" + json.dumps(sorted(sys.modules))).encode())
    os._exit(0)  # no clean-up: a broker's client would wait for its acknowledgements

argv = sys.argv[1:]
if argv[0] == "first-scan":  # `reedboard run ...`, stopped at its first read of the matrix
    from reedboard.hal import scan_ahead

    def first_read(self, scanner):
        scanner.scan()
        dump()

    scan_ahead.FirstRead.__init__ = first_read
    cli.main(["run", *argv[1:]])
elif argv[0] == "run" and "--help" not in argv:
    import reedboard.app

    def run(self, stop=None, *, until_done=False):
        self.board_game or self.start()
        dump()

    reedboard.app.App.run = run
    cli.main(argv)
else:
    try:
        cli.main(argv)
    except SystemExit:
        pass
    dump()
"""


def imported(*argv: str) -> set[str]:
    """The modules loaded in a fresh interpreter by the command line `argv`."""
    done = subprocess.run(
        [sys.executable, "-c", HARNESS, *argv], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.rsplit("\n", 1)[-1]))


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    """Which of `names` (a package counts with its submodules) are among `modules`."""
    return [n for n in names if any(m == n or m.startswith(n + ".") for m in modules)]


@pytest.mark.parametrize("argv", [("--help",), ("run", "--help"), ("sim", "--help")])
def test_help_loads_no_board(argv: tuple[str, ...]) -> None:
    modules = imported(*argv)
    assert "reedboard.commands.run" in modules  # every command's arguments are there
    assert loaded(modules, NOT_FOR_HELP) == []


def test_a_fake_board_starts_without_what_it_does_not_use() -> None:
    modules = imported("run", "--fake")
    assert "reedboard.rules.attacks" in modules  # the board did start: its rules are there
    assert loaded(modules, NEVER_AT_START) == []


def test_a_board_given_a_broker_loads_its_client() -> None:
    # The same harness sees an import when there is one: the broker's client, for a board
    # that publishes (the broker is not there; the process ends before it would matter).
    modules = imported("run", "--fake", "--mqtt", "mqtt://127.0.0.1:9")
    assert loaded(modules, ("paho", "reedboard.link.mqtt_client")) == [
        "paho",
        "reedboard.link.mqtt_client",
    ]


def test_the_first_scan_waits_for_no_dataclass() -> None:
    modules = imported("first-scan", "--fake")
    assert "reedboard.hal.scan_ahead" in modules  # the harness did stop at the first scan
    assert loaded(modules, NOT_BEFORE_THE_FIRST_SCAN) == []


def test_a_boards_file_is_read_before_the_first_scan_without_tomllib() -> None:
    # A board starts with its file (`--config`, as the service runs it): a plain one, as
    # board.example.toml is written, is read without tomllib (reedboard.plain_toml).
    example = str(Path(__file__).resolve().parents[2] / "board.example.toml")
    modules = imported("first-scan", "--fake", "--config", example)
    assert "reedboard.hal.scan_ahead" in modules
    assert loaded(modules, ("tomllib", *NOT_BEFORE_THE_FIRST_SCAN)) == []
