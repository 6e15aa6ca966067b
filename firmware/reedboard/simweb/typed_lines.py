"""A typed move's hand steps as the sensor lines the fake switches play, and what the
hands do beside the board meanwhile: the pieces put aside, the spares and the pieces
that come down on each square. The world follows the lines with those in mind.

Pure: the steps in, the lines (times to be set) and the hands' doings out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reedboard.hal.sensor_line import SensorLine
from reedboard.rules.squares import SQUARE_NAMES, Square
from reedboard.simweb.typed import Step


@dataclass
class TypedLines:
    lines: list[SensorLine] = field(default_factory=list)
    trayed: set[Square] = field(default_factory=set)  # lifted squares put beside the board
    promised: dict[Square, str] = field(default_factory=dict)  # spares put down there
    from_origin: dict[Square, Square] = field(default_factory=dict)  # where each came from


def typed_lines(steps: list[Step]) -> TypedLines:
    """The sensor lines of a typed move's steps (times to be set)."""
    typed = TypedLines()
    lines = typed.lines
    spare: str | None = None
    for step in steps:
        if step.action == "lift":
            lines.append(SensorLine(0, "lift", SQUARE_NAMES[step.square]))
        elif step.action == "tray":
            typed.trayed.add(lines[-1].square)  # the piece just lifted
        elif step.action == "spare":
            spare = step.piece
        elif step.action == "choose":
            lines.append(SensorLine(0, "choose", step.piece))
        else:
            if spare is not None:
                typed.promised[step.square] = spare
            elif step.origin is not None:
                typed.from_origin[step.square] = step.origin
            lines.append(SensorLine(0, "place", SQUARE_NAMES[step.square]))
    return typed
