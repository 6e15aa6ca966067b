"""The roles a lit square can play, and the effects that tell them apart.

A role names what a square means to the player (`target`: the lifted piece may go here);
the palette gives each role a colour and an effect. The names are those of
`reedboard replay --lights`, which prints them.
"""

from __future__ import annotations

from typing import Literal, get_args

Role = Literal[
    "origin",  # a lifted piece's square
    "target",  # a quiet legal destination, or a square that can still complete a move
    "capture",  # a capture's destination (or the lifted piece that can be captured)
    "en_passant",  # an en passant capture's destination
    "castle",  # the king's destination in a castling
    "capturer",  # an own piece that can capture the opponent's lifted piece
    "last_move",  # the last move's origin and destination
    "check",  # the checked king
    "missing",  # a piece must come back here
    "extra",  # the piece here must go
    "must_move",  # strict mode: the touched piece that must be moved
    "violation",  # strict mode: the square a broken rule names
    "pending",  # a finished move that may still grow (a slide, the king before its rook)
    "promotion",  # the promotion square while the new piece may still be exchanged
    "setup",  # place a piece here (a guided setup)
    "hint",  # a move the host asks the player to carry out
    "marked",  # a square the host lights for its own reasons (a chess program's pattern)
    "marked_blink",  # the same, blinking as the host asks
    "offer",  # the kings set in the centre to tell a result, waiting for the confirmation
    "result",  # the game is over: the winner's king, or both kings for a draw
    "flag",  # the king of the player whose time ran out
    "low_time",  # a timed game: the back rank of a player whose time is running low
    "fault",  # the self-test found this square's switch faulty
    "sweep",  # the self-test lights every LED in turn
]
ROLES: tuple[Role, ...] = get_args(Role)

# How a role's colour changes over time. Roles that can be lit together differ in effect
# or clearly in lightness, so they stay apart for players who cannot tell hues apart.
LightEffect = Literal["steady", "blink", "pulse"]
EFFECTS: tuple[LightEffect, ...] = get_args(LightEffect)

__all__ = ["EFFECTS", "ROLES", "LightEffect", "Role"]
