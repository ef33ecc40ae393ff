"""Opening a database of ours: connected for writing, checked ours and whole (an empty
one given the schema), and, when it is ours but damaged, salvaged into a new one that
takes its place (the damaged file set aside, never deleted). The store opens through
these; nothing here keeps state of its own.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from collections.abc import Collection
from pathlib import Path

from firmware.saves.faults import Fault, StateDirectoryError
from firmware.saves.folder import Folder, create_private, fsync_dir, newer, uri_path
from firmware.saves.ledger import Entry, last_actions
from firmware.saves.rows import (
    BOOTSTRAP,
    DATABASE,
    SIDE_FILES,
    WRITER_WAIT,
    Kind,
    connect,
    damage,
    identify,
    insert,
    is_fault,
    transaction,
    unlike,
)
from firmware.saves.salvage import Salvaged
from robinson_core.errors import quote


def connect_rw(folder: Folder, path: Path) -> sqlite3.Connection:
    """``path`` opened for writing: a fault says so (StateDirectoryError), else Damaged."""
    try:
        return connect(f"file:{uri_path(path)}?mode=rw", WRITER_WAIT)
    except sqlite3.Error as error:
        raise folder.sqlite_fault(error) if is_fault(error) else Damaged(
            str(error)) from None


def create(folder: Folder, path: Path) -> None:
    """An empty file at ``path``, only its owner's to read (a fault says so)."""
    try:
        create_private(path)
    except OSError as error:
        raise folder.fault_of(error.errno or errno.EIO) from None


def check(folder: Folder, db: sqlite3.Connection) -> sqlite3.Connection:
    """The database is whole and ours; an empty one gets the schema. Raises NotOurs,
    Damaged, or StateDirectoryError for a fault or a newer version. Nothing in it
    runs: only the header and sqlite_schema are read until the schema is ours."""
    try:  # only read until it is known to be ours: WAL mode rewrites the header
        found = identify(db)
        if found.kind is Kind.FOREIGN:
            raise NotOurs("not a Robinson Table database")
        if found.kind is Kind.NEWER:
            raise StateDirectoryError(newer(folder.database, found.version), Fault.NEWER)
        if found.kind is Kind.UNLIKE:
            raise Damaged(f"its tables are not ours: {unlike(found.schema)}")
        if found.kind is Kind.NO_ID:
            raise Damaged("its header is damaged")
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":  # an I/O error in the switch leaves the file in
            # its rollback journal, and SQLite says only the mode it is in
            raise folder.fault_of(errno.EIO, f"journal_mode stays {mode}")
        db.execute("PRAGMA synchronous = FULL")
        if found.kind is Kind.EMPTY:
            db.executescript(f"BEGIN IMMEDIATE; {BOOTSTRAP} COMMIT;")  # all, or none
            return db
        if (why := damage(db)) is not None:
            raise Damaged(quote(why, 60))
        # SQLite opens a file it may not write read-only without a word; a write
        # taken back says so now, not at the first save.
        with contextlib.suppress(_TakenBack), transaction(db):
            db.execute(f"PRAGMA user_version = {found.version}")
            raise _TakenBack
        return db
    except sqlite3.Error as error:
        db.close()
        raise folder.sqlite_fault(error) if is_fault(error) else Damaged(
            str(error)) from None
    except (NotOurs, Damaged, StateDirectoryError):
        db.close()
        raise


def salvage(folder: Folder, written: Entry | None, pref_keys: Collection[str],
            why: str) -> None:
    """The database is ours but damaged: the games and preferences that can still
    be read and check out are copied into a new database, which takes its place;
    the damaged file is set aside, never deleted. What a damaged file holds is
    never run: its own tables are read, row by row, and nothing else."""
    fresh = folder.database.with_name(DATABASE + ".new")
    for stale in (fresh, *[fresh.with_name(fresh.name + x) for x in SIDE_FILES]):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    found = Salvaged.read(folder.database)
    create(folder, fresh)
    try:
        db = connect_rw(folder, fresh)
    except Damaged as error:
        raise StateDirectoryError(f"{fresh}: cannot make a new database ({error})",
                                  Fault.CANNOT_START) from None
    try:
        db.execute("PRAGMA synchronous = FULL")
        db.executescript(f"BEGIN IMMEDIATE; {BOOTSTRAP}")
        for row, (game, ended, finished_at) in found.games.items():
            insert(db, game, ended, finished_at, row)
        db.executemany("INSERT INTO pref VALUES (?, ?)",
                       [(key, found.prefs[key]) for key in pref_keys
                        if key in found.prefs])
        db.execute("COMMIT")
    except sqlite3.Error as error:
        db.close()
        raise folder.sqlite_fault(error) if is_fault(error) else Damaged(
            str(error)) from None
    db.close()
    kept = (f"{len(found.games)} of {found.rows} games recovered into a new one"
            if found.rows else "no game could be read from it")
    # Killed at any point, a restart finds the damaged file (and salvages again) or
    # the new one, never no database: the damaged one is linked into damaged/, its
    # journal moved there, and the new one renamed over it in one step.
    folder.set_aside(folder.database, f"damaged ({quote(why, 80)}); {kept}", keep=True)
    if lost := in_play_lost(written, found):
        folder.problems.append(lost)
    os.replace(fresh, folder.database)
    fsync_dir(folder.directory)


def in_play_lost(written: Entry | None, found: Salvaged) -> str:
    """What a salvage lost of the game in play the ledger last wrote down, in words ("":
    nothing, or no ledger to say)."""
    if written is None or not written.row:
        return ""
    game, ended, _ = found.games.get(written.row, (None, None, None))
    if game is None or ended is not None:
        return (f"the game in play could not be recovered (it had {written.actions} "
                f"action{'s' if written.actions != 1 else ''})")
    lost = written.actions - len(game.actions)
    return f"the game in play recovered without {last_actions(lost)}" if lost > 0 else ""


class NotOurs(Exception):
    """The file is some other program's database: set it aside, begin a new one."""


class Damaged(Exception):
    """The database is ours but damaged: keep what checks out, set the file aside."""


class _TakenBack(Exception):
    """A write made only to see that the database takes writes: rolled back."""
