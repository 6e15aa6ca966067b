"""docs/voice.md: every sentence and word of the board's voice, in every language, made
from the phrase files so that it can never fall behind them.

`python -m reedboard.voice.catalogue > docs/voice.md` writes it; a test checks that the
committed page is what this gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reedboard.rules.pieces import COLOR_NAMES, PIECE_NAMES
from reedboard.voice.languages import LANGUAGES
from reedboard.voice.phrasebook import Phrasebook, template_fields

HEAD = """# What the board says

The board's voice (`[voice]` in the board's TOML file, `reedboard-host watch --say`,
`reedboard replay --say`, the simulator's page) speaks after each effect worth saying:
every move, what is wrong on the board and how to put it right, the result, and on request
the last move, the whole position or one square. This page lists every sentence in every
language; it is made from the phrase files in `firmware/reedboard/voice/`
(`python -m reedboard.voice.catalogue > docs/voice.md`).

In a template, `{piece}` is a piece's name, `{origin}` and `{target}` squares, `{move}` a
whole move as the move templates say it, `{the_piece}` a piece with its article,
`{steps}` the steps to put the board right, `{article}` a FIDE article (`4.3a`). The board
adds the capital letter and the full stop. A new language is one more phrase file, and one
line in `languages.py`.

Touches are not said (they are too frequent), except in strict mode the first touch that
binds the player (FIDE 4.3). An illegal board is said as the lights show it: one pair at a
time (a piece seen on one square that belongs on another), then what no pair explains.
After a checkmate the result is said without its reason, which the mating move just said.

"""


def _key(name: str, key: Any) -> str:
    if name in ("pieces", "the_pieces", "plurals"):
        return str(PIECE_NAMES[key])
    if name in ("sides", "side_titles", "to_move"):
        return str(COLOR_NAMES[key])
    return str(key)


def _cell(text: str) -> str:
    return "`" + text.replace("|", "\\|") + "`"


def catalogue(books: Mapping[str, Phrasebook] = LANGUAGES) -> str:
    columns = list(books.values())
    lines = [HEAD.rstrip("\n"), ""]
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
