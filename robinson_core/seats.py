"""Who may play: 2 to 8 players (the sheet's), each at a seat numbered 1 to 8.

A home of its own, apart from the engine: the table's config and command line check a
count of players or a seat's number before anything of the game is loaded.
"""

from __future__ import annotations

MIN_PLAYERS, MAX_PLAYERS = 2, 8
SEATS = range(1, MAX_PLAYERS + 1)
