"""A board's games as the relay keeps them between two starts: a snapshot of its mirror
(each game's start, its moves' codes, result, comments and clocks) and the number of
the last stored message it holds. A relay started on its store rebuilds each board from
its snapshot and replays only the messages stored after it: replaying every message
checks every move's legality again, 90 s for a thousand boards' round where a snapshot
takes about one (bench/relay_restart.py).

A snapshot that cannot be read (another format, a file edited by hand) or whose game
does not end where the snapshot says it did is ignored: the board is replayed from its
messages, as without one. Pure: text in, text out."""

from __future__ import annotations

import json
from typing import Any

from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard_host.mirror import GameMirror, MirroredGame

FORMAT = 1


def written(mirror: GameMirror) -> str:
    """The mirror as a snapshot's text."""
    current = mirror.current
    return json.dumps(
        {
            "format": FORMAT,
            "stands_at": mirror.stands_at,
            "needs_state": mirror.needs_state,
            "finished": [_game(g) for g in mirror.finished],
            "current": None if current is None else _game(current),
        },
        separators=(",", ":"),
    )


def read(text: str, *, keep_games: bool = True) -> GameMirror | None:
    """The mirror a snapshot holds, or None when it cannot be trusted."""
    try:
        kept = json.loads(text)
        if kept.get("format") != FORMAT:
            return None
        mirror = GameMirror(keep_games=keep_games)
        mirror.stands_at = int(kept["stands_at"])
        mirror.needs_state = bool(kept["needs_state"])
        mirror.finished = [_mirrored(g) for g in kept["finished"]]
        mirror.current = None if kept["current"] is None else _mirrored(kept["current"])
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        return None
    return mirror


def _game(g: MirroredGame) -> dict[str, Any]:
    return {
        "id": g.id,
        "start": g.game.start.fen(),
        "chess960": g.game.chess960,
        "codes": list(g.game.codes),
        "fen": g.game.position.fen(),
        "result": g.result,
        "reason": g.reason,
        "comments": {str(ply): text for ply, text in g.comments.items()},
        "time_control": g.time_control,
        "clocks": {str(ply): list(clock) for ply, clock in g.clocks.items()},
    }


def _mirrored(kept: dict[str, Any]) -> MirroredGame:
    start = Position.from_fen(str(kept["start"]), chess960=bool(kept["chess960"]))
    codes = [int(code) for code in kept["codes"]]
    game = Game.replayed(start, codes)
    if game.position.fen() != kept["fen"]:
        raise ValueError("the snapshot's game does not end where it says")
    return MirroredGame(
        game,
        int(kept["id"]),
        _text(kept["result"]),
        _text(kept["reason"]),
        {int(ply): str(text) for ply, text in kept["comments"].items()},
        _text(kept["time_control"]),
        {int(ply): (int(c[0]), int(c[1])) for ply, c in kept["clocks"].items()},
    )


def _text(value: object) -> str | None:
    return None if value is None else str(value)
