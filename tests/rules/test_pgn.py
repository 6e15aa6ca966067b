"""PGN: export with the seven-tag roster and import of a game's main line."""

from __future__ import annotations

import io

import chess.pgn
import pytest
from reedboard.rules import STARTING_FEN, Game, Position, read_pgn, write_pgn


def _game(*moves: str, start: Position | None = None) -> Game:
    game = Game(start)
    for text in moves:
        game.push_san(text)
    return game


def _tags(text: str) -> list[tuple[str, str]]:
    tags = []
    for line in text.splitlines():
        if line.startswith("["):
            name, _, value = line[1:-1].partition(" ")
            tags.append((name, value.strip('"')))
    return tags


def test_seven_tag_roster_in_order_with_defaults() -> None:
    text = write_pgn(_game("e4", "e5"))
    assert _tags(text) == [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("White", "?"),
        ("Black", "?"),
        ("Result", "*"),
    ]
    assert text.endswith("\n\n1. e4 e5 *\n")


def test_given_headers_and_extra_tags_after_roster() -> None:
    text = write_pgn(
        _game("d4"),
        headers={"White": 'Ann "The Rook"', "Event": "Club", "Annotator": "Bo"},
    )
    tags = _tags(text)
    assert tags[0] == ("Event", "Club")
    assert '[White "Ann \\"The Rook\\""]' in text.splitlines()
    assert tags[7] == ("Annotator", "Bo")
    assert [name for name, _ in tags[:7]] == [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
    ]


@pytest.mark.parametrize(
    ("moves", "result"),
    [
        pytest.param(("f3", "e5", "g4", "Qh4#"), "0-1", id="checkmate-black-wins"),
        pytest.param(
            ("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"), "1-0", id="checkmate-white-wins"
        ),
        pytest.param(("e4",), "*", id="game-goes-on"),
    ],
)
def test_result_from_outcome(moves: tuple[str, ...], result: str) -> None:
    text = write_pgn(_game(*moves))
    assert ("Result", result) in _tags(text)
    assert text.rstrip().endswith(" " + result)


def test_result_given_explicitly() -> None:
    text = write_pgn(_game("e4"), result="1-0")
    assert ("Result", "1-0") in _tags(text)
    assert text.rstrip().endswith("1. e4 1-0")


def test_standard_start_has_no_setup() -> None:
    names = [name for name, _ in _tags(write_pgn(_game("e4")))]
    assert "SetUp" not in names and "FEN" not in names and "Variant" not in names


def test_non_standard_start_writes_setup_and_fen() -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"
    text = write_pgn(_game("Kd7", "e4", start=Position.from_fen(fen)))
    tags = dict(_tags(text))
    assert tags["SetUp"] == "1" and tags["FEN"] == fen
    assert "Variant" not in tags
    assert "40... Kd7 41. e4 *" in text


def test_chess960_writes_variant_setup_and_fen() -> None:
    start = Position.chess960_start(0)  # bbqnnrkr
    game = _game("g3", "g6", start=start)
    tags = dict(_tags(write_pgn(game)))
    assert tags["Variant"] == "Chess960"
    assert tags["SetUp"] == "1"
    assert tags["FEN"] == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"


def test_chess960_standard_array_still_says_chess960() -> None:
    tags = dict(_tags(write_pgn(Game(Position.chess960_start(518)))))
    assert tags["Variant"] == "Chess960"
    assert tags["FEN"] == STARTING_FEN


def test_comments_and_black_move_numbers() -> None:
    text = write_pgn(
        _game("e4", "e5", "Nf3"),
        comments={0: "Open game", 1: "best by test", 3: "a } brace"},
    )
    assert "{Open game} 1. e4 {best by test} 1... e5 2. Nf3 {a ) brace} *" in text


def test_long_movetext_is_wrapped() -> None:
    game = _game(*(["Nc3", "Nc6", "Nb1", "Nb8"] * 3), "e4", "e5", "d4", "d5", "Nf3")
    movetext = write_pgn(game).split("\n\n", 1)[1]
    assert all(len(line) <= 79 for line in movetext.splitlines())
    assert len(movetext.splitlines()) > 1


def test_export_is_read_by_python_chess() -> None:
    moves = ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Nf6", "Re1", "O-O")
    game = _game(*moves, start=Position.chess960_start(518))
    text = write_pgn(game, comments={2: "open game"})
    parsed = chess.pgn.read_game(io.StringIO(text))
    assert parsed is not None
    assert parsed.board().chess960
    assert len(list(parsed.mainline_moves())) == len(moves)
    assert parsed.end().board().fen() == game.position.fen()


PGN_TEXT = """[Event "Casual"]
[Site "Club"]
[Date "2024.01.02"]
[Round "1"]
[White "Ann"]
[Black "Bo \\"B\\""]
[Result "1-0"]

{Start} 1. e4 e5 $1 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) Nc6 ; a rest-of-line comment
3. Bb5 {The Spanish} 3... a6 4. Ba4!? Nf6 5. O-O 1-0
"""


def test_import_main_line_tags_and_comments() -> None:
    pgn = read_pgn(PGN_TEXT)
    assert pgn.headers["Black"] == 'Bo "B"'
    assert pgn.headers["Result"] == "1-0"
    assert pgn.game.san_moves() == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]
    assert pgn.comments == {0: "Start", 5: "The Spanish"}


def test_round_trip_export_import() -> None:
    game = _game("e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6")
    pgn = read_pgn(write_pgn(game, headers={"White": "A"}, comments={4: "note"}))
    assert pgn.game.moves == game.moves
    assert pgn.headers["White"] == "A"
    assert pgn.comments == {4: "note"}


def test_import_chess960_with_fen() -> None:
    moves = ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O")
    for number in (0, 518):
        game = _game(
            *(moves if number == 518 else ("b3", "g6", "Bxh8")),
            start=Position.chess960_start(number),
        )
        pgn = read_pgn(write_pgn(game))
        assert pgn.game.chess960
        assert pgn.game.moves == game.moves
        assert pgn.game.position.fen() == game.position.fen()


def test_import_set_up_position() -> None:
    text = '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. e4 Kd7 *\n'
    pgn = read_pgn(text)
    assert pgn.game.position.board_fen() == "8/3k4/8/8/4P3/8/8/4K3"
