"""The shapes of what Lichess sends that the bridge reads, as its published API describes
them (`GameFullEvent`, `GameStateEvent`, `GameEventInfo`, `ChallengeJson`...), only the
fields read. They are promises for the type checker, not checks: a JSON object from
Lichess is taken as one of these unread, and the synchroniser skips an object whose
fields turn out to be of another kind (a `KeyError`, `TypeError`...)."""

from __future__ import annotations

from typing import TypedDict


class VariantInfo(TypedDict, total=False):
    key: str
    name: str


class Player(TypedDict, total=False):
    id: str
    name: str
    rating: int
    aiLevel: int


class Clock(TypedDict, total=False):
    initial: int  # milliseconds
    increment: int  # milliseconds


class GameState(TypedDict, total=False):
    type: str  # "gameState"
    moves: str  # every move from the start, in UCI, space separated
    status: str
    winner: str
    wtime: int
    btime: int
    wdraw: bool
    bdraw: bool
    wtakeback: bool
    btakeback: bool


class GameFull(TypedDict, total=False):
    type: str  # "gameFull"
    id: str
    variant: VariantInfo
    white: Player
    black: Player
    initialFen: str
    clock: Clock
    speed: str
    state: GameState


class ChatLine(TypedDict, total=False):
    type: str  # "chatLine"
    username: str
    text: str


class OpponentGone(TypedDict, total=False):
    type: str  # "opponentGone"
    gone: bool
    claimWinInSeconds: int


class GameEventInfo(TypedDict, total=False):
    gameId: str
    id: str
    variant: VariantInfo


class TimeControl(TypedDict, total=False):
    show: str


class Compat(TypedDict, total=False):
    board: bool


class Challenge(TypedDict, total=False):
    id: str
    direction: str  # "in" or "out"
    challenger: Player
    destUser: Player
    rated: bool
    variant: VariantInfo
    timeControl: TimeControl
    compat: Compat
    declineReason: str
    declineReasonKey: str


class AccountEvent(TypedDict, total=False):
    type: str  # "gameStart", "gameFinish", "challenge", "challengeDeclined"...
    game: GameEventInfo
    challenge: Challenge
    compat: Compat
