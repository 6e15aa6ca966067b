"""docs/voice.md: every sentence and word of the board's voice, in every language, made
from the phrase files so that it can never fall behind them.

`python -m reedboard.voice.catalogue > docs/voice.md` writes it; a test checks that the
committed page is what this gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reedboard.events import Effect, GameOver, Illegal, MoveMade, Violation
from reedboard.rules.fen import STARTING_FEN
from reedboard.rules.pieces import COLOR_NAMES, PIECE_NAMES
from reedboard.rules.position import Position
from reedboard.voice.languages import LANGUAGES
from reedboard.voice.narrator import Narrator
from reedboard.voice.phrasebook import Phrasebook, template_fields
from reedboard.voice.sentences import clock_words

HEAD = """# What the board says

The board's voice (`[voice]` in the board's TOML file, `reedboard-host watch --say`,
`reedboard replay --say`, the simulator's page) speaks after each effect worth saying:
every move, what is wrong on the board and how to put it right, the result, and on request
the last move, the whole position, one square or the clocks. This page lists every
sentence in every language; it is made from the phrase files in `firmware/reedboard/voice/`
(`python -m reedboard.voice.catalogue > docs/voice.md`).

In a template, `{piece}` is a piece's name, `{origin}` and `{target}` squares, `{move}` a
whole move as the move templates say it, `{the_piece}` a piece with its article,
`{steps}` the steps to put the board right, `{article}` a FIDE article (`4.3a`), `{white}`
and `{black}` each player's time left (whole minutes and seconds, with the time words).
The board adds the capital letter and the full stop. A new language is one more phrase file, and one
line in `languages.py`.

Touches are not said (they are too frequent), except in strict mode the first touch that
binds the player (FIDE 4.3). An illegal board is said as the lights show it: one pair at a
time (a piece seen on one square that belongs on another), then what no pair explains, at
most three steps and how many more. After a checkmate the result is said without its
reason, which the mating move just said.

"""


def _key(name: str, key: Any) -> str:
    if name in ("pieces", "the_pieces", "plurals"):
        return str(PIECE_NAMES[key])
    if name in ("sides", "side_titles", "to_move"):
        return str(COLOR_NAMES[key])
    return str(key)


def _cell(text: str) -> str:
    return "`" + text.replace("|", "\\|") + "`"


def _moved(fen: str, uci: str) -> tuple[str, MoveMade]:
    before = Position.from_fen(fen)
    after = before.play(before.parse_uci(uci))
    return fen, MoveMade(0, uci, "", after.fen(), 1)


_KNIGHT_ASTRAY = Illegal(0, 1 << 6, 1 << 22, ((22, 6),))  # the knight of g1 on g3
# Whole sentences, as the board says them: (what happened, the position before, the effect).
EXAMPLES: tuple[tuple[str, str, Effect], ...] = (
    ("a move", *_moved(STARTING_FEN, "g1f3")),
    ("a capture", *_moved("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", "e4d5")),
    (
        "en passant",
        *_moved("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6"),
    ),
    ("castling", *_moved("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1")),
    ("a promotion", *_moved("5r2/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7f8n")),
    ("a mate", *_moved("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8")),
    ("a result", STARTING_FEN, GameOver(0, "1/2-1/2", "stalemate")),
    ("an illegal board", STARTING_FEN, _KNIGHT_ASTRAY),
    ("a touch-move breach", STARTING_FEN, Violation(0, "4.3a", 6, "")),
)

# The clocks, asked for (`say clock`): (what, White's and Black's ms left or None).
CLOCKS: tuple[tuple[str, tuple[int, int] | None], ...] = (
    ("the clocks", (299_400, 61_000)),
    ("the clocks, under a minute", (42_000, 1_500)),
    ("the clocks, untimed", None),
)


def examples(books: Mapping[str, Phrasebook] = LANGUAGES) -> list[str]:
    columns = list(books.values())
    lines = ["", "## Examples", ""]
    lines.append("| | " + " | ".join(f"{b.name} (`{b.code}`)" for b in columns) + " |")
    lines.append("|---|" + "---|" * len(columns))
    for what, fen, effect in EXAMPLES:
        said = [
            Narrator(book, Position.from_fen(fen), strict=True).hear(effect) for book in columns
        ]
        lines.append(f"| {what} | " + " | ".join(s or "" for s in said) + " |")
    for what, clocks in CLOCKS:
        answered = [clock_words(book, clocks) for book in columns]
        lines.append(f"| {what} | " + " | ".join(answered) + " |")
    lines += ["", "## Every template", ""]
    return lines


def catalogue(books: Mapping[str, Phrasebook] = LANGUAGES) -> str:
    columns = list(books.values())
    lines = [HEAD.rstrip("\n"), *examples(books)]
    lines.append("| what | when | " + " | ".join(f"{b.name} (`{b.code}`)" for b in columns) + " |")
    lines.append("|---|---|" + "---|" * len(columns))
    for name, when in template_fields():
        first = getattr(columns[0], name)
        if isinstance(first, Mapping):
            for key in first:
                cells = [_cell(getattr(book, name)[key]) for book in columns]
                lines.append(f"| `{name}` {_key(name, key)} | {when} | " + " | ".join(cells) + " |")
        else:
            cells = [_cell(getattr(book, name)) for book in columns]
            lines.append(f"| `{name}` | {when} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(catalogue(), end="")
