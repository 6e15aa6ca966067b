"""The durable record of the games on the board: the game in progress, move by move, and
the finished games, in one SQLite file (see `store`)."""
