"""What a damaged database of ours still holds that checks out: its games and preferences,
read row by row as data (nothing in the file runs), with a bound on the work.
The store copies what this finds into a new database and sets the damaged one aside.
"""

from __future__ import annotations

import contextlib
import functools
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from firmware.saves.folder import holds_frames, uri_path
from firmware.saves.rows import (
    SCHEMA,
    BadRow,
    Ended,
    connect,
    game_of,
    schema_of,
    transaction,
)
from robinson_core import Game

MAX_STEPS = 200_000  # x PROGRESS_EVERY SQLite steps a salvage may take reading a damaged file
PROGRESS_EVERY = 1_000  # SQLite steps between two counts of them
PREF_KEY_LONGEST = 64  # a preference's key is a short name; longer ones are not read
PREFS_MOST = 256  # preferences a salvage reads (a table writes about a dozen)
MAX_ROWS = 1_000  # game rows a salvage reads, the newest (a table keeps 100 and one in play)


@dataclass
class Salvaged:
    """What could be read, and checks out, of a damaged database of ours."""

    games: dict[int, tuple[Game, Ended | None, str | None]]
    prefs: dict[str, str]
    rows: int  # the game rows met, read or not

    @classmethod
    def read(cls, path: Path) -> Salvaged:
        """What ``path`` holds that checks out; if nothing could be read, what a copy
        holds once its schema is written again as ours (a flipped bit in the schema's
        text makes SQLite refuse every table; the tables themselves may be whole)."""
        found = cls._read_file(path)
        if found.rows:
            return found
        copy = path.with_name(path.name + ".schema")
        try:
            shutil.copyfile(path, copy)
            if ours_again(copy):
                again = cls._read_file(copy)
                if again.rows:
                    return again
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                copy.unlink()
        return found

    @classmethod
    def _read_file(cls, path: Path) -> Salvaged:
        wal = holds_frames(path)  # else none is made: immutable
        for mode in ("mode=ro", "mode=ro&immutable=1")[0 if wal else 1:]:
            found = cls({}, {}, 0)
            try:
                db = connect(f"file:{uri_path(path)}?{mode}")
            except sqlite3.Error:
                continue
            try:
                found._read(db)
            except sqlite3.Error:
                continue  # not even its schema: try without the -wal
            finally:
                db.close()
            return found
        return cls({}, {}, 0)

    def _read(self, db: sqlite3.Connection) -> None:
        steps = [0]

        def enough() -> bool:  # a damaged (or made) file can loop: a bound on the work
            steps[0] += 1
            return steps[0] > MAX_STEPS

        db.set_progress_handler(enough, PROGRESS_EVERY)
        tables = {name for kind, name, _, sql in schema_of(db)
                  if kind == "table" and str(sql).startswith("CREATE TABLE")}
        if {"game", "action"} <= tables:
            self._games(db)
        if "pref" in tables:  # the preferences, as text (the store keeps those its table
            with contextlib.suppress(sqlite3.Error):  # knows; meta's seals are not carried:
                for key, value in db.execute(  # the ledger is written anew)
                        "SELECT key, value FROM pref WHERE typeof(key) = 'text' AND "
                        "typeof(value) = 'text' AND length(key) <= ? LIMIT ?",
                        (PREF_KEY_LONGEST, PREFS_MOST)):
                    self.prefs[key] = value

    def _games(self, db: sqlite3.Connection) -> None:
        ids: list[int] = []
        whole = True
        try:  # the newest rows, in order; where the table is damaged, row by row
            ids.extend(row for (row,) in db.execute(
                "SELECT id FROM (SELECT id FROM game ORDER BY id DESC LIMIT ?) ORDER BY id",
                (MAX_ROWS,)))
        except sqlite3.Error:
            whole = False
        if not whole:
            top = max(ids, default=0)
            for ask in ("SELECT max(id) FROM game",
                        "SELECT seq FROM sqlite_sequence WHERE name = 'game'"):
                with contextlib.suppress(sqlite3.Error, TypeError, ValueError):
                    top = max(top, int(db.execute(ask).fetchone()[0]))
            ids = sorted(set(ids) | set(range(max(1, top - MAX_ROWS), top + 1)))
        in_play = []
        for row in ids:
            if not isinstance(row, int):
                continue
            try:
                fields = db.execute("SELECT ended, finished_at FROM game WHERE id = ?",
                                    (row,)).fetchone()
            except sqlite3.Error:
                self.rows += 1
                continue
            if fields is None:
                continue
            self.rows += 1
            ended, finished_at = fields
            try:
                game = game_of(db, row)
                how = None if ended is None else Ended(ended)
            except (BadRow, ValueError, sqlite3.Error):
                continue
            self.games[row] = (game, how, finished_at if isinstance(finished_at, str)
                               else None)  # a label only: read as one where it is shown
            if how is None:
                in_play.append(row)
        for row in in_play[:-1]:  # one game in play: the newest; the others put away
            game, _, _ = self.games[row]
            self.games[row] = (game, Ended.ABANDONED, None)


def ours_again(path: Path) -> bool:
    """Write our schema's text over that of the copy ``path``, row for row (SQLite lists
    a schema in the order it was made, and ours is always made in one order), keeping
    where each table's pages are. False if it is not a schema of ours to mend."""
    try:
        db = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error:
        return False
    try:
        db.execute("PRAGMA writable_schema = ON")
        rows = [row for (row,) in db.execute("SELECT rowid FROM sqlite_schema ORDER BY rowid")]
        ours = our_objects()
        if len(rows) != len(ours):
            return False
        with transaction(db):
            db.executemany("UPDATE sqlite_schema SET type = ?, name = ?, tbl_name = ?, sql = ? "
                           "WHERE rowid = ?", [(*mine, row) for mine, row in zip(ours, rows,
                                                                                 strict=True)])
        return True
    except sqlite3.Error:
        return False
    finally:
        db.close()


@functools.cache
def our_objects() -> tuple[tuple[object, ...], ...]:
    """Our schema's rows (type, name, tbl_name, sql), in the order SQLite made them."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        return tuple(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema "
                                "ORDER BY rowid"))
    finally:
        db.close()
