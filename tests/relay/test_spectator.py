"""What the spectator page shows of a game: its moves numbered as a score sheet writes
them (Black's first move of a set-up position as `12... Nf6`), its latest clocks, its
result's reason in words, its event, round and board."""

from __future__ import annotations

from reedboard.rules import Game, Position
from reedboard_host.mirror import MirroredGame
from reedboard_relay.pairing import Pairing
from reedboard_relay.spectator import game_shown


def test_a_set_up_game_with_black_to_move_is_numbered_from_its_own_move() -> None:
    game = Game(Position.from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 12"))
    for san in ("Kd7", "e4", "Kc6"):
        game.push_san(san)
    mirrored = MirroredGame(game, clocks={1: (60_000, 55_000), 3: (58_000, 50_000)},
                            result="1/2-1/2", reason="agreement")  # fmt: skip
    shown = game_shown(mirrored, Pairing("2.4", "4", event="Open"))
    assert shown["moves"] == "12... Kd7 13. e4 Kc6"
    assert (shown["white_ms"], shown["black_ms"]) == (58_000, 50_000)
    assert shown["reason"] == "Draw by agreement"
    assert (shown["event"], shown["round"], shown["board_number"]) == ("Open", "2.4", "4")


def test_no_game_shows_nothing_yet() -> None:
    shown = game_shown(None, Pairing())
    assert shown["moves"] == "" and shown["white_ms"] is None and shown["reason"] is None
