"""What the relay's tests give every fake board they start (`reedboard run --fake`),
besides its own options: a slow scan, and no page of its own (nobody opens it here).

A fake board played from a script takes each of the script's lines, and each decision
that falls due between them, at its own board time whatever its scan rate
(`App.catch_up`): the scans between them read the same squares again and change nothing.
At the default 200 scans a second of board time, sped up four times, those idle scans
were three quarters of what a board cost these tests in CPU (a 36-ply game: 5.2 s of CPU,
then 0.9 s at `SCAN_HZ`); at `SCAN_HZ` the game, its timings and what the board prints
are the same, byte for byte. A turn of the loop also takes the relay's requests: at
`SCAN_HZ` the board answers within 100 ms of board time.

A board tries a broker it lost again after `RETRY_MS` at most (`[mqtt] retry_ms`; 4 s by
default): the tests that kill the broker or cut the network wait for the board to come
back, not for its retry timer. (`RELAY_RETRY` does the same for a relay.)"""

from __future__ import annotations

from pathlib import Path

SCAN_HZ = 10
RETRY_MS = 100
RELAY_RETRY = ["--mqtt-retry-ms", str(RETRY_MS)]  # a relay's option to match


def quiet_board(folder: Path, config: Path | None = None) -> list[str]:
    """The options: a configuration in `folder` scanning at `SCAN_HZ` and retrying a
    broker after `RETRY_MS`; or `config`'s sections (which must not have a `[matrix]` of
    their own) with those, beside it (its files are named from where it is)."""
    path = (
        folder / "quiet-board.toml" if config is None else config.with_name(f"quiet-{config.name}")
    )
    sections = config.read_text(encoding="utf-8") if config is not None else ""
    retry = f"retry_ms = {RETRY_MS}\n"
    if "[mqtt]\n" in sections:  # a section of its own (`secure-setup`'s): the key in it
        sections = sections.replace("[mqtt]\n", f"[mqtt]\n{retry}", 1)
    else:
        sections += f"\n[mqtt]\n{retry}"
    path.write_text(f"{sections}\n[matrix]\nscan_hz = {SCAN_HZ}\n", encoding="utf-8")
    return ["--config", str(path), "--web", "off"]
