"""How strictly the board holds the players to touch-move: the one definition.

The reader is the lowest layer that acts on it; the configuration, the link, replay
scripts, the simulated player and the host's command line take their choices from here.
"""

from __future__ import annotations

from typing import Literal, get_args

# casual: a touched piece may be put back and another moved; strict: touch-move holds.
Mode = Literal["casual", "strict"]
MODES: tuple[Mode, ...] = get_args(Mode)
