"""Helpers for arbiter tests: scripts written compactly, effects read back as JSON."""

from __future__ import annotations

from typing import Any, Literal

from reedboard.link.event_codec import effect_json
from reedboard.replay.runner import replay_script
from reedboard.replay.script import parse_script


def steps(text: str, start_ms: int = 1000, gap_ms: int = 400) -> str:
    """'lift e2, place e4; lift e7, place e5' -> timed script lines. Commas separate
    changes `gap_ms` apart; a semicolon starts a new move 1.5 s later; `+N` before an
    action waits N ms more; `@N` sets the time."""
    lines = []
    t = start_ms
    for move in text.split(";"):
        for part in move.split(","):
            words = part.split()
            if not words:
                continue
            while words and words[0][0] in "+@":
                t = t + int(words[0][1:]) if words[0][0] == "+" else int(words[0][1:])
                words = words[1:]
            lines.append(f"{t} {words[0]} {words[1]}")
            t += gap_ms
        t += 1100
    return "\n".join(lines)


def replay(
    body: str, *, header: str = "", mode: str | None = None, knock_wait_ms: int | None = None
) -> list[dict[str, Any]]:
    """The effects of `body`; `knock_wait_ms` None is the board's default."""
    script = parse_script(header + "\n" + body + "\n")
    chosen: Literal["casual", "strict"] | None = (
        None if mode is None else ("strict" if mode == "strict" else "casual")
    )
    effects = replay_script(script, mode=chosen, knock_wait_ms=knock_wait_ms)
    return [effect_json(e) for e in effects]


def moves(effects: list[dict[str, Any]]) -> list[str]:
    return [e["uci"] for e in effects if e["event"] == "move"]


def kinds(effects: list[dict[str, Any]], *skip: str) -> list[str]:
    """The event kinds in order, without touches (and any other kinds named)."""
    return [e["event"] for e in effects if e["event"] not in ("touch", *skip)]


def move_clocks(effects: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Each move's clocks as it was made: White's and Black's time left."""
    return [
        (e["clock"]["white_ms"], e["clock"]["black_ms"]) for e in effects if e["event"] == "move"
    ]


def landings(body: str) -> dict[str, int]:
    """Each square's latest change in a script: when the piece set there landed."""
    return {line.split()[2]: int(line.split()[0]) for line in body.splitlines()}
