"""The board's opponents, played with no PC: Stockfish run by the board itself.

An opponent is a client of the board's one event family: it hears the events the host
hears and the answers to its own commands, and sends the commands the host sends (`show` to light its move,
`takeback` when another move was made), each turn, with the board's time given. The
page and the command line choose it through `chosen.Opponents`; `client.OpponentClient`
attaches it to the board's in-process clients (`link.clients`) and is turned by the loop.
docs/opponents.md tells the player's side."""
