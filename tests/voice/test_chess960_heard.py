"""A new game the link says is Chess960 is followed as Chess960, even from a start that
looks like standard chess (position 518): its castling is then the king onto the rook."""

from __future__ import annotations

from reedboard.events import NewGame
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.position import Position
from reedboard.voice.languages import phrasebook
from reedboard.voice.narrator import Narrator


def test_the_links_chess960_flag_makes_the_new_game_chess960() -> None:
    for chess960 in (False, True):
        narrator = Narrator(phrasebook("en"), Position.standard())
        assert narrator.hear(NewGame(0, STARTING_FEN), chess960=chess960)
        assert narrator.position.chess960 == chess960
