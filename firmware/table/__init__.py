"""The table at play: the mode machine, its menu, outputs, die, loop and buttons."""
