"""The board's own web page, served by `reedboard run` on the player's Wi-Fi (docs/page.md):
the board as the simulator shows its fake one, its controls for a paired phone, and the
game's PGN. It is an in-process client of the board (`link.clients`) in a thread of its
own; nothing of it runs in the scan loop."""
