"""Every scene: what the board lights in each state of a game."""

from __future__ import annotations

from reedboard.lights.scenes import scene_for, scene_roles
from reedboard.reader.move_reader import MoveReader
from reedboard.reader.view import BoardView, Targets
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.game import Game
from reedboard.rules.pieces import BLACK, WHITE
from reedboard.rules.squares import BB_RANKS, squares_of
from reedboard.rules.squares import parse_square as sq
from reedboard.sensing.debounce import SquareChange

from tests.lights.support import bits, named, play

START_OCCUPANCY = BB_RANKS[0] | BB_RANKS[1] | BB_RANKS[6] | BB_RANKS[7]


def test_a_fresh_game_is_dark() -> None:
    assert named(MoveReader(Game()).view()) == {}


def test_idle_shows_the_last_move() -> None:
    arbiter = MoveReader(Game())
    play(arbiter, "lift g1, place f3")
    arbiter.tick(5000)
    assert named(arbiter.view()) == {"g1": "last_move", "f3": "last_move"}


def test_idle_shows_the_checked_king_over_the_last_move() -> None:
    arbiter = MoveReader(Game.from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"))
    play(arbiter, "lift a1, place a8")
    arbiter.tick(5000)
    assert named(arbiter.view()) == {"a1": "last_move", "a8": "last_move", "e8": "check"}


def test_a_lifted_piece_shows_its_targets_told_apart_by_kind() -> None:
    arbiter = MoveReader(Game.from_fen("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"))
    play(arbiter, "lift e5")
    assert named(arbiter.view()) == {"e5": "origin", "e6": "target", "d6": "en_passant"}


def test_a_lifted_king_shows_castling_apart_from_quiet_moves_and_captures() -> None:
    # The knight on f2 guards d1: no castling on the queen's side.
    arbiter = MoveReader(Game.from_fen("r3k2r/8/8/8/8/8/5n2/R3K2R w KQkq - 0 1"))
    play(arbiter, "lift e1")
    roles = named(arbiter.view())
    assert roles == {
        "e1": "origin",
        "f1": "target",
        "g1": "castle",
        "d2": "target",
        "e2": "target",
        "f2": "capture",
    }


def test_lifting_hides_the_last_move() -> None:
    arbiter = MoveReader(Game())
    play(arbiter, "lift e2, place e4")
    arbiter.tick(5000)
    play(arbiter, "lift b8", start_ms=6000)
    assert named(arbiter.view()) == {"b8": "origin", "a6": "target", "c6": "target"}


def test_an_opponent_piece_lifted_shows_the_pieces_that_can_take_it() -> None:
    arbiter = MoveReader(Game.from_fen("4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1"))
    play(arbiter, "lift d5")
    assert named(arbiter.view()) == {"c3": "capturer", "e4": "capturer", "d5": "capture"}


def test_an_opponent_piece_nothing_can_take_is_shown_alone() -> None:
    arbiter = MoveReader(Game.from_fen("4k3/8/8/p7/8/8/8/4K3 w - - 0 1"))
    play(arbiter, "lift a5")
    assert named(arbiter.view()) == {"a5": "origin"}


def test_a_pending_castling_shows_what_can_still_complete_it() -> None:
    arbiter = MoveReader(Game.from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"))
    play(arbiter, "lift e1, place g1")
    assert named(arbiter.view()) == {
        "e1": "pending",
        "f1": "target",
        "g1": "pending",
        "h1": "target",
    }
    play(arbiter, "lift h1", start_ms=2000)
    assert named(arbiter.view()) == {
        "e1": "pending",
        "f1": "target",
        "g1": "pending",
        "h1": "origin",
    }


def test_a_pending_queenside_castling_shows_the_rooks_path() -> None:
    arbiter = MoveReader(Game.from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"))
    play(arbiter, "lift e1, place c1")
    assert named(arbiter.view()) == {
        "a1": "target",
        "c1": "pending",
        "d1": "target",
        "e1": "pending",
    }


def test_a_pending_slide_shows_where_it_may_go_on() -> None:
    arbiter = MoveReader(Game())
    play(arbiter, "lift e2, place e3")
    roles = named(arbiter.view())
    assert roles["e2"] == roles["e3"] == "pending"
    assert roles["e4"] == "target"


def test_a_mismatch_shows_where_pieces_must_come_back_and_leave() -> None:
    arbiter = MoveReader(Game())
    play(arbiter, "lift g1, place g3")
    arbiter.tick(5000)
    assert named(arbiter.view()) == {"g1": "missing", "g3": "extra"}


def test_a_mismatch_with_several_pairs_shows_one_pair_at_a_time() -> None:
    view = BoardView(
        fen=STARTING_FEN,
        turn_white=True,
        sensors=START_OCCUPANCY & ~bits("b1", "g1") | bits("b4", "g4"),
        missing=bits("b1", "g1"),
        extra=bits("b4", "g4"),
        pairs=((sq("g4"), sq("g1")), (sq("b4"), sq("b1"))),
    )
    assert named(view) == {"g1": "missing", "g4": "extra"}
    fixed = BoardView(
        fen=STARTING_FEN,
        turn_white=True,
        sensors=START_OCCUPANCY & ~bits("b1") | bits("b4"),
        missing=bits("b1"),
        extra=bits("b4"),
        pairs=((sq("b4"), sq("b1")),),
    )
    assert named(fixed) == {"b1": "missing", "b4": "extra"}


def test_unpaired_mismatch_squares_are_all_shown() -> None:
    view = BoardView(
        fen=STARTING_FEN,
        turn_white=True,
        sensors=START_OCCUPANCY & ~bits("a2", "h2"),
        missing=bits("a2", "h2"),
    )
    assert named(view) == {"a2": "missing", "h2": "missing"}


def test_strict_mode_shows_the_touched_piece_that_must_move() -> None:
    arbiter = MoveReader(Game(), mode="strict")
    play(arbiter, "lift g1, place g1")
    assert named(arbiter.view()) == {"g1": "must_move"}


def test_strict_mode_shows_a_violation_and_what_to_restore() -> None:
    arbiter = MoveReader(Game(), mode="strict")
    t = play(arbiter, "lift g1, place g1, lift b1, place c3")
    arbiter.tick(t + 5000)
    view = arbiter.view()
    assert view.violation == sq("g1")
    assert named(view) == {"b1": "missing", "g1": "violation", "c3": "extra"}


def test_a_promotion_square_shows_the_on_board_choice() -> None:
    arbiter = MoveReader(Game.from_fen("7k/4P3/8/8/8/8/8/4K3 w - - 0 1"))
    t = play(arbiter, "lift e7, place e8")
    arbiter.tick(t + 5000)
    view = arbiter.view()
    assert view.promotion == sq("e8")
    assert named(view)["e8"] == "promotion"


def test_the_hosts_move_is_shown_until_it_is_played() -> None:
    arbiter = MoveReader(Game())
    arbiter.show_move(Game().position.parse_uci("e2e4"))
    assert named(arbiter.view()) == {"e2": "hint", "e4": "hint"}
    play(arbiter, "lift e2")
    assert named(arbiter.view()) == {"e2": "origin", "e3": "target", "e4": "hint"}
    play(arbiter, "place e4", start_ms=2000)
    arbiter.tick(5000)
    assert named(arbiter.view()) == {"e2": "last_move", "e4": "last_move"}


def test_game_over_shows_the_result_on_the_kings() -> None:
    arbiter = MoveReader(Game.from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"))
    t = play(arbiter, "lift a1, place a8")
    arbiter.tick(t + 5000)
    view = arbiter.view()
    assert view.result == "1-0"
    assert named(view) == {"a1": "last_move", "g1": "result", "a8": "last_move", "g8": "check"}


def test_a_draw_lights_both_kings() -> None:
    view = BoardView(
        fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        turn_white=False,
        sensors=bits("h8", "f7", "g6"),
        result="1/2-1/2",
        reason="stalemate",
    )
    assert named(view) == {"g6": "result", "h8": "result"}


def test_an_own_piece_without_moves_lights_its_square_alone() -> None:
    view = BoardView(
        fen=STARTING_FEN, turn_white=True, sensors=START_OCCUPANCY & ~bits("a1"), lifted=bits("a1")
    )
    assert named(view) == {"a1": "origin"}


def test_scene_for_gives_each_square_the_palettes_look() -> None:
    view = BoardView(
        fen=STARTING_FEN,
        turn_white=True,
        sensors=START_OCCUPANCY & ~bits("b1"),
        lifted=bits("b1"),
        targets=(Targets(sq("b1"), quiet=bits("a3", "c3")),),
    )
    frame = scene_for(view)
    assert frame.lit_roles() == {"b1": "origin", "a3": "target", "c3": "target"}
    cell = frame.cells[sq("b1")]
    assert cell is not None and cell.colour == (255, 255, 255) and cell.effect == "steady"


def test_the_hosts_marks_show_while_the_hands_are_empty_and_clear_with_the_move() -> None:
    arbiter = MoveReader(Game())
    arbiter.mark(bits("c6", "d4"), bits("f6"))
    assert named(arbiter.view()) == {"c6": "marked", "d4": "marked", "f6": "marked_blink"}
    # A piece in the hand: the board's own guidance for it, the marks step back.
    play(arbiter, "lift e2")
    assert named(arbiter.view()) == {"e2": "origin", "e3": "target", "e4": "target"}
    play(arbiter, "place e4", start_ms=2000)
    arbiter.tick(5000)
    assert named(arbiter.view()) == {"e2": "last_move", "e4": "last_move"}


def test_marks_go_under_a_hint_and_a_check_and_over_the_last_move() -> None:
    arbiter = MoveReader(Game.from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"))
    play(arbiter, "lift a1, place a8")
    arbiter.tick(5000)
    arbiter.mark(bits("a8", "e8", "h1"))
    assert named(arbiter.view()) == {
        "a1": "last_move",
        "a8": "marked",
        "e8": "check",
        "h1": "marked",
    }
    arbiter.show_move(arbiter.position.parse_uci("e8d7"))
    arbiter.mark(bits("d7", "h1"))
    assert named(arbiter.view()) == {
        "a1": "last_move",
        "a8": "last_move",
        "e8": "hint",
        "d7": "hint",
        "h1": "marked",
    }


def test_a_new_game_clears_the_marks_and_the_hint() -> None:
    arbiter = MoveReader(Game())
    arbiter.mark(bits("c6"))
    arbiter.show_move(Game().position.parse_uci("e2e4"))
    arbiter.start_game(Game(), 100)
    assert named(arbiter.view()) == {}


def test_a_flag_fallen_pulses_on_the_losers_king() -> None:
    game = Game.from_fen("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1")
    game.flag_fell(BLACK, opponent_can_mate=True)
    roles = scene_roles(MoveReader(game).view())
    assert roles[sq("g8")] == "flag" and roles[sq("g1")] == "result"


def test_low_time_lights_the_players_back_rank_only_when_idle() -> None:
    arbiter = MoveReader(Game())
    idle = scene_roles(arbiter.view(), low_time=BLACK)
    assert {s for s, role in idle.items() if role == "low_time"} == set(squares_of(BB_RANKS[7]))
    arbiter.feed(SquareChange(sq("e2"), False, 1000))
    busy = scene_roles(arbiter.view(), low_time=WHITE)
    assert "low_time" not in busy.values()  # a piece in the hand: its guidance first
