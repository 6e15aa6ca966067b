"""The board on Lichess (`reedboard-host lichess`): the Board API's client, its streams,
the synchroniser that decides, and the bridge that carries out what it decides."""
