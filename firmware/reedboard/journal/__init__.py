"""The durable record of the games on the board: the game in progress, move by move (with
the raw sensor changes that led to its moves), and the finished games, in one SQLite file
(see `store`)."""
