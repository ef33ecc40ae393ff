"""The table at play: the mode machine, its menu, outputs, store, die, loop and buttons."""
