"""The PGN the board, the host and the relay write, read by pgn-extract (Debian's
`pgn-extract`), a program people feed their games to: every game is read whole, every
move legal, and no name, event or comment can add or split a game."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from reedboard.rules import Game, Position, write_pgn
from reedboard.rules.chess960 import chess960_fen

PGN_EXTRACT = shutil.which("pgn-extract") or shutil.which("pgn-extract", path="/usr/games")
# What pgn-extract says of a game it cannot read whole.
COMPLAINTS = ("Unknown", "Missing", "llegal", "Failed", "No move", "Bad", "rror")


def _random_game(seed: int, start: Position | None = None, plies: int = 120) -> Game:
    rng = random.Random(seed)
    game = Game(start)
    for _ in range(plies):
        moves = game.position.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(rng.choice(moves))
    return game


def _games() -> str:
    texts = []
    for seed in range(6):
        texts.append(write_pgn(_random_game(seed), {"Event": f"Club night {seed}"}))
    for number in (0, 518, 959, 357):
        start = Position.from_fen(chess960_fen(number), chess960=True)
        texts.append(write_pgn(_random_game(number, start), {"Event": f"Chess960 {number}"}))
    # What a pairings file or a console's form may hold: line breaks, quotes, brackets,
    # backslashes and braces in names, events and comments.
    hostile = {
        "Event": 'Open\n[Event "invented"]\n\n1. e4 *',
        "White": 'Smith, "Jo" \\ [GM]',
        "Black": "O'Neil}\r\n{",
    }
    game = _random_game(99, plies=20)
    texts.append(write_pgn(game, hostile, comments={3: 'a } brace\n[Result "1-0"]'}))
    return "\n".join(texts)


@pytest.mark.skipif(PGN_EXTRACT is None, reason="pgn-extract is not installed")
def test_pgn_extract_reads_every_game_whole(tmp_path: Path) -> None:
    assert PGN_EXTRACT is not None
    source = tmp_path / "games.pgn"
    source.write_text(_games())
    out = tmp_path / "out.pgn"
    done = subprocess.run(
        [PGN_EXTRACT, "-s", "-o", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert not any(word in said for word in COMPLAINTS), said
    # As many games out as went in: none split, none lost.
    events = [line for line in out.read_text().splitlines() if line.startswith("[Event ")]
    assert len(events) == 11
    assert '[Event "invented"]' not in events
