"""The board's engine in the page's game tests: Debian's Stockfish, started by the board
from its configuration's `[engine] path`, with one change on its way in: every `go
movetime N` the board sends (2,000 ms a move at level 5 in a timed game) becomes `go
nodes THINK_NODES`. The board still chooses the level, the clock's share and the
opening's variety, and reads and plays every answer; only the engine's thinking, most of
these tests' CPU, is cut (how long the board lets its engine think is
`engine_play.go_limits`'s to decide and its own tests' to check). A count of nodes, not a
time: as quick and as strong whatever the machine's load (a tenth of a second a move was
4 s of a whole game's CPU, and fewer nodes on a loaded machine).

The configuration also sets `nice = 0`: at the board's default the engine runs only on time
no other process wants (SCHED_IDLE), and on a machine loaded by other work it waited a
minute for its first answer, past the page's wait."""

from __future__ import annotations

from pathlib import Path

from tests.web.board_process import quiet_scan

STOCKFISH = "/usr/games/stockfish"
THINK_NODES = 5_000  # the engine's search a move here: some 10 ms (the board asks 2,000 ms)


def quick_engine_config(folder: Path) -> Path:
    """A board configuration in `folder` whose engine is Stockfish searching THINK_NODES
    a move: a shell script the board starts as its engine, passing every line on but
    `go movetime`'s limit (`sed -u`: line by line, unbuffered). `sed` ends after passing
    `quit` on, so the board's `quit` ends all three at once: otherwise `sed` waited for
    its input to close, and the board, waiting for its engine to quit, killed it after
    two seconds, at every test's end."""
    engine = folder / "stockfish-quick"
    engine.write_text(
        "#!/bin/sh\n"
        f"sed -u -e 's/^go movetime [0-9]*$/go nodes {THINK_NODES}/' -e '/^quit$/q'"
        f" | exec {STOCKFISH}\n"
    )
    engine.chmod(0o755)
    config = folder / "board.toml"
    config.write_text(f'[engine]\npath = "{engine}"\nnice = 0\n')
    return quiet_scan(config)
