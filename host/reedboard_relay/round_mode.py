"""The round's tournament mode, board by board: what the relay told each board, what
each board acknowledged, and when to tell a board again. Pure: the time is given, and the
caller sends the `settings` commands it is handed.

A `settings` command can be lost on its way: a board away when the round was switched,
whose broker then lost its session (a broker restarted without its store), never gets
it; an `ack` can be lost too. So a board owes an acknowledgement of the mode it was told
until its `ack` says that mode, and is told again when it is next heard (its `alive`
every second, or any message), no sooner than `RETELL_FIRST_S` after the last telling,
then after twice as long each time up to `RETELL_LONGEST_S` (a relay behind its broker
hears every answer late: telling again at every `alive` would pile up more)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from reedboard.link.acks import SettingsNow
from reedboard.link.board_messages import Ack, BoardHello, BoardMessage, ErrorReply
from reedboard.link.messages import ChangeSettings

SETTINGS_IDS = 2_000_000_000  # a `settings` command's id: + 1 for tournament mode on, + 0 off
RETELL_FIRST_S = 3.0
RETELL_LONGEST_S = 24.0


def settings_command(on: bool) -> ChangeSettings:
    return ChangeSettings(id=SETTINGS_IDS + int(on), tournament=on)


def answers_settings(message: BoardMessage) -> bool:
    """Whether `message` is a board's `ack` or `error` answering a `settings` command."""
    return isinstance(message, Ack | ErrorReply) and message.id in (
        SETTINGS_IDS,
        SETTINGS_IDS + 1,
    )


@dataclass
class RoundMode:
    on: bool = False  # the round's tournament mode
    # What each board's latest `ack` of `settings` says (absent: none since it started).
    acknowledged: dict[str, bool] = field(default_factory=dict)
    # The mode each board was told and has not yet acknowledged.
    owed: dict[str, bool] = field(default_factory=dict)
    # Boards that acknowledged leaving the round's tournament mode, told by someone else
    # than the relay (flagged on the console until the round's mode is switched).
    left: set[str] = field(default_factory=set)
    # When each board owing an acknowledgement was last told, and how long it waits
    # before it is told again.
    told: dict[str, tuple[float, float]] = field(default_factory=dict)

    def switch(
        self, on: bool, boards: Iterable[str], now: float
    ) -> list[tuple[str, ChangeSettings]]:
        """The round switched (the console, `--tournament`): every board is told now."""
        self.on = on
        self.left.clear()
        told = []
        for board in boards:
            self.owed[board] = on
            self.told.pop(board, None)
            told.append((board, self._telling(board, now)))
        return [(board, command) for board, command in told if command is not None]

    def resumed(self, boards: Iterable[str]) -> None:
        """A relay (re)started on a round in tournament mode: it does not know what each
        board acknowledged before, so each is told again when it is next heard."""
        if self.on:
            for board in boards:
                self.owed[board] = True

    def heard(self, board: str, message: BoardMessage, now: float) -> ChangeSettings | None:
        """A message from the board's stream: the `settings` to send the board now, if any."""
        if isinstance(message, BoardHello):
            # A board (re)starting forgets what it was told: in a tournament round it is
            # told at once; otherwise the relay tells it nothing (its own TOML stands).
            self.acknowledged.pop(board, None)
            self.told.pop(board, None)
            if self.on:
                self.owed[board] = True
            else:
                self.owed.pop(board, None)
        elif isinstance(message, Ack) and isinstance(message.done, SettingsNow):
            # Every `settings` a board acknowledges says the mode it is in now, whoever
            # sent it: a board leaving the round's tournament mode is flagged, and told
            # again at once.
            said = self.acknowledged[board] = message.done.tournament
            if self.owed.get(board) == said:
                del self.owed[board]
                self.told.pop(board, None)
            elif self.on and not said and board not in self.owed:
                self.left.add(board)
                self.owed[board] = True
                self.told.pop(board, None)
        elif answers_settings(message):
            # The board cannot take the setting (a firmware without it): told again, it
            # would answer the same.
            self.owed.pop(board, None)
            self.told.pop(board, None)
        return self._telling(board, now)

    def confirmed(self, board: str) -> bool:
        """Whether the board acknowledged the mode the round is in, and owes nothing."""
        return board not in self.owed and self.acknowledged.get(board) == self.on

    def _telling(self, board: str, now: float) -> ChangeSettings | None:
        on = self.owed.get(board)
        if on is None:
            return None
        when, wait = self.told.get(board, (None, 0.0))
        if when is not None and now - when < wait:
            return None
        self.told[board] = (
            now,
            RETELL_FIRST_S if when is None else min(wait * 2, RETELL_LONGEST_S),
        )
        return settings_command(on)
