"""What the relay's tests give every fake board they start (`reedboard run --fake`),
besides its own options: a slow scan, and no page of its own (nobody opens it here).

A fake board played from a script takes each of the script's lines, and each decision
that falls due between them, at its own board time whatever its scan rate
(`App.catch_up`): the scans between them read the same squares again and change nothing.
At the default 200 scans a second of board time, sped up four times, those idle scans
were three quarters of what a board cost these tests in CPU (a 36-ply game: 5.2 s of CPU,
then 0.9 s at `SCAN_HZ`); at `SCAN_HZ` the game, its timings and what the board prints
are the same, byte for byte. A turn of the loop also takes the relay's requests: at
`SCAN_HZ` the board answers within 100 ms of board time."""

from __future__ import annotations

from pathlib import Path

SCAN_HZ = 10


def quiet_board(folder: Path, config: Path | None = None) -> list[str]:
    """The options: a configuration in `folder` scanning at `SCAN_HZ`; or `config`'s
    sections (which must not have a `[matrix]` of their own) with that scan, beside it
    (its files are named from where it is)."""
    path = (
        folder / "quiet-board.toml" if config is None else config.with_name(f"quiet-{config.name}")
    )
    sections = config.read_text(encoding="utf-8") if config is not None else ""
    path.write_text(f"{sections}\n[matrix]\nscan_hz = {SCAN_HZ}\n", encoding="utf-8")
    return ["--config", str(path), "--web", "off"]
