"""What the arbiter tells the rest of the board: the board's events (`reedboard.events`),
under the names the arbiter's modules import them by."""

from __future__ import annotations

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

__all__ = [
    "ClockPressed",
    "Effect",
    "GameOver",
    "Illegal",
    "MoveMade",
    "NewGame",
    "Offered",
    "PromotionChosen",
    "Restored",
    "SensorFault",
    "SetupStarted",
    "TakenBack",
    "TimeAdded",
    "Touched",
    "Violation",
]
