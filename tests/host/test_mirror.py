"""The host's copy of the board's games, fed the board's messages."""

from __future__ import annotations

from typing import Any

from reedboard.link.board_messages import BoardMessage, read_board_message
from reedboard.rules.fen import STARTING_FEN
from reedboard_host.mirror import GameMirror, MirroredGame

MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]


def _read(wire: dict[str, Any]) -> BoardMessage:
    """The message as the host's link reads it, checked."""
    message, problem = read_board_message(wire)
    assert message is not None and problem is None, problem
    return message


# The fields a board sends that these tests do not look at.
_REST: dict[str, dict[str, Any]] = {"move": {"san": "", "fen": ""}, "takeback": {"fen": ""}}


def _effect(seq: int, event: str, **fields: Any) -> BoardMessage:
    whole = {"t_ms": seq * 1000, **_REST.get(event, {}), **fields}
    return _read({"type": "effect", "seq": seq, "event": event, "game": 7, **whole})


def _ending(game: MirroredGame) -> tuple[str | None, str | None, int]:
    """Read afresh, not narrowed by what an earlier assertion found."""
    return game.result, game.reason, len(game.game)


def test_a_mate_taken_back_clears_the_result_and_play_goes_on() -> None:
    mirror = GameMirror()
    state = {"type": "state", "seq": 1, "game": 7, "start_fen": STARTING_FEN,
             "chess960": False, "moves": [], "result": None, "reason": None}  # fmt: skip
    assert mirror.apply(_read(state))
    for seq, uci in enumerate(MATE, start=2):
        assert mirror.apply(_effect(seq, "move", uci=uci, ply=seq - 1))
    assert mirror.apply(_effect(6, "game_over", result="0-1", reason="checkmate"))
    current = mirror.current
    assert current is not None and current.result == "0-1"
    assert mirror.apply(_effect(7, "takeback", uci="d8h4"))
    assert _ending(current) == (None, None, 3)
    assert mirror.apply(_effect(8, "move", uci="e5e4", ply=4))
    assert mirror.finished == [] and len(current.game) == 4


def test_a_state_with_fewer_moves_of_the_same_game_rewrites_it_not_a_new_game() -> None:
    # An arbiter's correction took the board back two plies and another move was played;
    # the host missed the effects and hears only the state: still game 7, one record.
    mirror = GameMirror()
    state = {"type": "state", "seq": 1, "game": 7, "start_fen": STARTING_FEN,
             "chess960": False, "moves": MATE[:3], "result": None, "reason": None}  # fmt: skip
    assert mirror.apply(_read(state))
    assert mirror.apply(_effect(2, "violation", rule="4.3", square="e2", message="touched"))
    current = mirror.current
    assert current is not None and 3 in current.comments
    assert mirror.apply(_read(state | {"seq": 9, "moves": ["f2f3", "e7e5", "e2e4"]}))
    assert mirror.current is current and mirror.finished == []
    assert [m.uci() for m in current.game.moves] == ["f2f3", "e7e5", "e2e4"]
    assert current.comments == {}  # the comment was about the move taken back
    assert mirror.apply(_read(state | {"seq": 10, "moves": ["f2f3"]}))
    assert mirror.current is current and len(current.game) == 1


def test_without_a_journal_a_record_sharing_no_move_is_a_new_game() -> None:
    mirror = GameMirror()
    state = {"type": "state", "seq": 1, "game": 0, "start_fen": STARTING_FEN,
             "chess960": False, "moves": MATE[:2], "result": None, "reason": None}  # fmt: skip
    assert mirror.apply(_read(state))
    assert mirror.apply(_read(state | {"seq": 5, "moves": ["e2e4"]}))
    assert len(mirror.finished) == 1 and mirror.current is not None
    assert len(mirror.current.game) == 1
    assert mirror.apply(_read(state | {"seq": 6, "moves": ["e2e4", "e7e5", "g1f3"]}))
    assert mirror.apply(_read(state | {"seq": 7, "moves": ["e2e4", "c7c5"]}))  # shares e4
    assert len(mirror.finished) == 1 and len(mirror.current.game) == 2
