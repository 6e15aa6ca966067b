"""The board's voice: what it says after each effect, in words a player hears.

`phrasebook.py` says which sentences there are; each language is one file of phrases
(`french.py`, `english.py`) registered in `languages.py`. `sentences.py` builds the words
from a position, `narrator.py` follows the board's effects and says each one. All pure:
the speaking itself is the `Voice` seam's (`reedboard.hal.voice_ports`).
"""
