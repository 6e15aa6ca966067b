"""Every command's `--help`, over the three command lines (`reedboard`, `reedboard-host`,
`reedboard-relay`) and all their subcommands: no "(default: )" for an option whose
default is empty, and each has an example."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from reedboard import __version__
from reedboard.cli import build_parser as board_parser
from reedboard_host.cli import build_parser as host_parser
from reedboard_relay.cli import parser as relay_parser

BIN = Path(sys.executable).parent


def every_parser() -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for top in (board_parser(), host_parser(), relay_parser()):
        yield top.prog, top
        for action in top._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield f"{top.prog} {name}", sub


HELPS = dict(every_parser())


def test_every_command_line_is_found() -> None:
    assert {"reedboard", "reedboard-host", "reedboard-relay"} <= set(HELPS)
    assert "reedboard-host publish" in HELPS and "reedboard run" in HELPS
    assert len(HELPS) > 20


@pytest.mark.parametrize("name", sorted(HELPS))
def test_no_help_shows_an_empty_default(name: str) -> None:
    text = HELPS[name].format_help()
    assert "(default: )" not in text, text
    assert "example" in text, text


def test_the_relay_says_its_version_and_its_store() -> None:
    done = subprocess.run(
        [str(BIN / "reedboard-relay"), "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.strip() == f"reedboard-relay {__version__}"
    assert "(default: relay.sqlite)" in " ".join(HELPS["reedboard-relay"].format_help().split())
