"""The board's opponents, played with no PC: Stockfish run by the board itself.

An opponent is a client of the board's one event family: it hears the events and
replies the host hears and sends the commands the host sends (`show` to light its move,
`takeback` when another move was made), each turn, with the board's time given. The
page and the command line choose it through `chosen.Opponents`; `tee.OpponentTee` plugs
it into the board's loop. docs/opponents.md tells the player's side."""
