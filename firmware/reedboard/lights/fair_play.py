"""Tournament mode's lights: nothing that helps a player, only what the arbiter needs.

A tournament board lights no legal targets, no capturers, no check, no move the host
asks for and no host marks: fair play (FIDE's Laws forbid a player any assistance). It
keeps what the game cannot go on without: the set-up and its check, a mismatch and where
the pieces must go back, faulty switches, touch-move's obligations, a promotion's choice,
a result told with the kings, and the result. Pure."""

from __future__ import annotations

from dataclasses import replace

from reedboard.reader.view import BoardView


def fair_play(view: BoardView) -> BoardView:
    return replace(
        view,
        targets=(),
        capturers=0,
        pending_next=0,
        arriving_from=0,  # which pieces could move there: the piece set down alone shows
        check=None,
        hint=None,
        marked=0,
        marked_blink=0,
    )
