"""What the board says on request, and a move it lights for the player: exact sentences."""

from __future__ import annotations

import pytest
from reedboard.board_game import BoardGame, Settings
from reedboard.chess_clock.time_control import parse_time_control
from reedboard.errors import InvalidInputError
from reedboard.hal.recording_speaker import RecordingSpeaker
from reedboard.link.messages import Say, parse_command
from reedboard.rules.game import Game
from reedboard.rules.position import Position
from reedboard.rules.squares import bitboard_of, parse_square
from reedboard.speaking import BoardVoice, answer
from reedboard.voice import sentences
from reedboard.voice.languages import LANGUAGES, phrasebook

ENDING = "4k3/8/8/8/4N3/8/3PP3/R3K2R b KQ - 0 1"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "fr",
            "Blancs : roi e1, tours a1 et h1, cavalier e4, pions d2 et e2. Noirs : roi e8. "
            "Trait aux noirs.",
        ),
        (
            "en",
            "White: king e1, rooks a1 and h1, knight e4, pawns d2 and e2. Black: king e8. "
            "Black to move.",
        ),
    ],
)
def test_the_whole_position_piece_by_piece(language: str, expected: str) -> None:
    position = Position.from_fen(ENDING)
    assert sentences.position_words(phrasebook(language), position) == expected


@pytest.mark.parametrize(
    ("language", "square", "expected"),
    [
        ("fr", "e4", "e4 : cavalier blanc."),
        ("fr", "e8", "e8 : roi noir."),
        ("fr", "e5", "e5 : vide."),
        ("en", "e4", "e4: white knight."),
        ("en", "e5", "e5: empty."),
    ],
)
def test_what_is_on_a_square(language: str, square: str, expected: str) -> None:
    position = Position.from_fen(ENDING)
    said = sentences.square_words(phrasebook(language), position, parse_square(square))
    assert said == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    [("fr", "À jouer : cavalier g1 f3."), ("en", "Your move: knight g1 to f3.")],
)
def test_a_lit_move_is_said_as_the_move_to_play(language: str, expected: str) -> None:
    position = Position.standard()
    said = sentences.to_play_words(phrasebook(language), position, position.parse_uci("g1f3"))
    assert said == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    [("fr", "Défaut au démarrage : e4 et e5."), ("en", "Fault found at start: e4 and e5.")],
)
def test_a_fault_at_start_names_the_squares(language: str, expected: str) -> None:
    squares = bitboard_of([parse_square("e4"), parse_square("e5")])
    assert sentences.start_fault_words(phrasebook(language), squares) == expected


def test_many_faults_at_start_name_the_first_squares_and_count_the_rest() -> None:
    squares = bitboard_of([parse_square(n) for n in ("a1", "b1", "c1", "d1", "e1")])
    said = sentences.start_fault_words(phrasebook("fr"), squares)
    assert said == "Défaut au démarrage : a1, b1, c1, et 2 autres."


@pytest.mark.parametrize(
    ("language", "expected"), [("fr", "Aucun coup joué."), ("en", "No move yet.")]
)
def test_no_last_move(language: str, expected: str) -> None:
    assert sentences.last_move_words(phrasebook(language), None, None) == expected


def test_every_language_has_every_word() -> None:
    """A phrase file may not leave a piece, a side, a reason or an article unsaid."""
    french = phrasebook("fr")
    for book in LANGUAGES.values():
        assert book.pieces.keys() == french.pieces.keys()
        assert book.the_pieces.keys() == french.the_pieces.keys()
        assert book.plurals.keys() == french.plurals.keys()
        assert book.coloured.keys() == french.coloured.keys()
        assert book.reasons.keys() == french.reasons.keys()
        assert book.violations.keys() == french.violations.keys()


def test_an_unknown_language_is_refused_by_name() -> None:
    with pytest.raises(InvalidInputError, match=r"'de'.*en, fr"):
        phrasebook("de")


@pytest.mark.parametrize(
    ("language", "clocks", "expected"),
    [
        ("fr", (299_400, 61_000), "Blancs 4 minutes 59, noirs 1 minute 1."),
        ("en", (299_400, 61_000), "White 4 minutes 59, black 1 minute 1."),
        ("fr", (300_000, 59_999), "Blancs 5 minutes, noirs 59 secondes."),
        ("en", (300_000, 59_999), "White 5 minutes, black 59 seconds."),
        ("fr", (1_200, 0), "Blancs 1 seconde, noirs 0 seconde."),
        ("en", (1_200, 0), "White 1 second, black 0 seconds."),
        ("fr", None, "La partie n'est pas chronométrée."),
        ("en", None, "The game is not timed."),
    ],
)
def test_the_clocks_on_request(
    language: str, clocks: tuple[int, int] | None, expected: str
) -> None:
    assert sentences.clock_words(phrasebook(language), clocks) == expected


def test_the_board_answers_say_clock_from_its_own_clocks() -> None:
    timed = BoardGame(
        Game(Position.standard()),
        Position.standard().occupied,
        Settings(time_control=parse_time_control("5+0")),
    )
    timed.advance(1_000)  # White's time has run a second
    assert answer(phrasebook("en"), timed.game, "clock", (299_000, 300_000)) == (
        "White 4 minutes 59, black 5 minutes."
    )
    voice = BoardVoice(RecordingSpeaker(), phrasebook("en"))
    voice.watch(timed, 1_000)
    assert voice.ask("clock") == "White 4 minutes 59, black 5 minutes."
    untimed = BoardGame(Game(Position.standard()), Position.standard().occupied)
    voice.watch(untimed, 0)
    assert voice.ask("clock") == "The game is not timed."
    assert parse_command({"type": "say", "what": "clock", "id": 1}) == Say("clock", 1)


@pytest.mark.parametrize(
    ("code", "down", "back"),
    [
        ("en", "The broadcast is down. The board keeps the game.", "The broadcast is back."),
        (
            "fr",
            "La retransmission est coupée. L'échiquier garde la partie.",
            "La retransmission est rétablie.",
        ),
    ],
)
def test_the_broadcast_is_told_in_the_voice_language(code: str, down: str, back: str) -> None:
    book = phrasebook(code)
    assert sentences.broadcast_words(book, back=False) == down
    assert sentences.broadcast_words(book, back=True) == back
