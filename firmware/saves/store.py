"""Saved games in one SQLite database: each action committed before it is shown.

The public face of the saves: ``Store`` opens (or makes) the database in its state
folder, takes the game in play, puts games away and brings them back, keeps the
preferences, and reads the finished games. Its rooms: ``rows`` (the schema, a game as
rows), ``folder`` (the folder, its lock, damaged/, fault lines), ``opening`` (ours and
whole, or salvaged), ``salvage`` (what a
damaged database still holds), ``ledger`` (what the last save left, outside the
database), ``spare`` (a copy at each put-away, to bring lost games back), ``faults``
(their kinds, named in each language).

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
import errno
import os
import sqlite3
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, overload

from firmware.saves import spare
from firmware.saves.faults import Fault, SaveFailed, StateDirectoryError
from firmware.saves.folder import (
    Absent,
    Folder,
    identity,
    odd,
    sqlite_header,
)
from firmware.saves.ledger import LEDGER, Entry, Ledger, audit
from firmware.saves.opening import Damaged, NotOurs, check, connect_rw, create, salvage
from firmware.saves.rows import (
    DATABASE,
    KEEP_FINISHED,
    SIDE_FILES,
    BadRow,
    Ended,
    Finished,
    Summary,
    as_text,
    delete,
    end,
    finished_of,
    game_of,
    insert,
    is_fault,
    kept_digest,
    newest_finished,
    primary,
    row_in_play,
    seal,
    standing,
    summaries,
    transaction,
)
from robinson_core import Game, SaveError
from robinson_core.errors import quote
from robinson_core.game import SavedDigest


@dataclass(frozen=True)
class Loaded:
    """What was found at start: a game (or None), and what went wrong on the way, if anything."""

    game: Game | None
    problem: str | None = None
    fault: StateDirectoryError | None = None  # why nothing is saved (read read-only)


class Store:
    """The state directory: the game in play, games put away, and preferences.

    ``read_only`` (``robinson state``, ``history``, ``export``, which may run beside
    the table) opens the database read-only and never changes the directory.
    ``pref_keys`` are the preferences the table knows (its ``prefs.PREF_KEYS``, handed
    in: the saves know nothing of the table): only these are read back and salvaged.
    """

    def __init__(self, directory: Path, read_only: bool = False, *,
                 pref_keys: Collection[str] = (),
                 clock: Callable[[], datetime.datetime] = datetime.datetime.now,
                 folder: Folder | None = None) -> None:
        """``folder``: the directory's, claimed already (``Folder.lock``: the table claims
        it before its first frame, before this room is loaded)."""
        self.pref_keys = tuple(pref_keys)
        self.clock = clock  # when a game is put away: a label only (a Pi has no clock)
        self.folder = folder if folder is not None else Folder(directory)
        self.directory, self.database = self.folder.directory, self.folder.database
        self.damaged_dir = self.folder.damaged_dir
        self.read_only = read_only
        self._db: sqlite3.Connection | None = None
        self._current: tuple[int, Game] | None = None  # the row in play, as committed
        self._identity: tuple[int, int] | None = None  # (device, inode) of the open database
        self.ledger = Ledger(self.directory)  # the writer's note of each save (ledger.py)
        self._seal = ""  # the open database's seal, as the last commit left it
        self._digest: SavedDigest | None = None  # the game in play's, kept as it goes

    @property
    def problems(self) -> list[str]:
        """What opening found and set aside, told once."""
        return self.folder.problems

    # -- opening --------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:  # a table refused by its lock reads, as the commands do
            reading = self.read_only or self.folder.refused is not None
            self._db = self.folder.open_read_only() if reading else self._open()
        return self._db

    def _open(self) -> sqlite3.Connection:
        """Open (or make) the database. What is not ours is set aside; what is ours but
        damaged is set aside after the games that check out are copied into a new one;
        a fault (full disk, I/O error, permissions, locks, a newer version) raises
        StateDirectoryError and leaves every file where it is."""
        folder = self.folder
        folder.make()
        for suffix in ("", *SIDE_FILES):
            path = self.database.with_name(DATABASE + suffix)
            if odd(path):  # a folder, a link, a FIFO where SQLite would open a file
                folder.set_aside(path, f"{path.name} is not a file")
        if not sqlite_header(self.database):  # before SQLite opens it: on closing, SQLite
            folder.set_aside(self.database, "not a database")  # would delete its -wal
        if why := folder.permission_problem():
            raise StateDirectoryError(why, Fault.PERMISSIONS)
        if odd(self.directory / LEDGER):
            folder.set_aside(self.directory / LEDGER, f"{LEDGER} is not a file")
        audit(self.folder, self.ledger)  # before anything may checkpoint it
        written = self.ledger.last  # the last save, as the ledger wrote it down
        if not self.database.exists():
            create(self.folder, self.database)
        try:
            db = check(self.folder, connect_rw(self.folder, self.database))
        except NotOurs as why:
            folder.set_aside(self.database, str(why))
            create(self.folder, self.database)
            db = check(self.folder, connect_rw(self.folder, self.database))
        except Damaged as why:  # once more first: one failed read (EIO) reads as damage
            try:
                db = check(self.folder, connect_rw(self.folder, self.database))
            except Damaged:
                db = self._salvaged(str(why))
        self._db = db
        self._identity = identity(self.database)
        try:
            self._settle(db, written)
        except Damaged as why:  # a write found damage quick_check had not
            self.close()
            db = self._salvaged(str(why))
            self._db = db
            self._identity = identity(self.database)
            try:
                self._settle(db, written)
            except Damaged as still:  # the new file: not a thing that happens
                self.close()
                raise self._not_made(still) from None
        return db

    def _salvaged(self, why: str) -> sqlite3.Connection:
        """The damaged database salvaged (``opening.salvage``) and the new one opened."""
        salvage(self.folder, self.ledger.last, self.pref_keys, why)
        try:
            return check(self.folder, connect_rw(self.folder, self.database))
        except (Damaged, NotOurs) as still:  # the new file: not a thing that happens
            raise self._not_made(still) from None

    def _not_made(self, why: Exception) -> StateDirectoryError:
        return StateDirectoryError(f"{self.database}: a new database could not be made "
                                   f"({why})", Fault.CANNOT_START)

    def _settle(self, db: sqlite3.Connection, written: Entry | None) -> None:
        """Just opened: the log carried into the main file, the finished games checked
        against the ledger's fingerprint of them (a row changed on disk since is found
        by replaying each, marked damaged and said), those lost since the last save
        (``written``) brought back from the spare, and the ledger made to say what the
        database now holds (what was behind has been said). Raises Damaged if a write
        finds the file damaged."""
        self._checkpoint(db)
        kept = kept_digest(db)
        if written is not None and written.kept and kept and kept != written.kept:
            self._find_damaged(db)
            if self._db is None:  # its write failed: the file is damaged where it wrote
                raise Damaged("a damaged page met marking a game damaged")
            kept = kept_digest(db)
        if self._from_spare(db, written) or not spare.spare_of(self.directory).exists():
            kept = kept_digest(db)
            self._keep_spare(db)  # a copy of what is now whole (or a first one)
        found = standing(db)
        self._seal = found.seal
        last = self.ledger.last
        if last is None or (last.seal, last.games, last.row, last.actions, last.kept) != (
                found.seal, found.games, found.row, found.actions, kept):
            self.ledger.write(found, found.seal, kept)

    def _from_spare(self, db: sqlite3.Connection, written: Entry | None) -> bool:
        """Fewer finished games than the last save wrote down in the ledger (``written``:
        a salvage, pages cut short, rows marked damaged since): those the spare holds are
        put back, and said. Whether any was."""
        found = standing(db)
        if written is None or found.games >= written.games:
            return False
        try:
            with transaction(db):
                brought = spare.bring_back(db, self.directory, written.games)
                if brought.rows:
                    seal(db, found.seal)
        except sqlite3.Error as error:
            if is_fault(error):
                raise self.folder.sqlite_fault(error) from None
            raise Damaged(f"a damaged page met bringing games back ({quote(str(error), 60)})"
                           ) from None
        if said := brought.said():
            self.folder.problems.append(said)
        return bool(brought.rows)

    def _keep_spare(self, db: sqlite3.Connection) -> None:
        """The spare made a copy of the database as it now is; a failure leaves the old
        one (the saves themselves are on the disk: nothing the table showed is lost)."""
        with contextlib.suppress(OSError, sqlite3.Error):
            spare.keep(db, self.directory)

    def _find_damaged(self, db: sqlite3.Connection) -> None:
        """The finished games differ from the ledger's fingerprint: each replayed (the
        newest KEEP_FINISHED, as the fingerprint), and what no longer checks out marked
        damaged, in one change, with one problem line (else it would be lost unsaid,
        skipped the next time the games are listed)."""
        rows = newest_finished(db, KEEP_FINISHED)
        bad: list[tuple[int, str]] = []
        for row in sorted(rows):
            try:
                finished_of(db, row)
            except BadRow as damaged:
                bad.append((row, damaged.reason))
            except (ValueError, TypeError, sqlite3.Error) as error:  # how it ended, unread
                if isinstance(error, sqlite3.Error) and is_fault(error):
                    raise
                bad.append((row, "how it ended cannot be read"))
        if not bad:
            return
        written = self._mark_damaged(db, [row for row, _ in bad])
        first, why = bad[0]
        more = f" and {len(bad) - 1} more" if len(bad) > 1 else ""
        self.folder.problems.append(
            f"finished game {first}{more} changed on disk since saved ({why}): marked "
            f"damaged" + (f", written out as damaged/{', '.join(written)}" if written else ""))

    def _checkpoint(self, db: sqlite3.Connection) -> bool:
        """The -wal carried into the main file and emptied; False if a reader's snapshot
        (``robinson state``) kept it (the next save tries again)."""
        try:
            busy, _, _ = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error as error:  # a fault (the -wal's sync failed: EIO) is said as
            if is_fault(error):  # one (a save not taken, a fault at opening), never taken
                raise self.folder.sqlite_fault(error) from None  # for a reader's snapshot
            return False
        return not busy

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
                self._current = (insert(db, then, None, None), then)

    def _sync(self, db: sqlite3.Connection, game: Game) -> int:
        """The row in play made to hold ``game``: its missing actions added, those it no
        longer has removed; another game's row is put away first, never overwritten."""
        current = self._in_play(db)
        if (current is not None and current[1].same_setup(game)
                and (keep := current[1].shared(game)) in (len(current[1].actions),
                                                          len(game.actions))):  # on, or back
            row = current[0]
            db.execute("DELETE FROM action WHERE game = ? AND seq >= ?", (row, keep))
            db.executemany("INSERT INTO action VALUES (?, ?, ?)",
                           ((row, n, game.actions[n].token)
                            for n in range(keep, len(game.actions))))
            if self._digest is None or not self._digest.fits(game):
                self._digest = SavedDigest(game)
            db.execute("UPDATE game SET digest = ? WHERE id = ?", (self._digest.of(game), row))
        else:
            self._retire(db, current)
            row = insert(db, game, None, None)
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
                    game = game_of(db, row)
                except BadRow:
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
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                             0o600)  # the games are the family's: private, as the folder is
        os.fchmod(descriptor, 0o600)
        os.close(descriptor)
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise SaveFailed(Fault.READ_ONLY)
        if self.folder.refused is not None:
            raise SaveFailed(self.folder.refused.kind)
        if self._db is not None and self._identity != identity(self.database):
            # The folder or the file was removed (or replaced) under the running table:
            # writing on would go to a file no one will ever open again. Open afresh.
            self.close()
            self._current = None
            self.folder.relock()
        try:
            db = self._connection()
            with transaction(db):
                yield db
                sealed = seal(db, self._seal)
            self._seal = sealed
            base = self._seal if self._checkpoint(db) else (
                self.ledger.last.base if self.ledger.last else "")
            found, last = standing(db), self.ledger.last
            changed = last is None or (last.games, last.top) != (found.games, found.top)
            self.ledger.write(found, base, (last.kept if last is not None and not changed
                                            else "") or kept_digest(db))
            if last is None or found.top > last.top or found.games > last.games:
                self._keep_spare(db)  # put away or brought back: a copy now; not when
                # fewer or an older newest (a row marked damaged, the newest one too):
                # the spare keeps it whole to bring back, and a Recall over rows that
                # do not replay copied the whole database once a row (42 s for 30 rows
                # beside a planted 200 MB preference)
        except StateDirectoryError as error:  # a fault, or the folder went for good
            self._current = None
            raise SaveFailed(error.kind) from None
        except sqlite3.Error as error:
            self._current = None  # what is committed is no longer known: read it again
            self.close()  # and open afresh next time (the disk may be back)
            if primary(error) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise SaveFailed(Fault.LOCKED) from None
            raise SaveFailed(Fault.of_errno(self.folder.why(error))) from None
        except OSError as error:  # the ledger's write: the commit stands, said as not saved
            self.close()
            raise SaveFailed(Fault.of_errno(error.errno or errno.EIO)) from None
        except BaseException:
            self._current = None
            raise

    def _retire(self, db: sqlite3.Connection, current: tuple[int, Game] | None) -> None:
        """The row in play out of play: put away if it was begun, else deleted."""
        if current is not None and current[1].actions:
            end(db, *current, self.clock())
        elif current is not None:
            delete(db, current[0])

    # -- reading --------------------------------------------------------------------

    def load(self) -> Loaded:
        """The game in play, if any; what opening set aside, if anything, as a problem.

        A row that does not replay is marked damaged (kept, and written out as text in
        damaged/) and the table starts clean: one bad game costs that game, never the
        database. A fault that keeps the database from being opened for writing is
        ``Loaded.fault``: the game is read read-only and the table plays on, saving
        nothing until the fault is gone; if it cannot even be read, StateDirectoryError."""
        if self.folder.refused is not None and not self.read_only:
            return self._load_through_fault(self.folder.refused)  # the lock said: no writes
        try:
            db = self._connection()
        except Absent:
            return Loaded(None)
        except SaveError as error:
            return Loaded(None, str(error))
        except StateDirectoryError as fault:
            if self.read_only:
                return Loaded(None, str(fault))
            return self._load_through_fault(fault)
        except OSError as error:  # the folder or a file could not be read: a fault
            if self.read_only:
                return Loaded(None, self.folder.unreadable(error))
            return self._load_through_fault(self.folder.fault_of(error.errno or errno.EIO,
                                                                 error))
        problems, self.folder.problems = self.problems, []
        try:
            current = self._in_play(db)
        except BadRow as bad:
            written = "".join(f", written out as damaged/{name}"
                              for name in self._mark_damaged(db, [bad.row]))
            problems.append(f"the game in play does not replay ({bad.reason}): kept in the "
                            f"database, marked damaged{written}")
            current = None
        except sqlite3.Error as error:
            if self.read_only or not is_fault(error):
                return Loaded(None, f"{DATABASE} cannot be read ({quote(str(error), 60)})")
            self.close()
            return self._load_through_fault(self.folder.sqlite_fault(error))
        return Loaded(current[1] if current else None, "; ".join(problems) or None)

    @contextlib.contextmanager
    def _reader(self) -> Iterator[Store]:
        """The same folder read-only: what a fault lets a writing store still read."""
        reader = Store(self.directory, read_only=True, pref_keys=self.pref_keys)
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

    def _mark_damaged(self, db: sqlite3.Connection, rows: list[int]) -> list[str]:
        """Rows that do not check out: marked damaged in one change, the first five
        written out as text in damaged/ for a person to look at (the rest are in the
        database); the files written."""
        if self.read_only:
            return []
        written = []
        for row in rows[:5]:
            with contextlib.suppress(sqlite3.Error, OSError):
                written.append(self.folder.write_out(f"game-{row}.txt", as_text(db, row)))
        with contextlib.suppress(OSError), self._writing() as writable:
            writable.executemany("UPDATE game SET ended = ? WHERE id = ?",
                                 [(Ended.DAMAGED, row) for row in rows])
        return written

    def finished(self, count: int = 10) -> list[Finished]:
        """The newest games put away, newest first; rows that do not replay are skipped
        (and, by the table, marked damaged). Reads no more rows than it lists, and a few."""
        return self._put_away(count, whole=True)

    def recent(self, count: int = 10) -> list[Summary]:
        """The newest games put away, newest first, in brief (how each ended, when, who
        won), as ``finished`` lists them but from their summaries: only a game without
        one to trust is replayed."""
        return self._put_away(count, whole=False)

    @overload
    def _put_away(self, count: int, whole: Literal[True]) -> list[Finished]: ...

    @overload
    def _put_away(self, count: int, whole: Literal[False]) -> list[Summary]: ...

    def _put_away(self, count: int, whole: bool) -> list[Finished] | list[Summary]:
        try:
            db = self._connection()
        except Absent:
            return []
        except (SaveError, sqlite3.Error, OSError):
            return []
        except StateDirectoryError:  # a fault: read them read-only
            if self.read_only:
                return []
            with self._reader() as reader:
                return reader.finished(count) if whole else reader.recent(count)
        games: list[Any] = []
        try:
            found = newest_finished(db, count + 20) if whole else summaries(db, count + 20)
            for entry in found:
                if isinstance(entry, Summary):
                    games.append(entry)
                else:
                    replayed = self._replayed(db, entry)
                    if replayed is not None:
                        games.append(replayed if whole else replayed.summary)
                if len(games) == count:
                    break
        except sqlite3.Error:
            pass  # what was read is listed
        return games

    def _replayed(self, db: sqlite3.Connection, row: int) -> Finished | None:
        """The finished game in row ``row``, or None if it does not replay (marked
        damaged, by the table) or is of a kind this version does not know."""
        try:
            return finished_of(db, row)
        except BadRow as bad:
            self._mark_damaged(db, [bad.row])  # by the table; a reader only skips it
            return None
        except (ValueError, TypeError):  # a kind this version does not know
            return None
        except sqlite3.Error as error:
            if is_fault(error):
                raise
            return None

    def prefs(self) -> dict[str, str]:
        """The preferences this version knows, each read on its own: one that cannot be
        read (a bad byte, a planted 200 MB value) is left out, not the others."""
        try:
            db = self._connection()
        except (Absent, SaveError, OSError, sqlite3.Error, StateDirectoryError):
            if self.read_only:
                return {}
            with self._reader() as reader:
                return reader.prefs()
        found: dict[str, str] = {}
        for key in self.pref_keys:
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
        row = row_in_play(db)
        found = None if row is None else (row, game_of(db, row))
        if not self.read_only:
            self._current = found
        return found

    # -- the directory --------------------------------------------------------------

    def lock(self) -> None:
        """Claim the state directory for this process's life: one table per directory
        (``Folder.lock``)."""
        self.folder.lock()

    def unlock(self) -> None:
        """Let the state directory go (``lock``): for a command done with it."""
        self.folder.unlock()

    def close(self) -> None:
        if self._db is not None:
            if not self.read_only:
                with contextlib.suppress(sqlite3.Error, StateDirectoryError):
                    self._checkpoint(self._db)
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None
        self.ledger.close()

