"""Putting a copy of the saves back (``robinson restore FILE``, the table stopped).

A copy put in place by hand is not enough: a crashed session's ``-wal`` beside it would
be applied over it (the ledger now refuses that, and says the copy is behind), and the
database it replaces would be gone. Here the copy is checked as any database of ours is,
the one in place is kept in damaged/ with its side files, the copy takes its place in
one rename, and the ledger starts again from what the copy holds.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from firmware.saves.folder import fsync_dir, fsync_file, newer, odd, sqlite_header, uri_path
from firmware.saves.ledger import LEDGER
from firmware.saves.rows import (
    DATABASE,
    KEEP_FINISHED,
    SIDE_FILES,
    Kind,
    connect,
    damage,
    identify,
    standing,
)
from firmware.saves.spare import spare_of
from firmware.saves.store import Store
from robinson_core import Game, SaveError
from robinson_core.errors import quote

WIDTH = 60  # characters of a path or of SQLite's words quoted in the command's one line


@dataclass(frozen=True)
class Restored:
    """What the saves hold once the copy is in place, and where the old database went."""

    finished: int  # finished games now kept
    game: Game | None  # the game in play now
    kept: str | None  # the name the database it replaced has in damaged/


def check_copy(copy: Path) -> None:
    """The copy is a whole database of ours (SaveError says what it is not)."""
    said = quote(str(copy), WIDTH)
    if not copy.exists():
        raise SaveError(f"{said}: no such file")
    if odd(copy) or not sqlite_header(copy):
        raise SaveError(f"{said} is not a database of saved games (robinson export "
                        "--database makes one)")
    db = None
    try:
        db = connect(f"file:{uri_path(copy)}?mode=ro&immutable=1")
        found = identify(db)
        if found.kind is Kind.NEWER:
            raise SaveError(newer(copy, found.version))
        if found.kind is not Kind.OURS:
            raise SaveError(f"{said} is not a database of saved games (robinson export "
                            "--database makes one)")
        if (why := damage(db)) is not None:
            raise SaveError(f"{said} is damaged ({quote(why, WIDTH)}): put back an "
                            "older copy")
        standing(db)
    except sqlite3.Error as error:
        raise SaveError(f"{said} cannot be read ({quote(str(error), WIDTH)})") from None
    finally:
        if db is not None:
            db.close()


def restore(directory: Path, copy: Path, pref_keys: Collection[str] = ()) -> Restored:
    """Make ``copy`` the saves of ``directory``; raises SaveError (the copy is not a whole
    database of ours), TableRunning, or StateDirectoryError, changing nothing then.
    ``pref_keys``: the preferences the table knows (kept if opening must salvage)."""
    check_copy(copy)
    store = Store(directory, pref_keys=pref_keys)
    store.lock()  # not beside a running table
    try:
        folder = store.folder
        folder.make()
        fresh = store.database.with_name(DATABASE + ".restoring")
        with contextlib.suppress(FileNotFoundError):
            fresh.unlink()
        shutil.copyfile(copy, fresh)
        os.chmod(fresh, 0o600)
        fsync_file(fresh)
        kept = None
        if store.database.exists() or any(store.database.with_name(DATABASE + s).exists()
                                          for s in SIDE_FILES):
            # the old database linked into damaged/ with its side files moved there,
            # then the copy renamed over it: killed at any point, there is a database
            kept = folder.set_aside(store.database, "replaced by robinson restore", keep=True)
            folder.problems.clear()  # said by the command itself
        os.replace(fresh, store.database)
        for stale in (store.directory / LEDGER, spare_of(store.directory)):
            with contextlib.suppress(FileNotFoundError):  # they spoke of the database
                stale.unlink()  # replaced (kept in damaged/); opening makes them anew
        fsync_dir(store.directory)
        loaded = store.load()
        finished = len(store.finished(KEEP_FINISHED))
        if loaded.problem:
            raise SaveError(f"restored, but: {loaded.problem}")
        return Restored(finished, loaded.game, kept)
    finally:
        store.close()
        store.unlock()
