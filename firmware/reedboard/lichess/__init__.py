"""The board on Lichess through the Board API: the API's client and its streams, the
Lichess side of a game as values, and the synchroniser that keeps the board's game and
Lichess's in step (`sync`), without I/O. The board runs it itself (`--opponent lichess`,
`player`); `reedboard-host lichess` runs it on a PC over the serial link."""
