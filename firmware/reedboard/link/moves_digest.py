"""The `digest` of a `moves` page (docs/protocol.md): both ends compute it, the board when
it sends a page and the host when it has pieced the pages together."""

from __future__ import annotations

import zlib


def moves_digest(ucis: list[str]) -> str:
    """A short fingerprint of a move list: a host that pieced the list together page by
    page checks with it that no takeback came between the pages."""
    return f"{zlib.crc32(' '.join(ucis).encode('ascii')) & 0xFFFFFFFF:08x}"


__all__ = ["moves_digest"]
