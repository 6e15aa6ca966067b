"""FIDE's Tournament Report File (TRF16, and the TRFx that pairing programs exchange during
a tournament) as the relay's pairings. Pure: text in, a table of boards out.

A TRF names players and, per round, each one's opponent, colour and result; it has no
board numbers and no board ids. The relay takes one round (the last one with pairings
unless told) and numbers its games as pairing programs publish them (FIDE C.04: by the
higher score of the two players before the round, then the sum of their scores, then
the better starting rank of the two). Board number k is played on the k-th board id
given, or on the board whose id is k. A forfeited game keeps its board number (the
boards were numbered before anyone failed to come); a bye has no board."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from reedboard.errors import InvalidInputError

from reedboard_relay.pairing import Pairing

# Columns are FIDE's, counted from 1, both ends included.
START_RANK = (5, 8)
TITLE = (11, 13)
NAME = (15, 47)
RATING = (49, 52)
FIDE_ID = (58, 68)
FIRST_ROUND = 92  # a round takes ten columns: opponent 92-95, colour 97, result 99
ROUND_WIDTH = 10

# TRF06 and some exports write titles as FIDE's one- or two-letter codes.
TITLE_CODES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM",
               "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM"}  # fmt: skip
COLOURS = {"w", "b", "-", " "}
RESULTS = set("+-WDL1=0HFUZX ")
# Points per result code, the TRF's defaults (a `162` line that changes them is not read):
# only the order of the boards depends on them.
POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5,
          "X": 0.5}  # fmt: skip

LINE_CODE = re.compile(r"^(\d{3}|[A-Z]{3}|###)( |$)")


class TrfError(InvalidInputError):
    """A TRF the relay cannot read: the message names the line and the field."""


@dataclass(frozen=True)
class Played:
    opponent: int  # 0: none (a bye, an absence, a round not paired)
    colour: str  # "w", "b" or "-"
    result: str  # the TRF's code, upper case; " " not played (yet)


@dataclass(frozen=True)
class Player:
    rank: int
    title: str
    name: str
    rating: str
    fide_id: str
    rounds: tuple[Played, ...]
    line: int


@dataclass(frozen=True)
class Tournament:
    name: str
    players: dict[int, Player]

    def rounds(self) -> int:
        return max((len(p.rounds) for p in self.players.values()), default=0)

    def paired_rounds(self) -> list[int]:
        """The rounds, from 1, in which at least one game is paired."""
        players = self.players.values()
        return [n for n in range(1, self.rounds() + 1) if any(_paired(p, n) for p in players)]

    def games(self, round_: int) -> list[tuple[Player, Player]]:
        """(White, Black) of every game of the round, in board order."""
        games = [
            (player, self.players[_round(player, round_).opponent])
            for player in self.players.values()
            if _paired(player, round_)
        ]

        def order(game: tuple[Player, Player]) -> tuple[float, float, int]:
            scores = [self.score_before(p, round_) for p in game]
            return (-max(scores), -sum(scores), min(p.rank for p in game))

        return sorted(games, key=order)

    def score_before(self, player: Player, round_: int) -> float:
        return sum(POINTS.get(p.result, 0.0) for p in player.rounds[: round_ - 1])


def looks_like_trf(text: str) -> bool:
    """A TRF's lines begin with a three-character code (`012`, `001`, `###`...); a CSV's
    header does not."""
    for line in text.splitlines():
        if line.strip():
            return LINE_CODE.match(line) is not None
    return False


def read_trf(text: str) -> Tournament:
    name = ""
    players: dict[int, Player] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.rstrip("\r\n")
        if line.startswith("012 "):
            name = line[4:].strip()
        elif line.startswith("001"):
            player = _player(line, number)
            if player.rank in players:
                raise TrfError(
                    f"line {number}, starting rank (columns 5-8): {player.rank} is also "
                    f"the starting rank on line {players[player.rank].line}"
                )
            players[player.rank] = player
    if not players:
        raise TrfError("no player lines (`001`): not a tournament report")
    _check_opponents(players)
    return Tournament(name, players)


def trf_pairings(
    text: str, *, round_: int | None = None, boards: Sequence[str] = ()
) -> dict[str, Pairing]:
    """The board ids of the round's games and their pairings. `round_` None: the last
    round with pairings; `boards`: the board ids of board numbers 1, 2..., else the board
    number is the id."""
    tournament = read_trf(text)
    paired = tournament.paired_rounds()
    if round_ is None:
        if not paired:
            raise TrfError("no round has pairings yet")
        round_ = paired[-1]
    elif round_ not in paired:
        raise TrfError(f"round {round_} has no pairings (rounds paired: {_listed(paired)})")
    table: dict[str, Pairing] = {}
    games = tournament.games(round_)
    if boards and len(games) > len(boards):
        raise TrfError(
            f"round {round_} has {len(games)} games and --boards names {len(boards)} boards"
        )
    for k, (white, black) in enumerate(games, start=1):
        board = boards[k - 1] if boards else str(k)
        table[board] = Pairing(
            round=f"{round_}.{k}",
            board_number=str(k),
            white=white.name or "?",
            black=black.name or "?",
            white_elo=white.rating,
            black_elo=black.rating,
            white_title=white.title,
            black_title=black.title,
            white_fide_id=white.fide_id,
            black_fide_id=black.fide_id,
            event=tournament.name,
        )
    return table


def _player(line: str, number: int) -> Player:
    def field(span: tuple[int, int]) -> str:
        return line[span[0] - 1 : span[1]].strip()

    def whole(span: tuple[int, int], what: str, *, required: bool = False) -> str:
        value = field(span)
        if (required or value) and not value.isdigit():
            shown = repr(value) if value else "nothing"
            raise TrfError(
                f"line {number}, {what} (columns {span[0]}-{span[1]}): {shown} is not a number"
            )
        return value.lstrip("0") if value else ""

    rank = int(whole(START_RANK, "starting rank", required=True) or "0")
    if rank == 0:
        raise TrfError(f"line {number}, starting rank (columns 5-8): 0 is not a starting rank")
    title = field(TITLE)
    title = TITLE_CODES.get(title.lower(), title.upper())
    rating = whole(RATING, "rating")
    fide_id = whole(FIDE_ID, "FIDE id")
    rounds: list[Played] = []
    at = FIRST_ROUND
    while at <= len(line):
        n = len(rounds) + 1
        opponent_text = line[at - 1 : at + 3].strip()
        colour = (line[at + 4 : at + 5] or " ").lower()
        result = (line[at + 6 : at + 7] or " ").upper()
        if opponent_text and not opponent_text.isdigit():
            raise TrfError(
                f"line {number}, round {n} opponent (columns {at}-{at + 3}): "
                f"{opponent_text!r} is not a starting rank"
            )
        if colour not in COLOURS:
            where = f"line {number}, round {n} colour (column {at + 5})"
            raise TrfError(f"{where}: {colour!r} is not w, b or -")
        if result not in RESULTS:
            raise TrfError(
                f"line {number}, round {n} result (column {at + 7}): {result!r} is not a "
                "result code (1 = 0 + - W D L H F U Z)"
            )
        opponent = int(opponent_text or "0")
        rounds.append(Played(opponent, "-" if colour == " " else colour, result))
        at += ROUND_WIDTH
    return Player(rank, title, field(NAME), rating, fide_id, tuple(rounds), number)


def _check_opponents(players: dict[int, Player]) -> None:
    """Every game is written on both players' lines, with opposite colours."""
    for player in players.values():
        for n, played in enumerate(player.rounds, start=1):
            if not played.opponent:
                continue
            at = FIRST_ROUND + ROUND_WIDTH * (n - 1)
            where = f"line {player.line}, round {n} opponent (columns {at}-{at + 3})"
            other = players.get(played.opponent)
            if other is None:
                raise TrfError(f"{where}: no player has starting rank {played.opponent}")
            if played.colour not in ("w", "b"):
                continue  # a forfeit written without colours: no board is needed
            theirs = _round(other, n)
            expected = "b" if played.colour == "w" else "w"
            if theirs.opponent != player.rank or theirs.colour != expected:
                raise TrfError(
                    f"{where}: plays {played.opponent} with {played.colour}, but line "
                    f"{other.line} does not have {player.rank} with {expected} in round {n}"
                )


def _paired(player: Player, round_: int) -> bool:
    """White in a game of the round (each game counted once, from White's line)."""
    played = _round(player, round_)
    return played.opponent != 0 and played.colour == "w"


def _round(player: Player, round_: int) -> Played:
    if round_ <= len(player.rounds):
        return player.rounds[round_ - 1]
    return Played(0, "-", " ")


def _listed(rounds: list[int]) -> str:
    return ", ".join(str(n) for n in rounds) or "none"
