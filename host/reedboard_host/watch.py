"""`reedboard-host watch`: the live board in the terminal, as its messages tell it: the
position with the pieces in hand and the squares to put right, a timed game's clocks, the
latest effects, and, with `--say`, the board's sentences spoken on the PC."""

from __future__ import annotations

import argparse
import logging
import sys

from reedboard.errors import LinkError
from reedboard.events import (
    ClockPressed,
    Effect,
    Illegal,
    MoveMade,
    NewGame,
    Restored,
    TakenBack,
    TimeAdded,
    Touched,
)
from reedboard.hal.espeak import EspeakSettings, EspeakSpeaker
from reedboard.link.board_messages import (
    BoardMessage,
    CentralMessage,
    EffectMessage,
    StateMessage,
)
from reedboard.link.central_words import central_words
from reedboard.link.messages import AskState
from reedboard.rules.position import Position
from reedboard.rules.squares import SQUARE_NAMES, square_names_of
from reedboard.stopping import stop_on_signals
from reedboard.voice.languages import phrasebook
from reedboard.voice.narrator import FLEETING, Narrator

from reedboard_host.board_text import board_text, clock_text, effect_line
from reedboard_host.connection import HostError
from reedboard_host.follow import Follower
from reedboard_host.mirror import GameMirror

logger = logging.getLogger(__name__)


def watch(args: argparse.Namespace) -> int:
    recent: list[str] = []
    hands = _Hands()
    clocks: list[tuple[int, int]] = []  # a timed game's latest times, White's and Black's
    voice = HostVoice(args.say) if args.say else None
    mode: list[str | None] = [None]  # the board's mode, from its state
    phone = [""]  # the phone that controls the board over Bluetooth, in words

    def draw(mirror: GameMirror) -> None:
        if mirror.current is None:
            return
        sys.stdout.write("\x1b[H\x1b[2J" if sys.stdout.isatty() else "\n")
        current = mirror.current
        sys.stdout.write(board_text(current.game, hands.lifted, hands.wrong) + "\n\n")
        if clocks:
            sys.stdout.write(clock_text(*clocks[-1]) + "\n")
        if current.result:
            sys.stdout.write(f"result {current.result} ({current.reason})\n")
        if phone[0]:
            sys.stdout.write(phone[0] + "\n")
        sys.stdout.write("\n".join(recent[-10:]) + "\n")
        sys.stdout.flush()

    def message(m: BoardMessage) -> None:
        if isinstance(m, StateMessage):
            hands.stand(m)
            if m.clock is not None:  # a timed game joined late: its clocks at once
                clocks.append((m.clock.white_ms, m.clock.black_ms))
        elif isinstance(m, CentralMessage):
            phone[0] = central_words(m)
            recent.append(phone[0] or "no phone connected over Bluetooth")
        elif isinstance(m, EffectMessage):
            recent.append(effect_line(m))
            hands.follow(m.effect)
            match m.effect:
                case MoveMade(clock=clock) if clock is not None:
                    clocks.append(clock)
                case ClockPressed(white_ms=white, black_ms=black):
                    clocks.append((white, black))
                case TimeAdded(white_ms=white, black_ms=black):
                    clocks.append((white, black))
                case NewGame():
                    clocks.clear()
            said = voice.hear(m) if voice is not None else None
            if said:
                recent.append(f"say {said}")
        draw(follower.mirror)

    follower = Follower(args.port, on_message=message)
    with stop_on_signals():
        try:
            follower.connect(wait_for_board=True)  # a board still starting is waited for
            # The board as it stands, at once: the pieces in hand and the squares to put
            # right come with its state (the game itself came with the connection).
            try:
                reply = follower.connection.request(AskState())
                if isinstance(reply, StateMessage):
                    hands.stand(reply)
                    mode[0] = reply.mode
                    if reply.clock is not None:
                        clocks.append((reply.clock.white_ms, reply.clock.black_ms))
            except HostError as error:
                logger.warning("%s; the board shows without what is in hand", error)
            except LinkError as error:
                follower.lost(error)  # `run` below looks for the board again
            if voice is not None:
                current = follower.mirror.current
                position = current.game.position if current else Position.standard()
                voice.follow(position, strict=mode[0] == "strict")
            draw(follower.mirror)
            follower.run(lambda: False)
        finally:
            follower.connection.close()
            if voice is not None:
                voice.close()
    return 0


class HostVoice:
    """The board's sentences said on the PC, through the same espeak-ng adapter as on the
    board: the narrator follows the game from the position the watch found."""

    def __init__(self, language: str) -> None:
        self.book = phrasebook(language)
        self.speaker = EspeakSpeaker(EspeakSettings(voice=self.book.espeak_voice))
        self.narrator: Narrator | None = None

    def follow(self, position: Position, *, strict: bool = False) -> None:
        self.narrator = Narrator(self.book, position, strict=strict)

    def hear(self, message: EffectMessage) -> str | None:
        if self.narrator is None:
            return None
        effect = message.effect
        chess960 = isinstance(effect, NewGame) and bool(effect.chess960)
        text = self.narrator.hear(effect, chess960=chess960)
        if text:
            self.speaker.say(text, fleeting=effect.kind in FLEETING)
        return text

    def close(self) -> None:
        self.speaker.close()


class _Hands:
    """What the players hold and must put right, as the board's messages tell it."""

    def __init__(self) -> None:
        self.lifted: list[str] = []
        self.wrong: list[str] = []  # squares missing a piece or holding one too many

    def stand(self, state: StateMessage) -> None:
        """The board's state says it all, where it says it."""
        if state.lifted is not None:
            self.lifted = list(state.lifted)
        if state.missing is not None or state.extra is not None:
            self.wrong = [*(state.missing or ()), *(state.extra or ())]

    def follow(self, event: Effect) -> None:
        match event:
            case Touched(square=square):
                self.lifted = [*self.lifted, SQUARE_NAMES[square]]
            case MoveMade() | Restored() | NewGame() | TakenBack():
                self.lifted, self.wrong = [], []
            case Illegal(missing=missing, extra=extra):
                self.wrong = square_names_of(missing) + square_names_of(extra)
