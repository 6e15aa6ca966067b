"""The board's voice in its loop: effects said as they are published, a move the host
lights said as the move to play, and the questions a player asks by tapping
(`voice/taps.py`) or the host asks (`say`), answered from the game itself.

`BoardVoice.effect` hears each effect and `BoardVoice.watch` watches the board each turn
(it is the App's `voice`): both run in the loop's turn and only queue sentences on the
`Speaker`, which says them off the loop.
`tournament` is the one switch that silences it all: in a tournament the board never
speaks (a relay sets it).
"""

from __future__ import annotations

from dataclasses import replace

from reedboard.board_game import BoardGame
from reedboard.errors import InvalidInputError
from reedboard.events import NewGame
from reedboard.hal.speech import Speaker
from reedboard.link.board_messages import EffectMessage
from reedboard.rules.game import Game
from reedboard.rules.moves import Move
from reedboard.rules.squares import parse_square
from reedboard.sensing.selftest import SelfTestReport
from reedboard.voice import sentences
from reedboard.voice.narrator import FLEETING, Narrator
from reedboard.voice.phrasebook import Phrasebook
from reedboard.voice.taps import Taps


def answer(
    book: Phrasebook, game: Game, question: str, clocks: tuple[int, int] | None = None
) -> str:
    """The sentence that answers `question`: "position", "last", "clock" (`clocks`: both
    players' time left, None when the game is not timed), or a square ("e4").
    An unknown question raises InvalidInputError naming it."""
    if question == "clock":
        return sentences.clock_words(book, clocks)
    if question == "position":
        return sentences.position_words(book, game.position)
    if question == "last":
        if not game.moves:
            return sentences.last_move_words(book, None, None)
        return sentences.last_move_words(book, game.positions[-2], game.moves[-1])
    try:
        square = parse_square(question)
    except InvalidInputError:
        raise InvalidInputError(
            f"cannot say {question!r}: ask for position, last, clock or a square (e4)"
        ) from None
    return sentences.square_words(book, game.position, square)


class BoardVoice:
    def __init__(self, speaker: Speaker, book: Phrasebook) -> None:
        self.speaker = speaker
        self.book = book
        self.tournament = False  # the switch: never a word while it is set
        self._round = False  # the same switch, set by the host (a relay) for a round
        self.narrator: Narrator | None = None
        self.taps = Taps()
        self._board_game: BoardGame | None = None
        self._hint: Move | None = None
        self._seen: tuple[int, int] | None = None  # occupancy and position, last turn
        self.muted = False  # turned off from the board's page

    def say(self, text: str, *, fleeting: bool = False) -> None:
        if not (self.tournament or self._round or self.muted) and text:
            self.speaker.say(text, fleeting=fleeting)

    def set_language(self, code: str) -> None:
        """Speak `code` ("en") from now on; from any thread (the board's page): the loop
        follows the game in the new language from its next turn, and espeak-ng speaks it
        with that language's voice. An unknown code raises InvalidInputError."""
        from reedboard.voice.codes import LANGUAGE_CODES
        from reedboard.voice.languages import phrasebook

        if code not in LANGUAGE_CODES:
            raise InvalidInputError(f"no voice in {code!r}: one of {', '.join(LANGUAGE_CODES)}")
        self.book = phrasebook(code)
        self.narrator = None  # made again in the new language by the loop's next `watch`
        settings = getattr(self.speaker, "settings", None)
        if settings is not None and hasattr(settings, "voice"):
            self.speaker.settings = replace(settings, voice=self.book.espeak_voice)  # type: ignore[attr-defined]

    def effect(self, message: EffectMessage) -> None:
        """An effect as the App publishes it."""
        if self.narrator is None:
            return
        effect = message.effect
        chess960 = isinstance(effect, NewGame) and bool(effect.chess960)
        text = self.narrator.hear(effect, chess960=chess960)
        if text:
            self.say(text, fleeting=effect.kind in FLEETING)

    def watch(self, board_game: BoardGame, now: int) -> None:
        """Each turn of the loop: the game as it stands."""
        if self.narrator is None or board_game is not self._board_game:
            # The first turn, or a fresh game object: follow it from where it stands.
            self.narrator = Narrator(self.book, board_game.game.position)
            self._board_game = board_game
        self.narrator.strict = board_game.settings.mode == "strict"
        self._round = board_game.settings.tournament  # set by the host for a round
        self._lit_move(board_game)
        self._tapped(board_game, now)

    def pending(self) -> bool:
        """Whether a player's taps still wait for their answer (the loop turns on for it)."""
        return self.taps.waiting()

    def ask(self, question: str) -> str:
        """Answer a question (`answer`) aloud; the sentence is returned too."""
        if self._board_game is None:
            raise InvalidInputError("the board has not started yet")
        board_game = self._board_game
        text = answer(self.book, board_game.game, question, _clocks(board_game))
        self.say(text)
        return text

    def _lit_move(self, board_game: BoardGame) -> None:
        hint = board_game.arbiter.hint
        if hint is not None and hint != self._hint:
            self.say(sentences.to_play_words(self.book, board_game.game.position, hint))
        self._hint = hint

    def _tapped(self, board_game: BoardGame, now: int) -> None:
        seen = (board_game.debouncer.occupancy, board_game.game.position.occupied)
        if seen != self._seen:
            self._seen = seen
            self.taps.changed(*seen, now)
        asked = self.taps.due(now)
        if asked is None:
            return
        # The tapped square blinks: a sighted player sees that the board heard.
        board_game.arbiter.mark(0, 1 << asked.square)
        self.say(answer(self.book, board_game.game, asked.what, _clocks(board_game, now)))

    def self_test(self, report: SelfTestReport) -> None:
        """The start-up self-test's faults, naming their squares."""
        squares = 0
        for fault in report.faults:
            for square in fault.squares:
                squares |= 1 << square
        if squares:
            self.say(sentences.start_fault_words(self.book, squares))

    def close(self) -> None:
        self.speaker.close()


def _clocks(board_game: BoardGame, now_ms: int | None = None) -> tuple[int, int] | None:
    clock = board_game.clock_now(now_ms)
    return None if clock is None else (clock.white_ms, clock.black_ms)
