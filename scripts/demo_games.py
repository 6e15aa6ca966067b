"""Write the relay demo's whole games (docs/relay-demo/*.events) from the human model.

    python -m scripts.demo_games            # from the repository's top folder

Each file is what `reedboard.sim.whole_games.DEMO_GAMES` makes of its game and seed, its
expected moves in a comment; the tests replay every file and check those moves, so a
change to the human model or the board that breaks one is seen. Run this again after a
change to the human model to play the games with the new hands.
"""

from __future__ import annotations

import sys
from pathlib import Path

from reedboard.sim.whole_games import DEMO_GAMES

FOLDER = Path(__file__).resolve().parents[1] / "docs" / "relay-demo"


def main() -> int:
    for demo in DEMO_GAMES:
        path = FOLDER / f"{demo.name}.events"
        path.write_text(demo.text(), encoding="utf-8")
        print(path.relative_to(FOLDER.parents[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
