"""The arbiter's evidence timeline: what the board's sensors told and what the arbiter
decided, recorded in the relay's real SQLite store (never enforced), in the arbiter's
words, at any ply, kept over a restart and exported as CSV."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from reedboard.events import Illegal, Restored, Touched
from reedboard.link.event_codec import effect_wire
from reedboard.rules.squares import parse_square
from reedboard_relay import evidence_store
from reedboard_relay.arbiter_store import ArbiterStore
from reedboard_relay.boards import Boards
from reedboard_relay.evidence import LIMITS, Evidence, csv_text, timeline
from reedboard_relay.game_on_board import game_on
from reedboard_relay.store import RelayStore

from tests.relay.board_frames import read
from tests.relay.test_game_pairings import hello, moves, state

GAME = (0, 0)


def sq(name: str) -> int:
    return parse_square(name)


def touch(seq: int, square: str, piece: str, t_ms: int) -> dict[str, Any]:
    return effect_wire(Touched(t_ms, sq(square), piece), 0, seq)


def test_a_lift_of_the_side_to_moves_piece_is_most_likely_its_hand() -> None:
    entry = Evidence(1.0, GAME, 0, "touch", {"square": "e2", "piece": "P", "white_to_move": True})
    [row] = timeline([entry], GAME)
    assert (
        row["text"]
        == "White's pawn lifted from e2 (the side to move's piece: most likely their hand)"
    )


def test_a_lift_of_the_other_sides_piece_is_ambiguous_unless_captured_there() -> None:
    lifted = Evidence(1.0, GAME, 1, "touch", {"square": "d5", "piece": "p", "white_to_move": True})
    captured = Evidence(2.0, GAME, 2, "move", {"uci": "e4d5", "san": "exd5"})
    elsewhere = Evidence(2.0, GAME, 2, "move", {"uci": "g1f3", "san": "Nf3"})
    assert (
        "the next move captured there: the mover's hand"
        in timeline([lifted, captured], GAME)[0]["text"]
    )
    ambiguous = timeline([lifted, elsewhere], GAME)[0]["text"]
    assert "AMBIGUOUS" in ambiguous and "the sensors cannot tell" in ambiguous
    assert "AMBIGUOUS" in timeline([lifted], GAME)[0]["text"]  # nothing followed yet


def test_an_illegal_position_says_how_long_it_stood_by_the_boards_clock() -> None:
    illegal = Evidence(10.0, GAME, 2, "illegal", {"missing": ["g8"], "extra": ["g6"]}, 5_000)
    restored = Evidence(19.0, GAME, 2, "restored", {}, 12_500)
    rows = timeline([illegal, restored], GAME)
    assert rows[0]["stood_ms"] == 7_500  # the board's 7.5 s, not the relay's 9 s
    assert rows[0]["text"] == "illegal position: pieces missing from g8, extra on g6"
    assert timeline([illegal], GAME)[0]["stood_ms"] is None  # still standing


def test_the_timeline_at_a_ply_and_of_one_game_only() -> None:
    entries = [
        Evidence(1.0, GAME, 0, "online"),
        Evidence(2.0, GAME, 1, "move", {"uci": "e2e4", "san": "e4"}),
        Evidence(3.0, GAME, 1, "offline"),
        Evidence(4.0, (1, 0), 1, "move", {"uci": "d2d4", "san": "d4"}),
    ]
    assert [r["kind"] for r in timeline(entries, GAME)] == ["online", "move", "offline"]
    assert [r["text"] for r in timeline(entries, GAME, ply=1)] == [
        "move e4 made",
        "the board went offline",
    ]


def test_the_export_cannot_be_split_by_a_note() -> None:
    note = Evidence(1.0, GAME, 3, "result", {"result": "1-0", "reason": 'flag\nfell, "x"'})
    text = csv_text("b1", [(GAME, timeline([note], GAME))])
    assert text.startswith(f"# {LIMITS}\n")
    rows = list(csv.reader(io.StringIO(text.split("\n", 1)[1])))
    assert len(rows) == 2 and rows[1][0] == "b1" and rows[1][1] == "0/0"
    assert rows[1][-1] == 'arbiter: result set to 1-0 (flag\nfell, "x")'


def test_the_relay_records_what_the_board_told_and_keeps_it(boards: Boards, path: Path) -> None:
    boards.status("b1", True)
    for frame in (hello(1, "s1"), state(2), *moves(3, ["e2e4"])):
        boards.heard("b1", read(frame), 0)
    boards.heard("b1", read(touch(4, "d2", "P", 9_000)), 0)  # White's pawn, Black to move
    boards.heard("b1", read(effect_wire(Illegal(9_500, 1 << sq("d3"), 1 << sq("d2")), 0, 5)), 0)
    boards.heard("b1", read(effect_wire(Restored(12_000), 0, 6)), 0)
    boards.heard("b1", read(moves(6, ["e2e4", "e7e5"])[1]), 0)  # seq 7: ply 2
    boards.status("b1", False)
    boards.store.close()
    again = Boards(RelayStore(str(path)))  # a relay restarted: the evidence is kept
    try:
        game = game_on(again.boards["b1"].mirror)
        rows = timeline(evidence_store.recorded(again.store.db, "b1", game), game)
        kinds = [r["kind"] for r in rows]
        assert kinds == ["move", "touch", "illegal", "restored", "move", "offline"]
        touched = rows[1]
        assert touched["ply"] == 1 and touched["board_ms"] == 9_000
        assert "White's pawn lifted from d2 while Black was to move: AMBIGUOUS" in touched["text"]
        assert rows[2]["stood_ms"] == 2_500
        assert [
            r["kind"]
            for r in timeline(evidence_store.recorded(again.store.db, "b1", game), game, ply=2)
        ] == ["move", "offline"]
    finally:
        again.store.close()


def test_a_new_session_is_evidence(boards: Boards) -> None:
    for frame in (hello(1, "s1"), state(2), *moves(3, ["e2e4"])):
        boards.heard("b1", read(frame), 0)
    boards.heard("b1", read(hello(1, "s2")), 0)
    game = game_on(boards.boards["b1"].mirror)
    kinds = [e.kind for e in evidence_store.recorded(boards.store.db, "b1", game)]
    assert kinds == ["move", "session"]


def test_the_arbiters_decisions_and_the_boards_answers_are_evidence(boards: Boards) -> None:
    for frame in (hello(1, "s1"), state(2), *moves(3, ["e2e4", "e7e5", "g1f3"])):
        boards.heard("b1", read(frame), 0)
    decisions = ArbiterStore(boards.store.db)
    game = game_on(boards.boards["b1"].mirror)
    made = decisions.add_correction("b1", game, 2, ("Nf3",), "knight from g1 to f3 illegal")
    decisions.answer("b1", made.number, "done")
    added = decisions.add_time("b1", game, 2, False, 120_000, "FIDE 7.5.5")
    decisions.answer_time("b1", added.number, "refused", "no clock")
    decisions.set_result("b1", game, "1-0", "Black's flag fell", 2)
    rows = timeline(evidence_store.recorded(boards.store.db, "b1", game), game)
    said = [r["text"] for r in rows if r["kind"] != "move"]
    assert said == [
        "arbiter: the move at ply 3 found illegal (FIDE 7.5.1), Nf3 cancelled (knight from g1 to f3 illegal)",
        "the board answered the arbiter's correction at ply 3: done",
        "arbiter: two minutes added to black's clock (FIDE 7.5.5)",
        "the board answered the arbiter's two minutes added: refused (no clock)",
        "arbiter: result set to 1-0 (Black's flag fell)",
    ]
