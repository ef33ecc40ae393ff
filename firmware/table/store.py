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
import hashlib
import os
import sqlite3
import stat
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from firmware.errors import TableError
from robinson_core import Game, SaveError, Status

from . import legacy


class StateDirectoryError(TableError):
    """The state directory cannot be used: another table holds it, or it cannot be made."""


APPLICATION_ID = 0x526F6269  # "Robi": a database of ours, not any SQLite file
SCHEMA_VERSION = 1
DATABASE = "robinson.db"
SIDE_FILES = ("-wal", "-shm", "-journal")  # SQLite's own, kept with the database
KEEP_FINISHED = 100
LOCK_FILE = "table.lock"
PREF_KEYS = ("language", "contrast", "owed", "names")
"""owed: faces of rolls taken back (the machine); names: firmware.table.names."""
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
        """Open (or make) the database, setting aside whatever is not a good one of ours."""
        self._make_directory()
        for suffix in ("", *SIDE_FILES):
            path = self.database.with_name(DATABASE + suffix)
            if _odd(path):  # a folder, a link, a FIFO where SQLite would open a file
                self._set_aside(path, f"{path.name} is not a file")
        if not _sqlite_header(self.database):  # before SQLite opens it: on closing, SQLite
            self._set_aside(self.database, "not a database")  # would delete its -wal
        if not self.database.exists():
            _create_private(self.database)
        try:
            db = self._check(_connect(f"file:{_uri_path(self.database)}?mode=rw"))
        except _Unusable as why:
            self._set_aside(self.database, str(why))
            _create_private(self.database)
            db = self._check(_connect(f"file:{_uri_path(self.database)}?mode=rw"))
        self._db = db
        self._identity = _identity(self.database)
        self._migrate()
        return db

    def _check(self, db: sqlite3.Connection) -> sqlite3.Connection:
        """The database is whole and ours; an empty one gets the schema. Raises _Unusable."""
        try:  # only read until it is known to be ours: WAL mode rewrites the header
            app, version = (db.execute(f"PRAGMA {name}").fetchone()[0]
                            for name in ("application_id", "user_version"))
            tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
            empty = (app, version, tables) == (0, 0, 0)
            if not empty and app != APPLICATION_ID:
                raise _Unusable("not a Robinson Table database")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            if empty:
                db.executescript(f"BEGIN IMMEDIATE; {SCHEMA}"  # all of it, or none
                                 f"PRAGMA application_id = {APPLICATION_ID};"
                                 f"PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
                return db
            if version > SCHEMA_VERSION:
                raise _Unusable(f"made by a newer version (schema {version}): "
                                "update the software to read it")
            found = db.execute("PRAGMA quick_check").fetchone()[0]
            if found != "ok":
                raise _Unusable(f"damaged ({found})")
            return db
        except sqlite3.DatabaseError as error:
            db.close()
            raise _Unusable(f"not a database ({error})") from None
        except _Unusable:
            db.close()
            raise

    def _open_read_only(self) -> sqlite3.Connection:
        """Read-only: no file made, none moved. Without a -wal beside it no table is
        writing, and the database is opened immutable (else SQLite would make one)."""
        if not self.database.exists() or _odd(self.database):
            raise _Absent
        wal = self.database.with_name(DATABASE + "-wal")
        mode = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
        db = _connect(f"file:{_uri_path(self.database)}?{mode}")
        try:
            app = db.execute("PRAGMA application_id").fetchone()[0]
        except sqlite3.DatabaseError as error:
            db.close()
            raise SaveError(f"{DATABASE} is not a database ({error})") from None
        if app != APPLICATION_ID:
            db.close()
            raise SaveError(f"{DATABASE} is not a Robinson Table database")
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
        copy = sqlite3.connect(target)
        try:
            self._connection().backup(copy)
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
        except StateDirectoryError as error:  # the folder went, and cannot be made again
            self._current = None
            raise SaveFailed(errno.EACCES, str(error)) from None
        except sqlite3.Error as error:
            self._current = None  # what is committed is no longer known: read it again
            self.close()  # and open afresh next time (the disk may be back)
            raise SaveFailed(*self._why(error)) from None
        except BaseException:
            self._current = None
            raise

    def _why(self, error: sqlite3.Error) -> tuple[int, str]:
        """The OS's reason behind an SQLite error, as far as it can be told."""
        code = getattr(error, "sqlite_errorcode", 0) & 0xFF
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
                finished_at: str | None) -> int:
        rules = game.rules.as_text()
        row = db.execute("INSERT INTO game (seats, first, rules, ended, finished_at, digest) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (" ".join(map(str, game.seats)),
                                                       game.first, rules, ended, finished_at,
                                                       _digest(game))).lastrowid
        assert row is not None
        db.executemany("INSERT INTO action VALUES (?, ?, ?)",
                       ((row, n, a.token) for n, a in enumerate(game.actions)))
        return row

    # -- reading --------------------------------------------------------------------

    def load(self) -> Loaded:
        """The game in play, if any; what opening set aside, if anything, as a problem.

        A row that does not replay is marked damaged (kept, not deleted) and the table
        starts clean: one bad game costs that game, never the database."""
        try:
            db = self._connection()
        except _Absent:
            return self._load_legacy()
        except SaveError as error:
            return Loaded(None, str(error))
        except sqlite3.Error as error:
            return Loaded(None, f"{DATABASE}: {error}")
        except OSError as error:
            return Loaded(None, f"{self.directory}: {error.strerror or error}")
        problems, self.problems = self.problems, []
        try:
            current = self._in_play(db)
        except _BadRow as bad:
            problems.append(f"the game in play does not replay ({bad.reason}): kept in the "
                            "database, marked damaged")
            if not self.read_only:
                with contextlib.suppress(OSError), self._writing() as writable:
                    writable.execute("UPDATE game SET ended = ? WHERE id = ?",
                                     (Ended.DAMAGED, bad.row))
            current = None
        return Loaded(current[1] if current else None, "; ".join(problems) or None)

    def _load_legacy(self) -> Loaded:
        """Read-only, before any table made the database: the old files, if there."""
        old = legacy.read(self.directory)
        return Loaded(old.game, "; ".join(old.problems) or None)

    def finished(self, count: int = 10) -> list[Finished]:
        """The newest games put away, newest first; rows that do not replay are skipped."""
        try:
            db = self._connection()
        except _Absent:
            return [Finished(f.game, ending(f.game), f.finished_at, 0)
                    for f in legacy.read(self.directory).finished[::-1][:count]]
        except (SaveError, sqlite3.Error):
            return []
        games: list[Finished] = []
        rows = db.execute("SELECT id, ended, finished_at FROM game WHERE ended IS NOT NULL "
                          "AND ended != ? ORDER BY id DESC", (Ended.DAMAGED,))
        for row, ended, when in rows.fetchall():
            try:
                game = self._game(db, row)
                how = Ended(ended)
            except (_BadRow, ValueError):  # a kind this version does not know: not listed
                continue
            games.append(Finished(game, how, _label(when), row))
            if len(games) == count:
                break
        return games

    def prefs(self) -> dict[str, str]:
        try:
            rows = self._connection().execute("SELECT key, value FROM pref").fetchall()
        except (_Absent, SaveError, OSError, sqlite3.Error):
            return {}
        return {key: value for key, value in rows if key in PREF_KEYS}

    def _in_play(self, db: sqlite3.Connection) -> tuple[int, Game] | None:
        if self._current is None:
            row = self._row_in_play(db)
            self._current = None if row is None else (row, self._game(db, row))
        return self._current

    @staticmethod
    def _row_in_play(db: sqlite3.Connection) -> int | None:
        found = db.execute("SELECT id FROM game WHERE ended IS NULL").fetchone()
        return None if found is None else int(found[0])

    @staticmethod
    def _game(db: sqlite3.Connection, row: int) -> Game:
        seats, first, rules, digest = db.execute(
            "SELECT seats, first, rules, digest FROM game WHERE id = ?", (row,)).fetchone()
        tokens = [t for (t,) in db.execute("SELECT token FROM action WHERE game = ? "
                                           "ORDER BY seq", (row,))]
        try:
            game = Game.from_fields(seats=str(seats), first=str(first), rules=str(rules),
                                    actions=" ".join(map(str, tokens)))
        except SaveError as error:
            raise _BadRow(row, str(error)) from None
        if _digest(game) != digest:
            raise _BadRow(row, "its checksum does not match: damaged or edited")
        return game

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
            raise StateDirectoryError(f"cannot use {self.directory} for the saved games "
                                      f"({error.strerror}): give --state-dir a folder the "
                                      "table may write") from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(descriptor, 32).decode("ascii", "replace").strip() or "?"
            os.close(descriptor)
            raise StateDirectoryError(
                f"another table is running on {self.directory} (pid {holder}): stop it "
                "first (sudo systemctl stop robinson-table), or give --state-dir") from None
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"{os.getpid()}\n".encode())
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

    def _set_aside(self, path: Path, why: str) -> None:
        """Move a file (with SQLite's side files, if it is the database) into damaged/."""
        self.damaged_dir.mkdir(mode=0o700, exist_ok=True)
        number = 1 + max((int(n) for p in self.damaged_dir.iterdir()
                          if (n := p.name.rpartition(".")[2]).isdigit() and len(n) < 9),
                         default=0)
        names = [path] + ([path.with_name(path.name + s) for s in SIDE_FILES]
                          if path == self.database else [])
        for each in names:
            if each.exists() or each.is_symlink():
                each.replace(self.damaged_dir / f"{each.name}.{number}")
        legacy.fsync_dir(self.directory)
        self.problems.append(f"{path.name}: {why} (kept in damaged/ as {path.name}.{number})")


class _Unusable(Exception):
    """The database file cannot be used as it is: set it aside, begin a new one."""


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
    db.execute("PRAGMA trusted_schema = OFF")
    return db


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


def _label(when: object) -> datetime.datetime | None:
    try:
        return datetime.datetime.fromisoformat(str(when))
    except ValueError:
        return None

