"""The start position's tags: the PGN text stays byte for byte what the writer wrote when
it wrote the start FEN at every call, while the standard start costs no FEN and any other
start one FEN per game however often its PGN is written."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest
from reedboard.rules import fen as fen_module
from reedboard.rules import pgn
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.game import Game
from reedboard.rules.pgn import SEVEN_TAG_ROSTER, start_tags, write_pgn
from reedboard.rules.position import Position
from reedboard.rules.san import san
from reedboard.sim.games import random_game

# Starts set up by hand: the standard placement with other clocks, side or rights, an en
# passant square that can and one that cannot be taken, and a few middlegames.
SET_UP_FENS = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 7",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2",
    "r3k2r/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 4 8",
    "8/8/4k3/8/8/4K3/4P3/8 w - - 0 50",
)


def _write_pgn_as_before(
    game: Game,
    headers: Mapping[str, str] | None = None,
    comments: Mapping[int, str] | None = None,
    result: str | None = None,
    sans: Sequence[str] | None = None,
) -> str:
    """The writer as it was, the start FEN written at every call: the oracle."""
    tags: dict[str, str] = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?"}
    tags |= {"White": "?", "Black": "?", "Result": "*"}
    tags.update(headers or {})
    if result is None:
        outcome = game.outcome()
        result = (headers or {}).get("Result") or (outcome.result if outcome else "*")
    tags["Result"] = result
    start_fen = game.start.fen(shredder=False)
    if game.chess960:
        tags["Variant"] = "Chess960"
    if start_fen != STARTING_FEN or game.chess960:
        tags["SetUp"] = "1"
        tags["FEN"] = start_fen
    lines = [pgn._tag(name, tags[name]) for name in SEVEN_TAG_ROSTER]
    lines += [pgn._tag(name, value) for name, value in tags.items() if name not in SEVEN_TAG_ROSTER]
    tokens: list[str] = []
    comments = comments or {}
    if comments.get(0):
        tokens.append(pgn.comment_token(comments[0]))
    for ply, (before, move) in enumerate(zip(game.positions, game.moves, strict=False), start=1):
        if before.turn:
            tokens.append(f"{before.fullmove_number}.")
        elif ply == 1 or comments.get(ply - 1):
            tokens.append(f"{before.fullmove_number}...")
        tokens.append(sans[ply - 1] if sans is not None else san(before, move))
        if comments.get(ply):
            tokens.append(pgn.comment_token(comments[ply]))
    tokens.append(result)
    return "\n".join(lines) + "\n\n" + pgn._wrap(tokens) + "\n"


def _starts(rng: random.Random) -> list[Position]:
    """60 standard starts, 60 Chess960 ones (518 the standard array among them), the set-up
    ones above, and 20 taken from the middle of random games."""
    starts = [Position.standard() for _ in range(60)]
    starts += [Position.chess960_start(n) for n in [518, *rng.sample(range(960), 59)]]
    starts += [Position.from_fen(fen) for fen in SET_UP_FENS]
    for seed in range(20):
        played = random_game(Position.standard(), random.Random(seed), max_plies=rng.randint(1, 30))
        starts.append(played.position)
    return starts


def _call(rng: random.Random, game: Game) -> tuple[dict[str, str], dict[int, str], str | None]:
    """Headers, comments and a result as callers give them, now and then the start's own
    tags among the headers."""
    headers = {"White": "Ann", "Black": 'B "quoted"', "Event": f"Night {rng.random():.3f}"}
    if rng.random() < 0.2:
        headers |= {"SetUp": "0", "FEN": "given by the caller", "Variant": "Standard"}
    comments = {ply: f"note {ply}" for ply in range(len(game) + 1) if rng.random() < 0.1}
    return headers, comments, rng.choice([None, "*", "1-0", "1/2-1/2"])


def test_the_text_is_what_the_writer_wrote_before_for_every_start() -> None:
    rng = random.Random(2026)
    checked = {"standard": 0, "Chess960": 0, "set up": 0}
    for start in _starts(rng):
        game = random_game(start, rng, max_plies=rng.randint(0, 60))
        headers, comments, result = _call(rng, game)
        sans = game.san_moves() if rng.random() < 0.5 else None
        expected = _write_pgn_as_before(game, headers, comments, result, sans)
        assert write_pgn(game, headers, comments, result, sans) == expected, start.fen()
        assert write_pgn(game, headers, comments, result, sans) == expected  # once known
        kind = "Chess960" if start.chess960 else "set up" if start_tags(start) else "standard"
        checked[kind] += 1
    assert checked == {"standard": 60, "Chess960": 60, "set up": 29}


def _counting_fens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    written: list[str] = []
    real = fen_module.write_fen

    def counting(position: Position, shredder: bool = False) -> str:
        written.append(real(position, shredder))
        return written[-1]

    monkeypatch.setattr(fen_module, "write_fen", counting)
    return written


def test_a_standard_game_writes_no_fen(monkeypatch: pytest.MonkeyPatch) -> None:
    game = random_game(Position.standard(), random.Random(1), max_plies=60)
    written = _counting_fens(monkeypatch)
    for _ in range(3):
        text = write_pgn(game, sans=game.san_moves())
    assert written == []
    assert "[FEN " not in text and "[SetUp " not in text


@pytest.mark.parametrize(
    "start",
    [Position.chess960_start(518), Position.chess960_start(7), Position.from_fen(SET_UP_FENS[0])],
    ids=["chess960-518", "chess960-7", "set-up"],
)
def test_any_other_start_writes_its_fen_once(
    monkeypatch: pytest.MonkeyPatch, start: Position
) -> None:
    game = random_game(start, random.Random(2), max_plies=60)
    fen, sans = fen_module.write_fen(start), game.san_moves()  # not kept by the start
    written = _counting_fens(monkeypatch)
    texts = {write_pgn(game, sans=sans) for _ in range(5)}
    assert written == [fen]
    assert len(texts) == 1 and f'[FEN "{fen}"]' in texts.pop()


def test_a_kept_fen_is_each_start_its_own() -> None:
    starts = [Position.chess960_start(n) for n in range(10)]
    for _ in range(2):  # asked again, every answer still its own position's
        for start in starts:
            assert start_tags(start)["FEN"] == fen_module.write_fen(start)
