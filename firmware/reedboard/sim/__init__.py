"""The virtual board's players: a seeded model of how human hands move pieces, turning
any game into the raw sensor changes a real board would see (see `human.py`)."""
