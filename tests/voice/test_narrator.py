"""Every effect the board emits, said in both languages: exact sentences."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from reedboard.events import (
    ClockPressed,
    Effect,
    GameOver,
    Illegal,
    MoveMade,
    NewGame,
    Offered,
    PromotionChosen,
    Restored,
    SensorFault,
    SetupStarted,
    TakenBack,
    TimeAdded,
    Touched,
    Violation,
)
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.position import Position
from reedboard.rules.squares import bitboard_of, parse_square
from reedboard.voice.languages import phrasebook
from reedboard.voice.narrator import Narrator

AFTER_E4_D5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
EN_PASSANT = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
CASTLES = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
PROMOTES = "5r2/4P1k1/8/8/8/8/8/4K3 w - - 0 1"
CHECKS = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
MATES = "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1"
AFTER_NF3 = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"


def sq(name: str) -> int:
    return parse_square(name)


def bb(*names: str) -> int:
    return bitboard_of([sq(n) for n in names])


def move(uci: str, fen: str = "8/8/8/8/8/8/8/8 w - - 0 1") -> MoveMade:
    return MoveMade(0, uci, "", fen, 1)


@dataclass(frozen=True)
class Case:
    name: str
    start: str
    effects: tuple[Effect, ...]  # the sentence checked is the last effect's
    fr: str | None
    en: str | None
    strict: bool = False


def after(fen: str, uci: str) -> str:
    position = Position.from_fen(fen)
    return position.play(position.parse_uci(uci)).fen()


CASES = (
    Case(
        "quiet move",
        STARTING_FEN,
        (move("g1f3", AFTER_NF3),),
        "Cavalier g1 f3.",
        "Knight g1 to f3.",
    ),
    Case(
        "capture",
        AFTER_E4_D5,
        (move("e4d5", after(AFTER_E4_D5, "e4d5")),),
        "Pion e4 prend pion d5.",
        "Pawn e4 takes pawn d5.",
    ),
    Case(
        "en passant",
        EN_PASSANT,
        (move("e5f6", after(EN_PASSANT, "e5f6")),),
        "Pion e5 prend f6 en passant.",
        "Pawn e5 takes f6 en passant.",
    ),
    Case(
        "castling kingside",
        CASTLES,
        (move("e1g1", after(CASTLES, "e1g1")),),
        "Petit roque.",
        "Castles kingside.",
    ),
    Case(
        "castling queenside",
        CASTLES,
        (move("e1c1", after(CASTLES, "e1c1")),),
        "Grand roque.",
        "Castles queenside.",
    ),
    Case(
        "promotion",
        PROMOTES,
        (move("e7e8q", after(PROMOTES, "e7e8q")),),
        "Pion e7 e8, promotion en dame.",
        "Pawn e7 to e8, promotes to queen.",
    ),
    Case(
        "capture and promotion to a knight",
        PROMOTES,
        (move("e7f8n", after(PROMOTES, "e7f8n")),),
        "Pion e7 prend tour f8, promotion en cavalier.",
        "Pawn e7 takes rook f8, promotes to knight.",
    ),
    Case(
        "check",
        CHECKS,
        (move("a1a8", after(CHECKS, "a1a8")),),
        "Tour a1 a8, échec.",
        "Rook a1 to a8, check.",
    ),
    Case(
        "checkmate",
        MATES,
        (move("a1a8", after(MATES, "a1a8")),),
        "Tour a1 a8, échec et mat.",
        "Rook a1 to a8, checkmate.",
    ),
    Case(
        "won by checkmate",
        MATES,
        (GameOver(0, "1-0", "checkmate"),),
        "Les blancs gagnent.",
        "White wins.",
    ),
    Case(
        "stalemate",
        STARTING_FEN,
        (GameOver(0, "1/2-1/2", "stalemate"),),
        "Partie nulle : pat.",
        "Draw: stalemate.",
    ),
    Case(
        "black wins on resignation",
        STARTING_FEN,
        (GameOver(0, "0-1", "resignation"),),
        "Les noirs gagnent : abandon.",
        "Black wins: resignation.",
    ),
    Case(
        "drawn by insufficient material",
        STARTING_FEN,
        (GameOver(0, "1/2-1/2", "insufficient_material"),),
        "Partie nulle : matériel insuffisant.",
        "Draw: insufficient material.",
    ),
    Case("a touch in casual mode", STARTING_FEN, (Touched(0, sq("g1"), "N"),), None, None),
    Case(
        "a binding touch in strict mode",
        STARTING_FEN,
        (Touched(0, sq("g1"), "N"),),
        "Pièce touchée : il faut jouer le cavalier g1.",
        "Touched: you must move the knight on g1.",
        strict=True,
    ),
    Case(
        "a piece that cannot move does not bind",
        STARTING_FEN,
        (Touched(0, sq("a1"), "R"),),
        None,
        None,
        strict=True,
    ),
    Case(
        "only the first binding touch is said",
        STARTING_FEN,
        (Touched(0, sq("g1"), "N"), Touched(5, sq("b1"), "N")),
        None,
        None,
        strict=True,
    ),
    Case(
        "an opponent's piece touched that can be taken",
        AFTER_E4_D5,
        (Touched(0, sq("d5"), "p"),),
        "Pièce touchée : il faut prendre le pion d5.",
        "Touched: you must take the pawn on d5.",
        strict=True,
    ),
    Case(
        "illegal: a pair",
        STARTING_FEN,
        (Illegal(0, bb("g1"), bb("g3"), ((sq("g3"), sq("g1")),)),),
        "Illégal : remettez le cavalier en g1, depuis g3.",
        "Illegal: put the knight back on g1, from g3.",
    ),
    Case(
        "illegal: one pair at a time, then what no pair explains",
        STARTING_FEN,
        (
            Illegal(
                0,
                bb("d1", "g1", "a2"),
                bb("g3", "d4"),
                ((sq("g3"), sq("g1")), (sq("d4"), sq("d1"))),
            ),
        ),
        "Illégal : remettez le cavalier en g1, depuis g3, remettez le pion en a2.",
        "Illegal: put the knight back on g1, from g3, put the pawn back on a2.",
    ),
    Case(
        "illegal: the second pair once the first is put right",
        STARTING_FEN,
        (Illegal(0, bb("d1"), bb("d4"), ((sq("d4"), sq("d1")),)),),
        "Illégal : remettez la dame en d1, depuis d4.",
        "Illegal: put the queen back on d1, from d4.",
    ),
    Case(
        "illegal: a board being set up says the first steps and how many more",
        STARTING_FEN,
        (Illegal(0, bb("a1", "b1", "c1", "d1", "e1", "a2"), 0),),
        "Illégal : remettez la tour en a1, remettez le cavalier en b1, remettez le fou en c1, "
        "et 3 autres.",
        "Illegal: put the rook back on a1, put the knight back on b1, put the bishop back on c1, "
        "and 3 more.",
    ),
    Case(
        "illegal: a piece too many",
        STARTING_FEN,
        (Illegal(0, 0, bb("e4")),),
        "Illégal : enlevez la pièce de e4.",
        "Illegal: take the piece off e4.",
    ),
    Case("restored", STARTING_FEN, (Restored(0),), "Position rétablie.", "Board restored."),
    Case(
        "touch-move breach names the article",
        STARTING_FEN,
        (Violation(0, "4.3a", sq("g1"), "a touched piece must be moved"),),
        "Article 4.3a, pièce touchée : il faut jouer le cavalier g1.",
        "Article 4.3a, touch-move: you must move the knight on g1.",
        strict=True,
    ),
    Case(
        "an opponent's touched piece must be taken",
        AFTER_E4_D5,
        (Violation(0, "4.3b", sq("d5"), "a touched opponent's piece must be captured"),),
        "Article 4.3b, pièce touchée : il faut prendre le pion d5.",
        "Article 4.3b, touch-move: you must take the pawn on d5.",
        strict=True,
    ),
    Case(
        "castling breach",
        CASTLES,
        (Violation(0, "4.4a", sq("e1"), "king and then rook touched: castle on that side"),),
        "Article 4.4a, roi puis tour touchés : roquez de ce côté.",
        "Article 4.4a, king then rook touched: castle on that side.",
        strict=True,
    ),
    Case(
        "takeback",
        AFTER_NF3,
        (TakenBack(0, "g1f3", STARTING_FEN),),
        "Coup repris : cavalier g1 f3.",
        "Taken back: knight g1 to f3.",
    ),
    Case(
        "new game",
        ITALIAN,
        (NewGame(0, STARTING_FEN),),
        "Nouvelle partie, trait aux blancs.",
        "New game, white to move.",
    ),
    Case(
        "promotion piece chosen",
        STARTING_FEN,
        (PromotionChosen(0, "n"),),
        "Prochaine promotion en cavalier.",
        "Next promotion to knight.",
    ),
    Case(
        "a result offered",
        STARTING_FEN,
        (Offered(0, "1/2-1/2", "made"),),
        "Résultat proposé : partie nulle.",
        "Result offered: draw.",
    ),
    Case(
        "a result offer cancelled",
        STARTING_FEN,
        (Offered(0, "1-0", "cancelled"),),
        "Proposition de résultat annulée.",
        "Result offer cancelled.",
    ),
    Case("a result offer confirmed", STARTING_FEN, (Offered(0, "1-0", "confirmed"),), None, None),
    Case("a clock pressed", STARTING_FEN, (ClockPressed(0, 300_000, 297_500),), None, None),
    Case(
        "time added by the arbiter (FIDE 7.5.5)",
        STARTING_FEN,
        (TimeAdded(0, False, 120_000, 301_000, 420_000),),
        "2 minutes de plus pour les noirs. Blancs 5 minutes 1, noirs 7 minutes.",
        "2 minutes added to black's clock. White 5 minutes 1, black 7 minutes.",
    ),
    Case(
        "Chess960 setup",
        STARTING_FEN,
        (SetupStarted(0, 0, Position.chess960_start(0).fen()),),
        "Position Chess960 numéro 0 ; de a à h : fou, fou, dame, cavalier, cavalier, tour, roi, tour.",
        "Chess960 position 0; from a to h: bishop, bishop, queen, knight, knight, rook, king, rook.",
    ),
    Case(
        "a faulty switch",
        STARTING_FEN,
        (SensorFault(0, sq("e4"), "chattering", False),),
        "Capteur défectueux en e4.",
        "Faulty sensor on e4.",
    ),
    Case(
        "a switch recovered",
        STARTING_FEN,
        (SensorFault(0, sq("e4"), "recovered", False),),
        "Le capteur de e4 fonctionne de nouveau.",
        "The sensor on e4 works again.",
    ),
)


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_effect_is_said(case: Case, language: str) -> None:
    narrator = Narrator(phrasebook(language), Position.from_fen(case.start), strict=case.strict)
    said = [narrator.hear(effect) for effect in case.effects]
    assert said[-1] == (case.fr if language == "fr" else case.en)


def test_every_effect_kind_has_a_case() -> None:
    kinds = {type(effect).__name__ for case in CASES for effect in case.effects}
    assert kinds == {t.__name__ for t in Effect.__args__}


def test_the_narrator_follows_the_game() -> None:
    """Each move is said in the position the moves before it left."""
    narrator = Narrator(phrasebook("fr"), Position.standard())
    said = [
        narrator.hear(move(uci, fen))
        for uci, fen in (
            ("e2e4", after(STARTING_FEN, "e2e4")),
            ("d7d5", after(after(STARTING_FEN, "e2e4"), "d7d5")),
            ("e4d5", after(AFTER_E4_D5, "e4d5")),
        )
    ]
    assert said == ["Pion e2 e4.", "Pion d7 d5.", "Pion e4 prend pion d5."]
    assert narrator.last_move() == "Dernier coup : pion e4 prend pion d5."


def test_a_new_game_forgets_the_last_move() -> None:
    narrator = Narrator(phrasebook("en"), Position.standard())
    narrator.hear(move("g1f3", AFTER_NF3))
    assert narrator.last_move() == "Last move: knight g1 to f3."
    narrator.hear(NewGame(0, STARTING_FEN))
    assert narrator.last_move() == "No move yet."


def test_a_move_out_of_step_is_not_said() -> None:
    narrator = Narrator(phrasebook("en"), Position.standard())
    assert narrator.hear(move("e7e5", STARTING_FEN)) is None
