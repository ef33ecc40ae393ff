"""Saved games in one SQLite database: each action committed before it is shown.

Layout of the state directory::

    robinson.db     the database (WAL journal: robinson.db-wal and -shm beside it)
    table.lock      held (flock) by the one table running on this directory, with its pid
    damaged/        whatever could not be used, set aside whole for a person to look at
    imported/       the text files of versions before the database, moved here once read

Why SQLite and not files of our own: a commit is atomic and durable across a pulled plug
(WAL, ``synchronous=FULL``), so putting a game away and beginning the next is one
transaction, and there is no rename protocol of ours to get wrong. Games are ordered by
a row id that only grows; the clock only labels them (a Pi has no real-time clock).

The versioned text of ``robinson_core`` (with its checksum) stays the export and
import format (``robinson export`` / ``robinson import``).
"""

from __future__ import annotations

import contextlib
import datetime
import enum
import errno
import fcntl
import functools
import hashlib
import os
import pwd
import re
import shutil
import sqlite3
import stat
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from firmware.errors import TableError
from robinson_core import Game, SaveError, Status
from robinson_core.errors import quote
from robinson_core.game import MAX_ACTIONS

from . import legacy


class StateDirectoryError(TableError):
    """The state directory cannot be used: another table holds it, it cannot be made, or
    a fault outside the file (a full disk, an I/O error, permissions, no locks) keeps
    the database from being opened. Never a reason to set the database aside.

    ``short`` names the fault in a few words, for the panel ("disk full")."""

    def __init__(self, line: str, short: str = "") -> None:
        super().__init__(line)
        self.short = short or line


class TableRunning(StateDirectoryError):
    """Another table holds the state directory (its lock)."""


APPLICATION_ID = 0x526F6269  # "Robi": a database of ours, not any SQLite file
SCHEMA_VERSION = 1
DATABASE = "robinson.db"
SIDE_FILES = ("-wal", "-shm", "-journal")  # SQLite's own, kept with the database
KEEP_FINISHED = 100
MAX_VALUE = 100_000  # bytes: the longest value SQLite hands us (a game's actions: ~12 KB)
MAX_STEPS = 200_000  # x 1,000 SQLite steps a salvage may take reading a damaged file
MAX_ROWS = 1_000  # game rows a salvage reads, the newest (a table keeps 100 and one in play)
LOCK_FILE = "table.lock"
PERMISSIONS = "permissions"  # a fault's short name
PREF_KEYS = ("language", "contrast", "owed", "names", "voice", "story")
"""owed: faces of rolls taken back (the machine); names: firmware.table.names; voice and
story: the menu's switches, "on" or "off"."""
SYSTEM_STATE_DIR = Path("/var/lib/robinson-table")

SCHEMA = """
CREATE TABLE game (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,  -- the order games were begun in
    seats       TEXT NOT NULL,                      -- '1 2 3'
    first       INTEGER NOT NULL,
    rules       TEXT NOT NULL,                      -- 'purse=10 debt=false ...'
    ended       TEXT,    -- NULL while in play; won, no_winner, abandoned or damaged
    finished_at TEXT,    -- the clock's time when put away: a label, never an order
    digest      TEXT NOT NULL  -- sha256 of the game's export text: a flipped bit is seen
);
CREATE UNIQUE INDEX one_game_in_play ON game ((ended IS NULL)) WHERE ended IS NULL;
CREATE TABLE action (
    game  INTEGER NOT NULL REFERENCES game (id),
    seq   INTEGER NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE TABLE pref (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def state_dir(given: str | None, emulated: bool) -> Path:
    """Where saved games live: --state-dir, systemd's StateDirectory, or the usual place.

    Always an absolute path: lgpio changes the working directory (to LG_WD) when
    the pins are opened, and a relative one would then point elsewhere.
    """
    if given:
        return Path(given).absolute()
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    if not emulated:
        return SYSTEM_STATE_DIR
    base = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    return Path(base) / "robinson-table"


VOLATILE = ("tmpfs", "ramfs", "overlay")  # what a reboot empties (the overlay: raspi-config's)


def volatile(directory: Path, mounts: str) -> str | None:
    """The file system type ``directory`` is on, if a reboot empties it; ``mounts`` is
    /proc/self/mountinfo's text."""
    target, best, kind = os.path.realpath(directory), "", ""
    for line in mounts.splitlines():
        fields, _, after = line.partition(" - ")
        parts = fields.split()
        if len(parts) < 5 or not after:
            continue
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), parts[4])
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, after.split()[0]
    return kind if kind in VOLATILE else None


@dataclass(frozen=True)
class Finished:
    """A game put away: how it ended, and when (the clock's time, a label only)."""

    game: Game
    ended: Ended
    finished_at: datetime.datetime | None
    number: int  # its row id: the order games were begun in

    @property
    def winner(self) -> int | None:
        return self.game.state.winner


@dataclass(frozen=True)
class Loaded:
    """What was found at start: a game (or None), and what went wrong on the way, if anything."""

    game: Game | None
    problem: str | None = None
    fault: StateDirectoryError | None = None  # why nothing is saved (read read-only)


class SaveFailed(OSError):
    """The database would not take the write; ``strerror`` says why, as the OS would."""


class Ended(enum.StrEnum):
    """How a game put away ended: the database's ``ended`` column (NULL while in play)."""

    WON = "won"
    NO_WINNER = "no_winner"  # everyone was eliminated
    ABANDONED = "abandoned"  # put away while still in play
    DAMAGED = "damaged"  # did not replay: kept for a person to look at, never listed


def ending(game: Game) -> Ended:
    """How ``game``, put away now, ended."""
    status = game.state.status
    return Ended.ABANDONED if status is Status.PLAYING else Ended(status.value)


