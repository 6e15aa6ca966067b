"""The relay believes nothing it can check: a frame naming another board than its topic's,
a number further ahead of the stream than a board's history, a state that would take
moves back or play on after the result: each is refused (and never stored) or starts a
new game, the old game and its result kept as they were. A frame someone else put in
a board's stream never stops the relay from following the real board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reedboard.link.board import DEFAULT_HISTORY as HISTORY
from reedboard.link.board_messages import Alive
from reedboard.link.messages import Resend
from reedboard_relay.boards import Boards
from reedboard_relay.store import RelayStore

from tests.relay.board_frames import read
from tests.relay.test_game_pairings import START, game_over, hello, moves, state

OPENING = ["e2e4", "e7e5", "g1f3"]


def forged_state(seq: int, ucis: list[str], result: str | None = None) -> dict[str, Any]:
    """A state as a board writes it (the CRC is public: anyone can frame one)."""
    reason = None if result is None else "resignation"
    return state(seq) | {"moves": ucis, "result": result, "reason": reason}


def played(boards: Boards, board: str = "b2", game: int = 0) -> None:
    """The opening played on `board`, as game `game` of its journal (0: none)."""
    for frame in (hello(1, "s1"), state(2), *moves(3, OPENING)):
        boards.heard(board, read(frame | ({"game": game} if frame["type"] != "hello" else {})), 0)


def plies(boards: Boards, board: str = "b2") -> list[str]:
    current = boards.boards[board].mirror.current
    assert current is not None
    return [move.uci() for move in current.game.moves]


def test_a_frame_naming_another_board_than_its_topic_is_refused(boards: Boards) -> None:
    forged = hello(1, "x") | {"board": "b9"}
    assert boards.refusal("b2", read(forged)) == "a frame naming board 'b9'"
    boards.heard("b2", read(forged), 0)
    assert "b2" not in boards.boards and list(boards.store.boards()) == []
    assert boards.refusal("b9", read(forged)) is None  # its own topic


def test_a_number_beyond_the_boards_history_is_refused_and_never_stored(
    boards: Boards, path: Path
) -> None:
    played(boards)
    last = boards.boards["b2"].receiver.last_seq
    forged = forged_state(10**9, OPENING, result="1-0")
    assert boards.refusal("b2", read(forged)) is not None
    assert boards.refusal("b2", read(forged_state(last + HISTORY + 1, OPENING))) is not None
    assert (
        boards.refusal("b2", read(moves(last + HISTORY, ["b8c6"])[0])) is None
    )  # a gap, asked for
    boards.heard("b2", read(forged), 0)
    current = boards.boards["b2"].mirror.current
    assert current is not None and current.result is None
    assert boards.boards["b2"].receiver.last_seq == last
    boards.store.close()
    again = Boards(RelayStore(str(path)))  # a restart does not bring it back
    try:
        assert again.boards["b2"].receiver.last_seq == last
        again.heard("b2", read(moves(last + 1, ["b8c6"])[0] | {"ply": 4}), 0)
        assert plies(again) == [*OPENING, "b8c6"]  # the real board is followed on
    finally:
        again.store.close()


def test_a_number_put_in_by_a_new_numbering_is_undone_by_the_boards_own_word(
    boards: Boards,
) -> None:
    """A forged `hello` may restart the numbering far ahead (a board that starts the relay
    again may name any number); the board's own `alive`, behind it, puts the relay in
    doubt, and the resync `hello` the board gives when asked brings its numbering back."""
    played(boards)
    boards.heard("b2", read(hello(10**9, "s1") | {"resync": True}), 0)
    _changed, asked = boards.heard("b2", read(Alive(5).to_wire()), 2000)
    assert asked == Resend(10**9, "s1", resync="hello")  # the board cannot: it says where
    boards.heard("b2", read(hello(6, "s1") | {"resync": True}), 0)
    assert boards.boards["b2"].receiver.last_seq == 6
    boards.heard("b2", read(forged_state(7, OPENING) | {"id": 9}), 0)
    boards.heard("b2", read(moves(8, ["b8c6"])[0] | {"ply": 4}), 0)
    assert plies(boards) == [*OPENING, "b8c6"]


def test_a_state_taking_moves_back_starts_a_new_game_the_old_one_kept(boards: Boards) -> None:
    played(boards, game=3)
    boards.heard("b2", read(forged_state(6, ["e2e4"], result="1-0") | {"game": 3}), 0)
    mirror = boards.boards["b2"].mirror
    assert [move.uci() for move in mirror.finished[-1].game.moves] == OPENING
    assert mirror.finished[-1].result is None
    assert mirror.current is not None and len(mirror.current.game) == 1


def test_a_takeback_the_stream_shows_takes_a_move_back(boards: Boards) -> None:
    played(boards)
    takeback = {"event": "takeback", "t_ms": 0, "game": 0, "uci": OPENING[-1], "fen": ""}
    boards.heard("b2", read({"type": "effect", "seq": 6, **takeback}), 0)
    assert plies(boards) == OPENING[:2]
    boards.heard("b2", read(forged_state(7, OPENING[:2])), 0)
    assert plies(boards) == OPENING[:2] and not boards.boards["b2"].mirror.finished


def test_a_new_session_never_rewrites_the_finished_game(boards: Boards) -> None:
    played(boards)
    boards.heard("b2", read(game_over(6, "1-0", "resignation")), 0)
    # The board's next session (or a replaced journal) names game 0 again, with other moves.
    boards.heard("b2", read(hello(1, "s2")), 0)
    boards.heard("b2", read(forged_state(2, ["e2e4", "c7c5"])), 0)
    mirror = boards.boards["b2"].mirror
    old = mirror.finished[-1]
    assert [move.uci() for move in old.game.moves] == OPENING and old.result == "1-0"
    assert plies(boards) == ["e2e4", "c7c5"]
    # Nor is a finished game played on by a later state: that is another game.
    boards.heard("b2", read(game_over(3, "0-1", "resignation")), 0)
    boards.heard("b2", read(forged_state(4, ["e2e4", "c7c5", "g1f3"]) | {"id": 2}), 0)
    assert mirror.finished[-1].result == "0-1" and len(mirror.finished[-1].game) == 2
    assert mirror.current is not None and mirror.current.game.start.fen() == START
