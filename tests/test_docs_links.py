"""Every relative link of the documentation leads somewhere: the file exists, and its anchor
is one of that file's headings (as GitHub names them).

The README was cut into a front page and pages under docs/; a link left pointing at a
section that moved would otherwise go on rendering, and lead nowhere."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted(
    [ROOT / "README.md", ROOT / "hardware" / "README.md", *ROOT.glob("docs/**/*.md")],
)

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# [text](target) and ![alt](target), the target up to a space or the closing parenthesis.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"`[^`]*`")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks, with code spans blanked out."""
    lines: list[str] = []
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(CODE_SPAN.sub("", line))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor a page offers: its headings' slugs, the second of a kind numbered."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(path: Path) -> list[str]:
    return [
        target
        for line in prose_lines(path.read_text(encoding="utf-8"))
        for target in LINK.findall(line)
        if not EXTERNAL.match(target)
    ]


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def broken(page: Path, target: str) -> str | None:
    """Why a link of a page leads nowhere, or None when it leads somewhere."""
    name, _, anchor = target.partition("#")
    dest = (page.parent / unquote(name)).resolve() if name else page
    if not dest.exists():
        return f"{target}: no file {shown(dest)}"
    if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
        return f"{target}: no heading #{anchor} in {shown(dest)}"
    return None


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_resolves(page: Path) -> None:
    problems = [why for t in relative_links(page) if (why := broken(page, t))]
    assert not problems, f"{page.relative_to(ROOT)}:\n" + "\n".join(problems)


def test_the_pages_are_found_and_have_links() -> None:
    """The checker sees the links it is meant to check (a regex gone wrong finds none)."""
    readme = relative_links(ROOT / "README.md")
    assert len(PAGES) >= 5
    assert any(t.startswith("docs/") for t in readme)


def test_a_missing_file_or_heading_is_reported(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n## Clocks and `flags`\n\n```\n## not a heading\n```\n"
        "[ok](#clocks-and-flags) [bad](#not-a-heading) [gone](other.md) "
        "`[code](nowhere.md)` [web](https://example.org/x)\n",
        encoding="utf-8",
    )
    found = [why for t in relative_links(page) if (why := broken(page, t))]
    assert len(found) == 2
    assert "#not-a-heading" in found[0] and "other.md" in found[1]
