"""The saves: the game in play, the games put away and the preferences, in one SQLite
database in the state folder, with its ledger, its spare and what a damage leaves; and
the state folder's two small files, the hardware a phone set (``hardware``) and the
first boot's owner code (``owner``).

Each room stands on the ones below it: faults, rows, folder, ledger, salvage, spare,
opening, store, restore. Nothing here knows the table: it hands in what it keeps (its
preferences' keys)."""
