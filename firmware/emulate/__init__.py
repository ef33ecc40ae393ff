"""The table without a Pi: the stand-in bus and panel, the terminal view, the keyboard,
the demo player and frame capture."""
