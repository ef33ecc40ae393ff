"""The saves: the game in play, the games put away and the preferences, in one SQLite
database in the state folder, with its ledger, its spare and what a damage leaves.

Each room stands on the ones below it: faults, rows, folder, ledger, salvage, spare,
opening, store, restore. Nothing here knows the table: it hands in what it keeps (its
preferences' keys)."""