class Store:
    """The state directory: the game in play, games put away, and preferences.

    ``read_only`` (``robinson state``, ``history``, ``export``, which may run beside
    the table) opens the database read-only and never changes the directory.
    """

    def __init__(self, directory: Path, read_only: bool = False) -> None:
        self.directory = Path(directory)
        self.database = self.directory / DATABASE
        self.damaged_dir = self.directory / "damaged"
        self.read_only = read_only
        self.problems: list[str] = []  # what opening found and set aside, told once
        self._db: sqlite3.Connection | None = None
        self._lock: int | None = None
        self._current: tuple[int, Game] | None = None  # the row in play, as committed
        self._identity: tuple[int, int] | None = None  # (device, inode) of the open database

    # -- opening --------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = self._open_read_only() if self.read_only else self._open()
        return self._db

    def _open(self) -> sqlite3.Connection:
        """Open (or make) the database. What is not ours is set aside; what is ours but
        damaged is set aside after the games that check out are copied into a new one;
        a fault (full disk, I/O error, permissions, locks, a newer version) raises
        StateDirectoryError and leaves every file where it is."""
        self._make_directory()
        for suffix in ("", *SIDE_FILES):
            path = self.database.with_name(DATABASE + suffix)
            if _odd(path):  # a folder, a link, a FIFO where SQLite would open a file
                self._set_aside(path, f"{path.name} is not a file")
        if not _sqlite_header(self.database):  # before SQLite opens it: on closing, SQLite
            self._set_aside(self.database, "not a database")  # would delete its -wal
        if why := self._permission_problem():
            raise StateDirectoryError(why, PERMISSIONS)
        if not self.database.exists():
            self._create()
        try:
            db = self._check(self._connect_rw(self.database))
        except _NotOurs as why:
            self._set_aside(self.database, str(why))
            self._create()
            db = self._check(self._connect_rw(self.database))
        except _Damaged as why:  # once more first: one failed read (EIO) reads as damage
            try:
                db = self._check(self._connect_rw(self.database))
            except _Damaged:
                self._salvage(str(why))
                try:
                    db = self._check(self._connect_rw(self.database))
                except (_Damaged, _NotOurs) as still:  # the new file: not a thing that happens
                    raise StateDirectoryError(f"{self.database}: a new database could not "
                                              f"be made ({still})", "cannot start") from None
        self._db = db
        self._identity = _identity(self.database)
        self._migrate()
        return db

    def _connect_rw(self, path: Path) -> sqlite3.Connection:
        try:
            return _connect(f"file:{_uri_path(path)}?mode=rw")
        except sqlite3.Error as error:
            raise self._fault(error) if _is_fault(error) else _Damaged(str(error)) from None

    def _create(self, path: Path | None = None) -> None:
        try:
            _create_private(path or self.database)
        except OSError as error:
            raise self._fault_of(error.errno or errno.EIO) from None

    def _check(self, db: sqlite3.Connection) -> sqlite3.Connection:
        """The database is whole and ours; an empty one gets the schema. Raises _NotOurs,
        _Damaged, or StateDirectoryError for a fault or a newer version. Nothing in it
        runs: only the header and sqlite_schema are read until the schema is ours."""
        try:  # only read until it is known to be ours: WAL mode rewrites the header
            app, version, schema = _identity_of(db)
            empty = (app, version, schema) == (0, 0, frozenset())
            if not empty and app != APPLICATION_ID and schema != _our_schema():
                raise _NotOurs("not a Robinson Table database")
            if version > SCHEMA_VERSION and app == APPLICATION_ID:
                raise StateDirectoryError(_newer(self.database, version), "newer version")
            if not empty and schema != _our_schema():
                raise _Damaged(f"its tables are not ours: {_unlike(schema)}")
            if not empty and app != APPLICATION_ID:
                raise _Damaged("its header is damaged")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            if empty:
                db.executescript(f"BEGIN IMMEDIATE; {SCHEMA}"  # all of it, or none
                                 f"PRAGMA application_id = {APPLICATION_ID};"
                                 f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
                return db
            found = db.execute("PRAGMA quick_check").fetchone()[0]
            if found != "ok":
                raise _Damaged(quote(str(found), 60))
            # SQLite opens a file it may not write read-only without a word; a write
            # taken back says so now, not at the first save.
            with contextlib.suppress(_TakenBack), _transaction(db):
                db.execute(f"PRAGMA user_version = {version}")
                raise _TakenBack
            return db
        except sqlite3.Error as error:
            db.close()
            raise self._fault(error) if _is_fault(error) else _Damaged(str(error)) from None
        except (_NotOurs, _Damaged, StateDirectoryError):
            db.close()
            raise

    def _fault(self, error: sqlite3.Error) -> StateDirectoryError:
        code = _primary(error)
        if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return StateDirectoryError(
                f"{self.database} is locked: another program has it open, or its file "
                "system has no locks (a network share): give --state-dir a folder on the "
                "SD card; the saved games are untouched", "locked")
        if code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY) \
                and (why := self._permission_problem()):
            return StateDirectoryError(why, PERMISSIONS)
        reason = self._why(error)[0]
        if code == sqlite3.SQLITE_READONLY and reason == errno.EROFS and not _read_only_mount(
                self.directory):  # SQLite fell back to reading: the open for writing failed
            return StateDirectoryError(
                f"{self.database} could not be opened for writing: start the table again; "
                "if this stays, check its owner and the card; the saved games are untouched",
                "not writable")
        return self._fault_of(reason, error)

    def _fault_of(self, code: int, error: object = None) -> StateDirectoryError:
        """A fault in one line: what it is, that nothing was moved, and what to do."""
        where = self.directory
        if code == errno.ENOSPC:
            return StateDirectoryError(
                f"the disk holding {where} is full: free some space (sudo apt clean, or "
                "delete files); the saved games are untouched",
                "disk full")
        if code == errno.EROFS:
            return StateDirectoryError(
                f"{where} is on a read-only file system: remount it read-write (or give "
                "--state-dir a writable folder); the saved games are untouched", "read-only")
        if code in (errno.EACCES, errno.EPERM):
            return StateDirectoryError(self._permission_problem() or (
                f"{where}: permission denied: sudo chown -R {_user()}: {where}"), PERMISSIONS)
        if code == errno.ENOLCK:
            return StateDirectoryError(
                f"cannot lock {where}: its file system has no locks; give --state-dir a "
                "folder on the SD card", "no locks")
        detail = f" ({quote(str(error), 60)})" if error is not None else ""
        return StateDirectoryError(
            f"cannot read or write {self.database}: input/output error{detail}; the SD card "
            "may be failing: copy the folder elsewhere (robinson export --database), then "
            "check the card; the saved games are untouched", "I/O error")

    def _permission_problem(self) -> str | None:
        """Whether this user may read and write the folder and the database's files."""
        user = _user()
        for path, access in [(self.directory, os.W_OK | os.X_OK),
                             *[(self.database.with_name(DATABASE + s), os.R_OK | os.W_OK)
                               for s in ("", *SIDE_FILES)]]:
            if (path == self.directory or path.exists()) and not os.access(path, access):
                what = "written" if path == self.directory else "read and written"
                return (f"{path} may not be {what} by the user {user} (its owner: "
                        f"{_owner(path)}): permissions, not damage; sudo chown -R {user}: "
                        f"{self.directory}")
        return None

    def _check_damaged_dir(self) -> None:
        if self.damaged_dir.is_symlink() or (self.damaged_dir.exists()
                                              and not self.damaged_dir.is_dir()):
            raise StateDirectoryError(
                f"{self.damaged_dir} is not a folder: the table keeps what it sets aside "
                "there; move that file away, then start the table again", "damaged/ is a file")

    def _salvage(self, why: str) -> None:
        """The database is ours but damaged: the games and preferences that can still
        be read and check out are copied into a new database, which takes its place;
        the damaged file is set aside, never deleted. What a damaged file holds is
        never run: its own tables are read, row by row, and nothing else."""
        fresh = self.database.with_name(DATABASE + ".new")
        for stale in (fresh, *[fresh.with_name(fresh.name + x) for x in SIDE_FILES]):
            with contextlib.suppress(FileNotFoundError):
                stale.unlink()
        found = _Salvaged.read(self.database)
        self._create(fresh)
        try:
            db = self._connect_rw(fresh)
        except _Damaged as error:
            raise StateDirectoryError(f"{fresh}: cannot make a new database ({error})",
                                      "cannot start") from None
        try:
            db.execute("PRAGMA synchronous = FULL")
            db.executescript(f"BEGIN IMMEDIATE; {SCHEMA}"
                             f"PRAGMA application_id = {APPLICATION_ID};"
                             f"PRAGMA user_version = {SCHEMA_VERSION};")
            for row, (game, ended, finished_at) in found.games.items():
                self._insert(db, game, ended, finished_at, row)
            db.executemany("INSERT INTO pref VALUES (?, ?)", found.prefs.items())
            db.executemany("INSERT INTO meta VALUES (?, ?)", found.meta.items())
            db.execute("COMMIT")
        except sqlite3.Error as error:
            db.close()
            raise self._fault(error) if _is_fault(error) else _Damaged(str(error)) from None
        db.close()
        kept = (f"{len(found.games)} of {found.rows} games recovered into a new one"
                if found.rows else "no game could be read from it")
        # Killed at any point, a restart finds the damaged file (and salvages again) or
        # the new one, never no database: the damaged one is linked into damaged/, its
        # journal moved there, and the new one renamed over it in one step.
        self._set_aside(self.database, f"damaged ({quote(why, 80)}); {kept}", keep=True)
        os.replace(fresh, self.database)
        legacy.fsync_dir(self.directory)

    def _open_read_only(self) -> sqlite3.Connection:
        """Read-only: no file made, none moved. Without a -wal beside it (or with an
        empty one, as a failed open leaves) no table is writing, and the database is
        opened immutable: SQLite would make a -shm, which a full disk or another
        user's file would refuse.
        Only a database of ours, in our schema, is read (SaveError otherwise)."""
        if not self.database.exists() or _odd(self.database):
            raise _Absent
        mode = "mode=ro" if _holds_frames(self.database) else "mode=ro&immutable=1"
        try:
            db = _connect(f"file:{_uri_path(self.database)}?{mode}")
        except sqlite3.Error as error:
            if not os.access(self.database, os.R_OK):
                raise SaveError(self._unreadable(PermissionError(errno.EACCES, "denied"),
                                                 self.database)) from None
            raise SaveError(f"cannot open {self.database} ({quote(str(error), 60)})") from None
        try:
            app, version, schema = _identity_of(db)
        except sqlite3.Error as error:
            db.close()
            raise SaveError(f"{DATABASE} cannot be read ({quote(str(error), 60)}): start "
                            "the table to recover what it can") from None
        why = None
        if app != APPLICATION_ID and schema != _our_schema():
            why = f"{DATABASE} is not a Robinson Table database"
        elif version > SCHEMA_VERSION:
            why = _newer(self.database, version)
        elif schema != _our_schema():
            why = (f"{DATABASE} is damaged (its tables are not ours: {_unlike(schema)}): "
                   "start the table to set it aside and recover the games")
        if why:
            db.close()
            raise SaveError(why)
        return db

    def _make_directory(self) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as error:
            raise StateDirectoryError(f"cannot use {self.directory} for the saved games "
                                      f"({error.strerror}): give --state-dir a folder the "
                                      "table may write") from None

    def _migrate(self) -> None:
        """The text files of versions before the database: read once, then moved aside."""
        found = legacy.found(self.directory)
        if not found:
            return
        db = self._connection()
        done = db.execute("SELECT 1 FROM meta WHERE key = 'imported'").fetchone()
        if not done:
            old = legacy.read(self.directory)
            with _transaction(db):
                for put_away in old.finished:
                    self._insert(db, put_away.game, ending(put_away.game),
                                 put_away.finished_at.isoformat(timespec="seconds"))
                if old.game is not None and self._row_in_play(db) is None:
                    self._insert(db, old.game, None, None)
                for key, value in old.prefs.items():
                    if key in PREF_KEYS:
                        db.execute("INSERT OR REPLACE INTO pref VALUES (?, ?)", (key, value))
                db.execute("INSERT INTO meta VALUES ('imported', ?)", (_now(),))
            self.problems.extend(old.problems)
            self._current = None
        legacy.move_aside(found, self.directory / "imported")

    # -- writing --------------------------------------------------------------------

    def save(self, game: Game) -> None:
        """Make ``game`` the game in play; returns once it is committed (raises OSError).

        One transaction: the actions the database lacks are added, those ``game`` no
        longer has (an undo) removed. A game with other seats or rules is a new game:
        the one in play is put away first, never overwritten."""
        with self._writing() as db:
            self._current = (self._sync(db, game), game)

    def begin(self, game: Game) -> None:
        """A new game in play; one still there (its putting away failed) is put away."""
        self.put_away(None, game)

    def put_away(self, game: Game | None, then: Game | None = None) -> None:
        """Keep ``game`` among the finished ones (if it had begun) and make ``then``
        the game in play, in one transaction: never half put away.

        ``game`` is the game as the table has it (it may hold actions whose saving
        failed); None puts away whatever is in play as it was saved."""
        with self._writing() as db:
            if game is not None:
                self._sync(db, game)
            self._retire(db, self._in_play(db))
            self._current = None
            if then is not None:
                self._current = (self._insert(db, then, None, None), then)

    def _sync(self, db: sqlite3.Connection, game: Game) -> int:
        """The row in play made to hold ``game``: its missing actions added, those it no
        longer has removed; another game's row is put away first, never overwritten."""
        current = self._in_play(db)
        keep = 0 if current is None else _common(current[1].actions, game.actions)
        if (current is not None and _same_setup(current[1], game)
                and keep in (len(current[1].actions), len(game.actions))):  # on, or back
            row = current[0]
            db.execute("DELETE FROM action WHERE game = ? AND seq >= ?", (row, keep))
            db.executemany("INSERT INTO action VALUES (?, ?, ?)",
                           ((row, n, game.actions[n].token)
                            for n in range(keep, len(game.actions))))
            db.execute("UPDATE game SET digest = ? WHERE id = ?", (_digest(game), row))
        else:
            self._retire(db, current)
            row = self._insert(db, game, None, None)
        self._current = (row, game)
        return row

    def bring_back(self) -> Game | None:
        """The newest game put away unfinished back in play, the one in play (if begun)
        put away in its place, in one transaction; None if there is none to bring back."""
        with self._writing() as db:
            rows = db.execute("SELECT id FROM game WHERE ended = ? ORDER BY id DESC",
                              (Ended.ABANDONED,)).fetchall()
            for (row,) in rows:
                try:
                    game = self._game(db, row)
                except _BadRow:
                    continue  # a damaged one stays where it is
                self._retire(db, self._in_play(db))
                db.execute("UPDATE game SET ended = NULL, finished_at = NULL WHERE id = ?",
                           (row,))
                self._current = (row, game)
                return game
        return None

    def import_game(self, game: Game) -> None:
        """Make an imported game the one in play; the one there is put away first."""
        self.put_away(self.load().game, game)

    def save_prefs(self, prefs: dict[str, str]) -> None:
        with self._writing() as db:
            db.executemany("INSERT OR REPLACE INTO pref VALUES (?, ?)", prefs.items())

    def backup(self, target: Path) -> None:
        """A consistent copy of the whole database, taken while the table may be writing."""
        source = self._connection()  # first: a database that cannot be read makes no copy
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise SaveFailed(errno.EROFS, "opened read-only")
        if self._db is not None and self._identity != _identity(self.database):
            # The folder or the file was removed (or replaced) under the running table:
            # writing on would go to a file no one will ever open again. Open afresh.
            self.close()
            self._current = None
            if self._lock is not None and _identity(self.directory / LOCK_FILE) is None:
                os.close(self._lock)
                self._lock = None
                self.lock()
        try:
            db = self._connection()
            with _transaction(db):
                yield db
        except StateDirectoryError as error:  # a fault, or the folder went for good
            self._current = None
            raise SaveFailed(errno.EACCES, error.short) from None
        except sqlite3.Error as error:
            self._current = None  # what is committed is no longer known: read it again
            self.close()  # and open afresh next time (the disk may be back)
            raise SaveFailed(*self._why(error)) from None
        except BaseException:
            self._current = None
            raise

    def _why(self, error: sqlite3.Error) -> tuple[int, str]:
        """The OS's reason behind an SQLite error, as far as it can be told."""
        code = _primary(error)
        try:  # touching the folder asks the filesystem itself (an ext4 gone read-only
            os.utime(self.directory)  # after an error shows it nowhere else)
        except OSError as refused:
            if refused.errno in (errno.EROFS, errno.ENOSPC, errno.EIO):
                return refused.errno, os.strerror(refused.errno)
        with contextlib.suppress(OSError):
            disk = os.statvfs(self.directory)
            if disk.f_flag & os.ST_RDONLY:
                return errno.EROFS, os.strerror(errno.EROFS)
            if code == sqlite3.SQLITE_FULL or disk.f_bavail == 0:
                return errno.ENOSPC, os.strerror(errno.ENOSPC)
        if code == sqlite3.SQLITE_READONLY:
            return errno.EROFS, os.strerror(errno.EROFS)
        return errno.EIO, f"{os.strerror(errno.EIO)} ({error})"

    def _retire(self, db: sqlite3.Connection, current: tuple[int, Game] | None) -> None:
        """The row in play out of play: put away if it was begun, else deleted."""
        if current is not None and current[1].actions:
            self._end(db, *current)
        elif current is not None:
            self._delete(db, current[0])

    def _end(self, db: sqlite3.Connection, row: int, game: Game) -> None:
        db.execute("UPDATE game SET ended = ?, finished_at = ? WHERE id = ?",
                   (ending(game), _now(), row))
        db.execute("DELETE FROM action WHERE game IN (SELECT id FROM game WHERE ended IS NOT "
                   "NULL AND id NOT IN (SELECT id FROM game WHERE ended IS NOT NULL "
                   "ORDER BY id DESC LIMIT ?))", (KEEP_FINISHED,))
        db.execute("DELETE FROM game WHERE ended IS NOT NULL AND id NOT IN (SELECT id FROM "
                   "game WHERE ended IS NOT NULL ORDER BY id DESC LIMIT ?)", (KEEP_FINISHED,))

    @staticmethod
    def _delete(db: sqlite3.Connection, row: int) -> None:
        db.execute("DELETE FROM action WHERE game = ?", (row,))
        db.execute("DELETE FROM game WHERE id = ?", (row,))

    @staticmethod
    def _insert(db: sqlite3.Connection, game: Game, ended: Ended | None,
                finished_at: str | None, row: int | None = None) -> int:
        """A new row for ``game`` (numbered ``row``, if given: a salvaged game keeps its
        number); returns its number."""
        rules = game.rules.as_text()
        row = db.execute("INSERT INTO game (id, seats, first, rules, ended, finished_at, "
                         "digest) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (row, " ".join(map(str, game.seats)), game.first, rules, ended,
                          finished_at, _digest(game))).lastrowid
        assert row is not None
        db.executemany("INSERT INTO action VALUES (?, ?, ?)",
                       ((row, n, a.token) for n, a in enumerate(game.actions)))
        return row

    # -- reading --------------------------------------------------------------------

    def load(self) -> Loaded:
        """The game in play, if any; what opening set aside, if anything, as a problem.

        A row that does not replay is marked damaged (kept, and written out as text in
        damaged/) and the table starts clean: one bad game costs that game, never the
        database. A fault that keeps the database from being opened for writing is
        ``Loaded.fault``: the game is read read-only and the table plays on, saving
        nothing until the fault is gone; if it cannot even be read, StateDirectoryError."""
        try:
            db = self._connection()
        except _Absent:
            return self._load_legacy()
        except SaveError as error:
            return Loaded(None, str(error))
        except StateDirectoryError as fault:
            if self.read_only:
                return Loaded(None, str(fault))
            return self._load_through_fault(fault)
        except OSError as error:  # the folder or a file could not be read: a fault
            if self.read_only:
                return Loaded(None, self._unreadable(error))
            return self._load_through_fault(self._fault_of(error.errno or errno.EIO, error))
        problems, self.problems = self.problems, []
        try:
            current = self._in_play(db)
        except _BadRow as bad:
            problems.append(f"the game in play does not replay ({bad.reason}): kept in the "
                            "database, marked damaged" + self._mark_damaged(db, bad.row))
            current = None
        except sqlite3.Error as error:
            if self.read_only or not _is_fault(error):
                return Loaded(None, f"{DATABASE} cannot be read ({quote(str(error), 60)})")
            self.close()
            return self._load_through_fault(self._fault(error))
        return Loaded(current[1] if current else None, "; ".join(problems) or None)

    def _unreadable(self, error: OSError, path: Path | None = None) -> str:
        """Why a reader could not read the folder (or ``path``), and what to do: the
        service's folder is its user's (0750): ``robinson state`` without sudo."""
        path = path or self.directory
        if error.errno in (errno.EACCES, errno.EPERM):
            return (f"{path} may not be read by the user {_user()} (its owner: "
                    f"{_owner(path)}): use sudo")
        return f"{path}: {error.strerror or error}"

    @contextlib.contextmanager
    def _reader(self) -> Iterator[Store]:
        """The same folder read-only: what a fault lets a writing store still read."""
        reader = Store(self.directory, read_only=True)
        try:
            yield reader
        finally:
            reader.close()

    def _load_through_fault(self, fault: StateDirectoryError) -> Loaded:
        """The game in play read read-only, the fault kept to be told."""
        with self._reader() as reader:
            loaded = reader.load()
        if loaded.problem and loaded.game is None and self.database.exists():
            raise fault  # not even readable: nothing to play on with
        return Loaded(loaded.game, loaded.problem, fault=fault)

    def _mark_damaged(self, db: sqlite3.Connection, row: int) -> str:
        """A row that does not check out: marked damaged and written out as text in
        damaged/ for a person to look at; what was done, said for the problem line."""
        if self.read_only:
            return ""
        said = ""
        with contextlib.suppress(sqlite3.Error, OSError):
            values = db.execute("SELECT CAST(seats AS BLOB), CAST(first AS BLOB), "
                                "CAST(rules AS BLOB), CAST(ended AS BLOB), "
                                "CAST(finished_at AS BLOB), CAST(digest AS BLOB) "
                                "FROM game WHERE id = ?", (row,)).fetchone() or ()
            tokens = db.execute("SELECT CAST(token AS BLOB) FROM action WHERE game = ? "
                                "ORDER BY seq LIMIT ?", (row, MAX_ACTIONS)).fetchall()
            self._make_damaged_dir()
            text = "\n".join(f"{name} {_shown(value)}" for name, value in zip(
                ("seats", "first", "rules", "ended", "finished_at", "digest"), values,
                strict=False))
            text += "\nactions " + " ".join(_shown(t) for (t,) in tokens) + "\n"
            kept = self.damaged_dir / f"game-{row}.txt"
            kept.write_text(text, encoding="utf-8")
            said = f", written out as damaged/{kept.name}"
        with contextlib.suppress(OSError), self._writing() as writable:
            writable.execute("UPDATE game SET ended = ? WHERE id = ?", (Ended.DAMAGED, row))
        return said

    def _load_legacy(self) -> Loaded:
        """Read-only, before any table made the database: the old files, if there."""
        old = legacy.read(self.directory)
        return Loaded(old.game, "; ".join(old.problems) or None)

    def finished(self, count: int = 10) -> list[Finished]:
        """The newest games put away, newest first; rows that do not replay are skipped
        (and, by the table, marked damaged). Reads no more rows than it lists, and a few."""
        try:
            db = self._connection()
        except _Absent:
            return [Finished(f.game, ending(f.game), f.finished_at, 0)
                    for f in legacy.read(self.directory).finished[::-1][:count]]
        except (SaveError, sqlite3.Error, OSError):
            return []
        except StateDirectoryError:  # a fault: read them read-only
            if self.read_only:
                return []
            with self._reader() as reader:
                return reader.finished(count)
        games: list[Finished] = []
        try:
            rows = db.execute("SELECT id FROM game WHERE ended IS NOT NULL AND ended != ? "
                              "ORDER BY id DESC LIMIT ?", (Ended.DAMAGED, count + 20))
            for (row,) in rows.fetchall():
                try:
                    ended, when = db.execute("SELECT ended, finished_at FROM game "
                                             "WHERE id = ?", (row,)).fetchone()
                    game = self._game(db, row)
                    how = Ended(ended)
                except _BadRow as bad:
                    self._mark_damaged(db, bad.row)  # by the table; a reader only skips it
                    continue
                except (ValueError, TypeError):  # a kind this version does not know
                    continue
                except sqlite3.Error as error:
                    if _is_fault(error):
                        raise
                    continue
                games.append(Finished(game, how, _label(when), row))
                if len(games) == count:
                    break
        except sqlite3.Error:
            pass  # what was read is listed
        return games

    def prefs(self) -> dict[str, str]:
        """The preferences this version knows, each read on its own: one that cannot be
        read (a bad byte, a planted 200 MB value) is left out, not the others."""
        try:
            db = self._connection()
        except (_Absent, SaveError, OSError, sqlite3.Error, StateDirectoryError):
            if self.read_only:
                return {}
            with self._reader() as reader:
                return reader.prefs()
        found: dict[str, str] = {}
        for key in PREF_KEYS:
            with contextlib.suppress(sqlite3.Error):
                row = db.execute("SELECT value FROM pref WHERE key = ? AND "
                                 "typeof(value) = 'text'", (key,)).fetchone()
                if row is not None:
                    found[key] = row[0]
        return found

    def _in_play(self, db: sqlite3.Connection) -> tuple[int, Game] | None:
        """The row in play and its game. The writer keeps it (it made every change since
        it read it, holding the lock); a reader reads it each time, or a long-lived one
        (the companion) would show the first game it saw for ever."""
        if self._current is not None:
            return self._current
        row = self._row_in_play(db)
        found = None if row is None else (row, self._game(db, row))
        if not self.read_only:
            self._current = found
        return found

    @staticmethod
    def _row_in_play(db: sqlite3.Connection) -> int | None:
        found = db.execute("SELECT id FROM game WHERE ended IS NULL").fetchone()
        return None if found is None else int(found[0])

    @staticmethod
    def _game(db: sqlite3.Connection, row: int) -> Game:
        """The game in row ``row``, replayed and checked (_BadRow if it does not). A
        fault (an I/O error) is raised as SQLite's error: it is not the row's."""
        try:
            fields = db.execute("SELECT seats, first, rules, digest FROM game WHERE id = ?",
                                (row,)).fetchone()
            if fields is None:
                raise _BadRow(row, "it is gone")
            tokens = db.execute("SELECT seq, token FROM action WHERE game = ? ORDER BY seq",
                                (row,)).fetchmany(MAX_ACTIONS + 1)
        except sqlite3.Error as error:
            if _is_fault(error):
                raise
            raise _BadRow(row, quote(str(error), 60)) from None
        seats, first, rules, digest = fields
        return _replayed(row, seats, first, rules, digest, tokens)

    # -- the directory --------------------------------------------------------------

    def lock(self) -> None:
        """Claim the state directory for this process's life: one table per directory.

        A second table on the same directory (someone runs ``robinson table`` while
        the service runs) would interleave saves with the first; it stops instead,
        with one line naming the directory and the table that holds it.
        """
        self._make_directory()
        try:
            descriptor = os.open(self.directory / LOCK_FILE,
                                 os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as error:
            if error.errno in (errno.EACCES, errno.EPERM):
                raise self._fault_of(error.errno) from None
            raise StateDirectoryError(f"cannot use {self.directory} for the saved games "
                                      f"({error.strerror}): give --state-dir a folder the "
                                      "table may write") from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):  # no locks there at all
                os.close(descriptor)
                raise self._fault_of(errno.ENOLCK) from None
            holder = os.read(descriptor, 32).decode("ascii", "replace").strip() or "?"
            os.close(descriptor)
            raise TableRunning(
                f"another table is running on {self.directory} (pid {holder}): stop it "
                "first (sudo systemctl stop robinson-table), or give --state-dir") from None
        try:
            os.ftruncate(descriptor, 0)
            os.write(descriptor, f"{os.getpid()}\n".encode())
        except OSError as error:
            os.close(descriptor)
            raise self._fault_of(error.errno or errno.EIO, error.strerror) from None
        self._lock = descriptor  # held, not closed: the lock lasts as long as the process

    def unlock(self) -> None:
        """Let the state directory go (``lock``): for a command done with it."""
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def close(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None

    def _make_damaged_dir(self) -> None:
        self._check_damaged_dir()
        self.damaged_dir.mkdir(mode=0o700, exist_ok=True)

    def _set_aside(self, path: Path, why: str, keep: bool = False) -> None:
        """Move a file (with SQLite's side files, if it is the database) into damaged/;
        ``keep``: the database itself is linked there, to be replaced in one step."""
        self._make_damaged_dir()
        number = 1 + max((int(n) for p in self.damaged_dir.iterdir()
                          if (n := p.name.rpartition(".")[2]).isdigit() and len(n) < 9),
                         default=0)
        names = ([path.with_name(path.name + s) for s in SIDE_FILES]
                 if path == self.database else []) + [path]
        for each in names:
            aside = self.damaged_dir / f"{each.name}.{number}"
            if each == path and keep:
                try:
                    os.link(each, aside)
                except OSError:  # a file system without hard links: a copy
                    shutil.copy2(each, aside)
            elif each.exists() or each.is_symlink():
                each.replace(aside)
        legacy.fsync_dir(self.damaged_dir)
        legacy.fsync_dir(self.directory)
        self.problems.append(f"{path.name}: {why} (kept in damaged/ as {path.name}.{number})")


class _NotOurs(Exception):
    """The file is some other program's database: set it aside, begin a new one."""


class _Damaged(Exception):
    """The database is ours but damaged: keep what checks out, set the file aside."""


class _TakenBack(Exception):
    """A write made only to see that the database takes writes: rolled back."""


class _Absent(Exception):
    """No database yet (read-only: none is made)."""


class _BadRow(Exception):
    def __init__(self, row: int, reason: str) -> None:
        super().__init__(reason)
        self.row, self.reason = row, reason


def _connect(uri: str) -> sqlite3.Connection:
    # Autocommit: every write below opens its own transaction (BEGIN IMMEDIATE).
    # check_same_thread off: the loop thread and the runner share it, never at once.
    db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                         timeout=5.0)
    db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE)  # a planted 200 MB value: an error
    db.execute("PRAGMA trusted_schema = OFF")
    return db


