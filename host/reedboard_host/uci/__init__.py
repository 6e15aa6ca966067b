"""The board as a UCI engine (`reedboard-host uci`): the GUI's lines read, the pure
bridge that decides, and the shell that carries out what it decides."""
