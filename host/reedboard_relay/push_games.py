"""What a Lichess push holds and what Lichess answered, game by game. Pure.

Lichess imports nothing from a push in which one game is invalid, so each game is
checked before it goes: read back with the rules' own PGN reader (every tag well formed,
every move legal), one game and one only, its result token its `Result` tag. Lichess's
answer to a push (`POST /api/broadcast/round/{id}/push`) is JSON: `{"games": [...]}`,
one entry per game pushed, in order, each with the game's `tags` and either `moves` (how
many it took) or `error` (why it refused the game, such as `Invalid move: Nxe5`); or
`{"error": "..."}` for the whole push. An HTTP 200 alone says nothing of the games."""

from __future__ import annotations

import json
from dataclasses import dataclass

from reedboard.errors import InvalidPgnError
from reedboard.rules.pgn import RESULTS, SEVEN_TAG_ROSTER, read_pgn


@dataclass(frozen=True)
class PushedGame:
    board: str
    pgn: str


def problem_of(pgn: str) -> str | None:
    """Why Lichess could not take this game, or None when it is sound."""
    lines = pgn.strip().splitlines()
    tags = 0
    while tags < len(lines) and lines[tags].startswith("["):
        tags += 1
    moves = lines[tags:]
    if any(line.lstrip().startswith("[") for line in moves):
        return "more than one game in its text"
    try:
        game = read_pgn(pgn)
    except InvalidPgnError as error:
        return str(error)
    missing = [tag for tag in SEVEN_TAG_ROSTER if tag not in game.headers]
    if missing:
        return f"no {', '.join(missing)} tag"
    last = moves[-1].split()[-1] if moves and moves[-1].split() else ""
    if last not in RESULTS or last != game.headers["Result"]:
        return f"its moves end with {last!r}, its Result tag says {game.headers['Result']!r}"
    return None


@dataclass(frozen=True)
class PushAnswer:
    """Lichess's answer read: `error` for the push as a whole (nothing taken), else the
    refusal of each game that was refused, by its place in the push."""

    error: str | None = None
    refused: dict[int, str] | None = None


def read_answer(body: bytes, games: int) -> PushAnswer:
    try:
        answer = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return PushAnswer(error=f"an answer that is not JSON: {body[:80]!r}")
    if not isinstance(answer, dict):
        return PushAnswer(error=f"an answer that is not a JSON object: {body[:80]!r}")
    if answer.get("error"):
        return PushAnswer(error=str(answer["error"]))
    entries = answer.get("games")
    if not isinstance(entries, list) or len(entries) != games:
        count = len(entries) if isinstance(entries, list) else "no"
        return PushAnswer(error=f"an answer with {count} games for the {games} pushed")
    refused: dict[int, str] = {}
    for place, entry in enumerate(entries):
        if not isinstance(entry, dict):
            refused[place] = "an entry that is not a game's"
        elif entry.get("error"):
            refused[place] = str(entry["error"])
    return PushAnswer(refused=refused)
