"""The board on Lichess from a PC (`reedboard-host lichess`): the bridge that carries out,
over the serial link, what the firmware's Lichess synchroniser decides
(`reedboard.lichess`, which the board runs itself too)."""
