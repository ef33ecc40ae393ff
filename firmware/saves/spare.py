"""The spare: a second copy of the saves, taken each time the finished games change,
from which the store brings back finished games the database lost.

Why a copy beside the database: the ledger says when the database is behind, but a
damaged page of the main file (a flipped bit in the game table's inner page, a file cut
short by a failing card) costs every game on the pages it reaches: 184 of 200 cuts lost
more than one game, all said, none brought back. The finished games change only when a
game is put away (once a game, minutes apart), so a copy then costs a few milliseconds
where it matters least, and holds every finished game the database should hold.

The copy is SQLite's own (the backup API, one consistent snapshot), written to a new
file, fsynced and renamed over the old one: a cut leaves the old copy or the new one.
It is read as a damaged database is (``Salvaged``: its own tables, row by row, each
game replayed against its digest), so a spare hit by the same card is taken at its word
only where its games check out.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from firmware.saves.folder import create_private, fsync_dir, fsync_file, odd
from firmware.saves.rows import Ended, insert
from firmware.saves.salvage import Salvaged

SPARE = "robinson.spare"
FINISHED = frozenset({Ended.WON, Ended.NO_WINNER, Ended.ABANDONED})


def spare_of(directory: Path) -> Path:
    return Path(directory) / SPARE


def keep(db: sqlite3.Connection, directory: Path) -> None:
    """A copy of ``db`` as the spare (raises OSError or sqlite3.Error; the old spare
    stands then). Private, never through a planted link, on the disk before the rename."""
    spare = spare_of(directory)
    fresh = spare.with_name(SPARE + ".new")
    with contextlib.suppress(FileNotFoundError):
        fresh.unlink()  # a copy a kill left half made, or a planted link: never written
    create_private(fresh)
    copy = sqlite3.connect(fresh)
    try:
        db.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE")  # one file: nothing beside it to lose
    finally:
        copy.close()
    fsync_file(fresh)
    os.replace(fresh, spare)  # a link planted as the spare is replaced, not followed
    fsync_dir(Path(directory))


@dataclass(frozen=True)
class Brought:
    """What the spare gave back: finished games (their rows)."""

    rows: tuple[int, ...]

    def said(self) -> str | None:
        if not self.rows:
            return None
        count = len(self.rows)
        return (f"{count} finished game{'s' if count > 1 else ''} brought back from the "
                f"spare copy ({SPARE})")


def bring_back(db: sqlite3.Connection, directory: Path, games: int) -> Brought:
    """The finished games the database should hold by the ledger (the newest ``games``)
    that it lacks (no row, or a row marked damaged) and the spare holds, put back under
    their own row ids, in the caller's transaction. Games that do not check out in the
    spare are left out; a row ``db`` holds whole is never replaced. (The spare is never
    newer than the ledger: it is taken after the ledger's write, and not if that fails.)"""
    spare = spare_of(directory)
    if odd(spare):  # a link planted as the spare is not read
        return Brought(())
    found = Salvaged.read(spare)
    held = dict(db.execute("SELECT id, ended FROM game").fetchall())
    whole = {row for row, ended in held.items() if ended is not None
             and ended != Ended.DAMAGED}
    offered = {row: game for row, game in found.games.items()
               if game[1] in FINISHED and (row not in held or held[row] == Ended.DAMAGED)}
    wanted = sorted(whole | set(offered), reverse=True)[:games]
    brought = sorted(row for row in wanted if row in offered)
    for row in brought:
        game, ended, finished_at = offered[row]
        db.execute("DELETE FROM action WHERE game = ?", (row,))
        db.execute("DELETE FROM game WHERE id = ?", (row,))
        insert(db, game, ended, finished_at, row)
    return Brought(tuple(brought))

