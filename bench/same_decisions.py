"""A check for work on the board's loop and its game: what the board decides, written out
so that two versions of the code can be compared byte for byte.

For each script (docs/examples, tests/reader/cases, tests/replay and the human model's
random games from seeds 0..N-1), three outputs:
- `replay`: what `reedboard replay SCRIPT` prints;
- `lights`: what `reedboard replay --lights SCRIPT` prints;
- `board`: the effects the board's loop (`App`, a turn every 5 ms on a virtual clock, the
  switches read through the simulated matrix) sends playing the script, as JSON lines.

    python bench/same_decisions.py DIR [--games 60] [--plies 160]

writes DIR/<script>.<output>.jsonl and prints one digest over all of them. Run it on the
code before and after a change, to two folders, and compare them (`diff -r`): a speed-up
of the loop must leave every byte as it was (a move's time included)."""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import sys
from pathlib import Path

from reedboard.app import App
from reedboard.app_ports import GameSetup, HostLink, Sensing
from reedboard.board_game import Settings
from reedboard.cli import main as reedboard
from reedboard.hal.clock import VirtualClock
from reedboard.replay.script import parse_script
from reedboard.replay.scripted_board import scripted_board
from reedboard.rules.game import Game
from reedboard.sim.whole_games import random_game_script

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = (
    ROOT / "docs" / "examples",
    ROOT / "tests" / "reader" / "cases",
    ROOT / "tests" / "replay",
)


def printed(argv: list[str]) -> str:
    """What `reedboard ARGV` prints on stdout, with its exit status last."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = reedboard(argv)
    return out.getvalue() + f"exit {status}\n"


def on_the_board(text: str) -> str:
    """The effects the board's loop sends playing the script, one JSON line each."""
    script = parse_script(text)
    board = scripted_board(script, electrical=True)
    sent: list[str] = []
    setup = GameSetup(
        start=Game(script.start),
        settings=Settings(
            mode="strict" if script.mode == "strict" else "casual",
            time_control=script.clock,
            clock_buttons=script.clock_buttons,
        ),
    )
    app = App(
        Sensing(board, source=board),
        VirtualClock(),
        link=HostLink(on_effect=lambda m: sent.append(json.dumps(m.to_wire(), sort_keys=True))),
        game=setup,
    )
    app.run(until_done=True)
    return "".join(line + "\n" for line in sent)


def scripts(folder: Path, games: int, plies: int) -> list[Path]:
    found = sorted(p for f in FOLDERS for p in f.glob("*.events"))
    folder.mkdir(parents=True, exist_ok=True)
    for seed in range(games):
        path = folder / f"model-{seed:02d}.events"
        path.write_text(random_game_script(seed, max_plies=plies).text(), encoding="utf-8")
        found.append(path)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--plies", type=int, default=160)
    args = parser.parse_args()
    digest = hashlib.sha256()
    for path in scripts(args.out / "scripts", args.games, args.plies):
        outputs = {
            "replay": printed(["replay", str(path)]),
            "lights": printed(["replay", "--lights", str(path)]),
            "board": on_the_board(path.read_text(encoding="utf-8")),
        }
        for kind, text in outputs.items():
            (args.out / f"{path.stem}.{kind}.jsonl").write_text(text, encoding="utf-8")
            digest.update(f"{path.stem}.{kind}\n{text}".encode())
        print(f"  {path.stem}: {outputs['board'].count(chr(10))} effects", file=sys.stderr)
    print(f"all outputs: sha256 {digest.hexdigest()}")


if __name__ == "__main__":
    main()
