"""Tools around the table: the selftest, the die's fairness, the simulator, the bench,
the wiring guide and the JSON summaries."""
