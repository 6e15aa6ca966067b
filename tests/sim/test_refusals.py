"""Strict mode refuses what touch-move forbids, on positions from random games."""

from __future__ import annotations

import random

from reedboard.link.event_codec import effect_json
from reedboard.replay.runner import replay_script
from reedboard.replay.script import format_script, parse_script
from reedboard.rules.chess960 import chess960_fen
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES
from reedboard.sim.games import random_game
from reedboard.sim.refusals import strict_refusals, touched_victim_set_back


def positions(count: int) -> list[Position]:
    rng = random.Random(7)
    found: list[Position] = []
    for game_no in range(count):
        if game_no % 3 == 0:
            start = Position.from_fen(chess960_fen(rng.randrange(960)), chess960=True)
        else:
            start = Position.standard()
        game = random_game(start, rng, max_plies=rng.randrange(4, 40))
        found.append(game.position)
    return found


def test_every_refusal_is_a_violation_naming_its_article() -> None:
    rng = random.Random(11)
    seen: dict[str, int] = {}
    for position in positions(60):
        if position.legal_moves() == []:
            continue
        for refusal in strict_refusals(position, rng):
            fen = position.fen(shredder=position.chess960)
            text = format_script(list(refusal.lines), f"fen {fen}", "strict")
            effects = [effect_json(e) for e in replay_script(parse_script(text))]
            made = [e["uci"] for e in effects if e["event"] == "move"]
            violations = [(e["rule"], e["square"]) for e in effects if e["event"] == "violation"]
            assert made == list(refusal.moves_before), (refusal.rule, fen, effects)
            assert violations[:1] == [(refusal.rule, SQUARE_NAMES[refusal.square])], (
                fen,
                refusal,
                effects,
            )
            seen[refusal.rule] = seen.get(refusal.rule, 0) + 1
    # Every kind came up, several times.
    assert all(seen.get(rule, 0) >= 3 for rule in ("4.3a", "4.4a", "4.4b")), seen


def test_an_opponents_piece_set_back_binds_nobody() -> None:
    """The 4.3b gesture (a capturable piece touched and set back, then another move): its
    owner may have adjusted it, so the move is made and nothing is refused."""
    rng = random.Random(11)
    tried = 0
    for position in positions(60):
        gesture = touched_victim_set_back(position, rng)
        if gesture is None:
            continue
        tried += 1
        fen = position.fen(shredder=position.chess960)
        text = format_script(list(gesture.lines), f"fen {fen}", "strict")
        effects = [effect_json(e) for e in replay_script(parse_script(text))]
        assert [e["event"] for e in effects if e["event"] == "violation"] == [], (fen, effects)
        assert len([e for e in effects if e["event"] == "move"]) == 1, (fen, effects)
    assert tried >= 3
