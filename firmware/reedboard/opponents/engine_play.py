"""How the board's engine plays, as values: its strength (a level 1 to 20, Stockfish's
Skill Level, or a rating through UCI_LimitStrength and UCI_Elo), its time (a
ceiling by level within a share of the game's clock, or a fixed time a move) and the variety of its openings. Pure.

Stockfish's Skill Level weakens its play but opens much the same way each game: below
full strength, the first `VARIED_PLIES` plies are searched with `MULTI_PV` lines and one
is drawn, from those within a margin of the best, by the opponent's seeded chance. The
margin widens as the level drops, so a beginner's games wander from the first move and
a strong level's only among near-equal moves."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from reedboard.chess_clock.time_control import parse_time_control
from reedboard.errors import InvalidInputError

if TYPE_CHECKING:
    from reedboard.opponents.uci_engine import Thought

Side = Literal["white", "black"]

FULL_STRENGTH = 20
VARIED_PLIES = 12
MULTI_PV = 4
DEFAULT_MOVETIME_MS = 1000
ELO_RANGE = (1320, 3190)  # what Debian's Stockfish accepts for UCI_Elo
# In a timed game below full strength the engine thinks a fixed time a move (`movetime`):
# its level's ceiling, 1 s at levels 1-4 doubling every four levels (2 s at 5-8, 4 s at
# 9-12, 8 s at 13-16, 16 s at 17-19), so a weak level answers in seconds as a person
# expects even on a slow board. It never spends more than a SHARE_OF_TIME-th of its
# time left plus the increment, nor more than half its time left (the increment comes
# after the move, and the move must still be carried out on the board), nor less than
# MIN_THINK_MS. At full strength Stockfish manages its own clock within that share.
CEILING_BASE_MS = 1000
LEVELS_PER_DOUBLING = 4
SHARE_OF_TIME = 30
MIN_THINK_MS = 50


@dataclass(frozen=True)
class EngineSettings:
    level: int = 5  # 1..20
    elo: int | None = None  # a rating instead of the level
    side: Side = "black"  # the engine's side
    movetime_ms: int = DEFAULT_MOVETIME_MS  # an untimed game's time a move
    path: str = "stockfish"
    nice: int = 10  # below the scan loop's priority
    seed: int | None = None  # the opening's chance (None: the system's)

    def describe(self) -> str:
        strength = f"rated {self.elo}" if self.elo is not None else f"level {self.level}"
        return f"Stockfish {strength}, playing {self.side}"

    def spec(self) -> str:
        """The settings as `--opponent` takes them back."""
        strength = f"elo={self.elo}" if self.elo is not None else str(self.level)
        return f"engine:{strength}:{self.side}"


def uci_options(settings: EngineSettings) -> list[tuple[str, object]]:
    """The options set once the engine answered its handshake. One thread and a small
    hash: the board's CPU and memory are the scan loop's first."""
    options: list[tuple[str, object]] = [("Threads", 1), ("Hash", 16)]
    if settings.elo is not None:
        low, high = ELO_RANGE
        options += [("UCI_LimitStrength", "true"), ("UCI_Elo", max(low, min(high, settings.elo)))]
    else:
        options.append(("Skill Level", max(0, min(FULL_STRENGTH, settings.level))))
    return options


def varied(settings: EngineSettings, ply: int) -> bool:
    """Whether the move at `ply` (0: White's first) is drawn among several."""
    weaker = settings.elo is not None or settings.level < FULL_STRENGTH
    return weaker and ply < VARIED_PLIES


def margin_cp(settings: EngineSettings) -> int:
    level = settings.level if settings.elo is None else _level_of(settings.elo)
    return 10 + 6 * (FULL_STRENGTH - max(1, min(FULL_STRENGTH, level)))


def _level_of(elo: int) -> int:
    low, high = ELO_RANGE
    return 1 + round((max(low, min(high, elo)) - low) * (FULL_STRENGTH - 1) / (high - low))


def pick(thought: Thought, settings: EngineSettings, ply: int, rng: random.Random) -> str:
    """The move to play from what the engine found."""
    if not varied(settings, ply) or len(thought.lines) < 2:
        return thought.best
    best = max(score for _move, score in thought.lines)
    near = sorted({move for move, score in thought.lines if score >= best - margin_cp(settings)})
    return rng.choice(near) if near else thought.best


def level_ceiling_ms(settings: EngineSettings) -> int | None:
    """The longest a move may take at the engine's strength in a timed game; None at
    full strength, where the clock alone decides."""
    level = settings.level if settings.elo is None else _level_of(settings.elo)
    level = max(1, min(FULL_STRENGTH, level))
    if level >= FULL_STRENGTH:
        return None
    return CEILING_BASE_MS << ((level - 1) // LEVELS_PER_DOUBLING)


def safe_share_ms(mine_ms: int, increment_ms: int) -> int:
    """The most a move may take from `mine_ms` left without risking the clock."""
    share = min(mine_ms // SHARE_OF_TIME + increment_ms, mine_ms // 2)
    return max(MIN_THINK_MS, share)


def go_limits(
    settings: EngineSettings, clock: tuple[int, int] | None, time_control: str | None
) -> tuple[str, int]:
    """The `go` command's limits and the longest the engine may take, in ms: in a timed
    game the level's ceiling within a safe share of the clock (at full strength the
    clocks themselves, capped at that share); in an untimed one the fixed time a move."""
    if time_control is None:
        return f"movetime {settings.movetime_ms}", settings.movetime_ms
    try:
        control = parse_time_control(time_control)
    except InvalidInputError:
        return f"movetime {settings.movetime_ms}", settings.movetime_ms
    white_ms, black_ms = clock if clock is not None else (control.start_ms,) * 2
    inc = control.increment_ms
    mine = white_ms if settings.side == "white" else black_ms
    share = safe_share_ms(mine, inc)
    ceiling = level_ceiling_ms(settings)
    if ceiling is None:
        # Stockfish manages the clocks and stops at whichever comes first, its own plan
        # or `movetime`: left alone it spends some 39 s on its first move at 5+3.
        clocks = f"wtime {white_ms} btime {black_ms} winc {inc} binc {inc}"
        return f"{clocks} movetime {share}", share
    think = min(ceiling, share)
    return f"movetime {think}", think
