"""The round's results written back into the Tournament Report File that gave its
pairings, for the pairing program (Swiss-Manager, JaVaFo, bbpPairings) to pair the next
round from. Pure: the file's bytes and each board's result in, the file's bytes out.

Only the round's result column (column 99 + 10 per round after the first) of the two
players of each game the relay saw finished changes, and each one's points (columns
81-84) by what the result adds; every other byte stays as it was, in the file's own
encoding and line endings. TRF16's codes: `1` win, `=` draw, `0` loss, played; `+` and
`-` a forfeit (a decisive result with no move made, such as an arbiter's result for a
player who never came). A game not finished, or no longer the board's current game,
keeps its column as it was (blank: not played yet)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reedboard_relay.pairings_trf import (
    FIRST_ROUND,
    POINTS,
    ROUND_WIDTH,
    TrfError,
    read_trf,
)

POINTS_COLUMNS = (81, 84)
PLAYED = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "=")}
FORFEITED = {"1-0": ("+", "-"), "0-1": ("-", "+")}


@dataclass(frozen=True)
class BoardResult:
    """What the relay shows of a board's current game."""

    round: str  # its pairing's round, `R.K` for board K of round R of a TRF
    result: str | None
    plies: int


def trf_with_results(
    data: bytes,
    round_: int | None,
    boards: Sequence[str],
    result_of: Callable[[str], BoardResult | None],
) -> tuple[bytes, int]:
    """The TRF with the round's results, and how many games it wrote. `round_` None: the
    last round with pairings; `boards`: the board ids of board numbers 1, 2... (else the
    number is the id), as the pairings were read."""
    text, codec = _decoded(data)
    tournament = read_trf(text)
    paired = tournament.paired_rounds()
    if round_ is None:
        if not paired:
            raise TrfError("no round has pairings yet")
        round_ = paired[-1]
    codes: dict[int, str] = {}
    for k, (white, black) in enumerate(tournament.games(round_), start=1):
        board = boards[k - 1] if k <= len(boards) else str(k)
        shown = result_of(board)
        if shown is None or shown.round != f"{round_}.{k}" or shown.result not in PLAYED:
            continue
        table = FORFEITED if shown.plies == 0 else PLAYED
        codes[white.rank], codes[black.rank] = table.get(shown.result, PLAYED[shown.result])
    lines = text.splitlines(keepends=True)
    for player in tournament.players.values():
        code = codes.get(player.rank)
        if code is not None:
            lines[player.line - 1] = _written(lines[player.line - 1], round_, code)
    return "".join(lines).encode(codec), len(codes) // 2


def _written(line: str, round_: int, code: str) -> str:
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    at = FIRST_ROUND + ROUND_WIDTH * (round_ - 1) + 6  # the result's column, from 0
    body = body.ljust(at + 1)
    before = body[at]
    body = body[:at] + code + body[at + 1 :]
    start, end = POINTS_COLUMNS
    try:
        points = float(body[start - 1 : end])
    except ValueError:
        return body + ending  # no points written: none to bring up to date
    points += POINTS.get(code, 0.0) - POINTS.get(before.upper(), 0.0)
    return body[: start - 1] + f"{points:4.1f}" + body[end:] + ending


def _decoded(data: bytes) -> tuple[str, str]:
    """The text and the codec to write it back in (as `pairings` reads the file)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data.decode("utf-8-sig"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace"), "cp1252"