# SQLite's primary result codes that say the file could not be reached, not that it is
# bad: a full disk, an I/O error, permissions, locking, a read-only mount, memory.
FAULTS = frozenset({sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN,
                    sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_BUSY,
                    sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_NOLFS,
                    sqlite3.SQLITE_AUTH, sqlite3.SQLITE_PROTOCOL})


def _is_fault(error: sqlite3.Error) -> bool:
    """A fault outside the file; else (corrupt, not a database, a bad byte) damage."""
    return _primary(error) in FAULTS


def _primary(error: sqlite3.Error) -> int:
    """SQLite's primary result code of ``error`` (0 for one raised by Python's module,
    as a text that is not UTF-8 is)."""
    return getattr(error, "sqlite_errorcode", 0) & 0xFF


@functools.cache
def _our_schema() -> frozenset[tuple[object, ...]]:
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    try:
        return _schema_of(db)
    finally:
        db.close()


def _identity_of(db: sqlite3.Connection) -> tuple[int, int, frozenset[tuple[object, ...]]]:
    """Whose the file says it is: its application id, schema version and sqlite_schema,
    read as data (nothing in it runs, and WAL mode has not yet rewritten the header)."""
    app, version = (db.execute(f"PRAGMA {name}").fetchone()[0]
                    for name in ("application_id", "user_version"))
    return int(app), int(version), _schema_of(db)


def _schema_of(db: sqlite3.Connection) -> frozenset[tuple[object, ...]]:
    """Everything sqlite_schema lists (tables, indexes, views, triggers), read as data."""
    return frozenset(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))


def _unlike(schema: frozenset[tuple[object, ...]]) -> str:
    """How ``schema`` differs from ours, in a few words."""
    ours = _our_schema()
    extra = [f"{kind} {quote(str(name), 24)}" for kind, name, *_ in sorted(schema - ours,
                                                                         key=str)]
    ours_names = {(kind, name) for kind, name, *_ in schema}
    missing = [f"no {kind} {name}" for kind, name, *_ in sorted(ours, key=str)
               if (kind, name) not in ours_names]
    changed = [f"{kind} {name} changed" for kind, name, *_ in sorted(ours - schema, key=str)
               if (kind, name) in ours_names]
    said = [*missing, *changed, *(f"a {x} that is not ours" for x in extra)]
    return ", ".join(said[:3]) + (f" and {len(said) - 3} more" if len(said) > 3 else "")


def _newer(database: Path, version: int) -> str:
    return (f"{database} was made by a newer version of Robinson Table (schema {version}; "
            f"this one reads {SCHEMA_VERSION}): update the software; the file is left as "
            "it is")


def _read_only_mount(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _user() -> str:
    return _owner_name(os.geteuid())


def _owner(path: Path) -> str:
    try:
        return _owner_name(os.stat(path).st_uid)
    except OSError:
        return "?"


def _owner_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _replayed(row: int, seats: object, first: object, rules: object, digest: object,
              tokens: list[tuple[object, object]]) -> Game:
    """A game from its row's values, each checked before use (_BadRow says what is wrong)."""
    if not all(isinstance(value, str) for value in (seats, rules, digest)) \
            or not isinstance(first, int):
        raise _BadRow(row, "a value of the wrong type")
    if len(tokens) > MAX_ACTIONS:
        raise _BadRow(row, f"more than {MAX_ACTIONS} actions")
    if [seq for seq, _ in tokens] != list(range(len(tokens))) \
            or not all(isinstance(token, str) and token.isascii() for _, token in tokens):
        raise _BadRow(row, "its actions are out of order or not actions")
    try:
        game = Game.from_fields(seats=str(seats), first=str(first), rules=str(rules),
                                actions=" ".join(str(token) for _, token in tokens))
    except SaveError as error:
        raise _BadRow(row, str(error)) from None
    if not _matches(_digest(game), str(digest)):
        raise _BadRow(row, "its checksum does not match: damaged or edited")
    return game


def _matches(computed: str, stored: str) -> bool:
    """The stored digest is the game's, or is one flipped bit from it: then the bit is
    in the digest's own text (a game edited to within one bit of its sha256 is not a
    thing that happens), and the game is whole."""
    if computed == stored:
        return True
    if len(computed) != len(stored) or not stored.isascii():
        return False
    differ = int.from_bytes(computed.encode(), "big") ^ int.from_bytes(stored.encode(), "big")
    return differ.bit_count() == 1


def _ours_again(path: Path) -> bool:
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
        ours = _our_objects()
        if len(rows) != len(ours):
            return False
        with _transaction(db):
            db.executemany("UPDATE sqlite_schema SET type = ?, name = ?, tbl_name = ?, sql = ? "
                           "WHERE rowid = ?", [(*mine, row) for mine, row in zip(ours, rows,
                                                                                 strict=True)])
        return True
    except sqlite3.Error:
        return False
    finally:
        db.close()


@functools.cache
def _our_objects() -> tuple[tuple[object, ...], ...]:
    """Our schema's rows (type, name, tbl_name, sql), in the order SQLite made them."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        return tuple(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema "
                                "ORDER BY rowid"))
    finally:
        db.close()


@dataclass
class _Salvaged:
    """What could be read, and checks out, of a damaged database of ours."""

    games: dict[int, tuple[Game, Ended | None, str | None]]
    prefs: dict[str, str]
    meta: dict[str, str]
    rows: int  # the game rows met, read or not

    @classmethod
    def read(cls, path: Path) -> _Salvaged:
        """What ``path`` holds that checks out; if nothing could be read, what a copy
        holds once its schema is written again as ours (a flipped bit in the schema's
        text makes SQLite refuse every table; the tables themselves may be whole)."""
        found = cls._read_file(path)
        if found.rows:
            return found
        copy = path.with_name(path.name + ".schema")
        try:
            shutil.copyfile(path, copy)
            if _ours_again(copy):
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
    def _read_file(cls, path: Path) -> _Salvaged:
        wal = _holds_frames(path)  # else none is made: immutable
        for mode in ("mode=ro", "mode=ro&immutable=1")[0 if wal else 1:]:
            found = cls({}, {}, {}, 0)
            try:
                db = _connect(f"file:{_uri_path(path)}?{mode}")
            except sqlite3.Error:
                continue
            try:
                found._read(db)
            except sqlite3.Error:
                continue  # not even its schema: try without the -wal
            finally:
                db.close()
            return found
        return cls({}, {}, {}, 0)

    def _read(self, db: sqlite3.Connection) -> None:
        steps = [0]

        def enough() -> bool:  # a damaged (or made) file can loop: a bound on the work
            steps[0] += 1
            return steps[0] > MAX_STEPS

        db.set_progress_handler(enough, 1000)
        tables = {name for kind, name, _, sql in _schema_of(db)
                  if kind == "table" and str(sql).startswith("CREATE TABLE")}
        if {"game", "action"} <= tables:
            self._games(db)
        for table, into in (("pref", self.prefs), ("meta", self.meta)):
            if table in tables:
                with contextlib.suppress(sqlite3.Error):
                    for key, value in db.execute(f"SELECT key, value FROM {table}"):
                        if isinstance(key, str) and isinstance(value, str) and (
                                table == "meta" or key in PREF_KEYS):
                            into[key] = value

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
                game = Store._game(db, row)
                how = None if ended is None else Ended(ended)
            except (_BadRow, ValueError, sqlite3.Error):
                continue
            self.games[row] = (game, how, finished_at if isinstance(finished_at, str)
                               and _label(finished_at) else None)
            if how is None:
                in_play.append(row)
        for row in in_play[:-1]:  # one game in play: the newest; the others put away
            game, _, _ = self.games[row]
            self.games[row] = (game, Ended.ABANDONED, None)


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    if db.in_transaction:  # a script that BEGINs itself
        yield
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


SQLITE_MAGIC = b"SQLite format 3\x00"


def _sqlite_header(path: Path) -> bool:
    """Absent, empty, or beginning as an SQLite database does."""
    try:
        with open(path, "rb") as file:
            start = file.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        return True
    return start in (b"", SQLITE_MAGIC)


def _holds_frames(database: Path) -> bool:
    """Whether the database's -wal holds anything (commits not yet in the file)."""
    try:
        return os.stat(database.with_name(database.name + "-wal")).st_size > 0
    except OSError:
        return False


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _create_private(path: Path) -> None:
    """An empty file, made by us before SQLite opens it: private whatever the umask
    (SQLite gives its -wal and -shm the database's mode), and no planted link followed."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600))


def _odd(path: Path) -> bool:
    """Something is there, and it is not a plain file (a folder, a link, a FIFO...)."""
    try:
        return not stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def _uri_path(path: Path) -> str:
    return urllib.parse.quote(str(path.absolute()))


def _same_setup(a: Game, b: Game) -> bool:
    return (a.seats, a.first, a.rules) == (b.seats, b.first, b.rules)


def _common(saved: tuple[object, ...], new: tuple[object, ...]) -> int:
    """How many actions, from the first, the two lists share."""
    shorter = min(len(saved), len(new))
    if saved[:shorter] == new[:shorter]:
        return shorter
    return next(n for n in range(shorter) if saved[n] != new[n])


def _digest(game: Game) -> str:
    return hashlib.sha256(game.save().encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.datetime.now().isoformat(timespec="seconds")


def _shown(value: object) -> str:
    """A value read from a damaged row, as printable text whatever its bytes."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(value))[:2000]


def _label(when: object) -> datetime.datetime | None:
    try:
        return datetime.datetime.fromisoformat(str(when))
    except ValueError:
        return None

