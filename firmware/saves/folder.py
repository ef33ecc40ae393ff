"""The state folder: where it is, its lock, its files made private and never through a
link, what is set aside in damaged/, and the fault lines that name the folder (what is
wrong, and what to do).

Layout::

    robinson.db     the database (WAL journal: robinson.db-wal and -shm beside it)
    table.lock      held (flock) by the one table running on this directory, with its pid
    damaged/        whatever could not be used, set aside whole for a person to look at
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import pwd
import re
import shutil
import sqlite3
import stat
import urllib.parse
from pathlib import Path

from firmware.config.settings import SYSTEM_STATE_DIR
from firmware.saves.faults import Fault, StateDirectoryError, TableRunning
from firmware.saves.rows import (
    DATABASE,
    SCHEMA_VERSION,
    SIDE_FILES,
    Kind,
    connect,
    identify,
    is_fault,
    primary,
    unlike,
)
from robinson_core import SaveError
from robinson_core.errors import quote

LOCK_FILE = "table.lock"


class Absent(Exception):
    """No database yet (read-only: none is made)."""


def state_dir(given: str | None, on_pi: bool) -> Path:
    """Where saved games live: --state-dir, systemd's StateDirectory, or the usual place
    for the machine (on a Pi the system's, elsewhere the user's). The machine decides,
    never how the table runs: an emulated table on a Pi saves where ``robinson state``
    reads, for every command asks this one rule.

    Always an absolute path: lgpio changes the working directory (to LG_WD) when
    the pins are opened, and a relative one would then point elsewhere.
    """
    if given:
        return Path(given).absolute()
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    if on_pi:
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


class Folder:
    """The state folder of one store: its database's files, damaged/, and the lock.

    ``problems`` are what was set aside, to be told once."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.database = self.directory / DATABASE
        self.damaged_dir = self.directory / "damaged"
        self.problems: list[str] = []
        self._lock: int | None = None
        self.refused: StateDirectoryError | None = None  # why this table may not write here

    @property
    def locked(self) -> bool:
        return self._lock is not None

    def sqlite_fault(self, error: sqlite3.Error) -> StateDirectoryError:
        code = primary(error)
        if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            return StateDirectoryError(
                f"{self.database} is locked: another program has it open, or its file "
                "system has no locks (a network share): give --state-dir a folder on the "
                "SD card; the saved games are untouched", Fault.LOCKED)
        if code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY) \
                and (why := self.permission_problem()):
            return StateDirectoryError(why, Fault.PERMISSIONS)
        reason = self.why(error)
        if code == sqlite3.SQLITE_READONLY and reason == errno.EROFS and not read_only_mount(
                self.directory):  # SQLite fell back to reading: the open for writing failed
            return StateDirectoryError(
                f"{self.database} could not be opened for writing: start the table again; "
                "if this stays, check its owner and the card; the saved games are untouched",
                Fault.NOT_WRITABLE)
        return self.fault_of(reason, error)

    def fault_of(self, code: int, error: object = None) -> StateDirectoryError:
        """A fault in one line: what it is, that nothing was moved, and what to do."""
        where = self.directory
        if code == errno.ENOSPC:
            return StateDirectoryError(
                f"the disk holding {where} is full: free some space (sudo apt clean, or "
                "delete files); the saved games are untouched",
                Fault.DISK_FULL)
        if code == errno.EROFS:
            return StateDirectoryError(
                f"{where} is on a read-only file system: remount it read-write (or give "
                "--state-dir a writable folder); the saved games are untouched", Fault.READ_ONLY)
        if code in (errno.EACCES, errno.EPERM):
            return StateDirectoryError(self.permission_problem() or (
                f"{where}: permission denied: sudo chown -R {user()}: {where}"), Fault.PERMISSIONS)
        if code == errno.ENOLCK:
            return StateDirectoryError(
                f"cannot lock {where}: its file system has no locks; give --state-dir a "
                "folder on the SD card", Fault.NO_LOCKS)
        detail = f" ({quote(str(error), 60)})" if error is not None else ""
        return StateDirectoryError(
            f"cannot read or write {self.database}: input/output error{detail}; the SD card "
            "may be failing: copy the folder elsewhere (robinson export --database), then "
            "check the card; the saved games are untouched", Fault.IO_ERROR)

    def permission_problem(self) -> str | None:
        """Whether this user may read and write the folder and the database's files."""
        me = user()
        for path, access in [(self.directory, os.W_OK | os.X_OK),
                             *[(self.database.with_name(DATABASE + s), os.R_OK | os.W_OK)
                               for s in ("", *SIDE_FILES)]]:
            if (path == self.directory or path.exists()) and not os.access(path, access):
                what = "written" if path == self.directory else "read and written"
                return (f"{path} may not be {what} by the user {me} (its owner: "
                        f"{owner(path)}): permissions, not damage; sudo chown -R {me}: "
                        f"{self.directory}")
        return None

    def check_damaged(self) -> None:
        if self.damaged_dir.is_symlink() or (self.damaged_dir.exists()
                                              and not self.damaged_dir.is_dir()):
            raise StateDirectoryError(
                f"{self.damaged_dir} is not a folder: the table keeps what it sets aside "
                "there; move that file away, then start the table again", Fault.NOT_A_FOLDER)

    def make(self) -> None:
        if self.directory.is_symlink() and not self.directory.exists():
            raise StateDirectoryError(
                f"{self.directory} is a symbolic link to {os.readlink(self.directory)}, "
                "which does not exist: make that folder, or give --state-dir a folder",
                Fault.of_errno(errno.ENOENT))
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as error:
            raise StateDirectoryError(f"cannot use {self.directory} for the saved games "
                                      f"({error.strerror}): give --state-dir a folder the "
                                      "table may write", Fault.of_errno(error.errno)) from None

    def lock(self) -> None:
        """Claim the state directory for this process's life: one table per directory.

        A second table on the same directory (someone runs ``robinson table`` while
        the service runs) would interleave saves with the first; it stops instead,
        with one line naming the directory and the table that holds it.
        """
        self.make()
        try:
            descriptor = os.open(self.directory / LOCK_FILE,
                                 os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as error:
            if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                self._refuse(error.errno)  # readable still: the game plays on, unsaved
                return
            if error.errno == errno.ELOOP:  # O_NOFOLLOW: someone's link, never followed
                raise StateDirectoryError(
                    f"{self.directory / LOCK_FILE} is a symbolic link, which the table never "
                    "follows: remove it (the table makes its own)",
                    Fault.of_errno(error.errno)) from None
            raise StateDirectoryError(f"cannot use {self.directory} for the saved games "
                                      f"({error.strerror}): give --state-dir a folder the "
                                      "table may write", Fault.of_errno(error.errno)) from None
        if not self._hold(descriptor):
            raise self.fault_of(errno.ENOLCK)
        try:
            os.ftruncate(descriptor, 0)
            os.write(descriptor, f"{os.getpid()}\n".encode())
        except OSError as error:
            os.close(descriptor)
            raise self.fault_of(error.errno or errno.EIO, error.strerror) from None
        self._lock = descriptor  # held, not closed: the lock lasts as long as the process

    def _refuse(self, code: int) -> None:
        """The lock cannot be written (a read-only folder, or a lock file another user
        made: ``sudo robinson names`` on a folder that had none): held for reading if it
        can be, so a second table still stops at it, and nothing is written here."""
        lock = self.directory / LOCK_FILE
        try:
            os.listdir(self.directory)
        except OSError:  # not even readable: nothing to play on with
            raise self.fault_of(code) from None
        self.refused = self.fault_of(code)
        if code != errno.EROFS and os.path.lexists(lock) and owner(lock) != user():
            self.refused = StateDirectoryError(
                f"{lock} belongs to {owner(lock)}, not to the user {user()}: nothing is "
                f"saved while it does; sudo chown -R {user()}: {self.directory}",
                Fault.PERMISSIONS)
        try:
            descriptor = os.open(lock, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return  # none to hold: no table can write here either
        if self._hold(descriptor):  # without locks here, none can be held: unsaved anyway
            self._lock = descriptor

    def _hold(self, descriptor: int) -> bool:
        """The lock file open at ``descriptor`` locked for this process: True; False (and
        closed) if its file system has no locks; TableRunning, in one line naming the
        table's pid, if another table holds it."""
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):  # no locks there at all
                os.close(descriptor)
                return False
            holder = os.read(descriptor, 32).decode("ascii", "replace").strip() or "?"
            os.close(descriptor)
            raise TableRunning(
                f"another table is running on {self.directory} (pid {holder}): stop it "
                "first (sudo systemctl stop robinson-table), or give --state-dir") from None
        return True

    def relock(self) -> None:
        """The lock again if its file was removed under the running table: the folder
        was made anew, and the next table must find this one's lock in it."""
        if self._lock is not None and identity(self.directory / LOCK_FILE) is None:
            os.close(self._lock)
            self._lock = None
            self.lock()

    def unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def make_damaged(self) -> None:
        self.check_damaged()
        self.damaged_dir.mkdir(mode=0o700, exist_ok=True)

    def open_read_only(self) -> sqlite3.Connection:
        """Read-only: no file made, none moved. Without a -wal or -shm beside it no table
        has it open, and it is opened immutable (SQLite would make a -shm, which a full
        disk or another user's file would refuse); with them, a table may be writing
        (its -wal is empty between saves, each commit checkpointed at once): read through
        them, or immutable if that is refused (a full disk, another user's -shm).
        Only a database of ours, in our schema, is read (SaveError otherwise)."""
        if not self.database.exists() or odd(self.database):
            raise Absent
        beside = any(self.database.with_name(DATABASE + s).exists() for s in ("-wal", "-shm"))
        modes = ["mode=ro", "mode=ro&immutable=1"] if beside else ["mode=ro&immutable=1"]
        for mode in modes:
            try:
                db = connect(f"file:{uri_path(self.database)}?{mode}")
            except sqlite3.Error as error:
                if mode != modes[-1]:
                    continue
                if not os.access(self.database, os.R_OK):
                    raise SaveError(self.unreadable(
                        PermissionError(errno.EACCES, "denied"), self.database)) from None
                raise SaveError(f"cannot open {self.database} ({quote(str(error), 60)})"
                                ) from None
            try:
                found = identify(db)
                break
            except sqlite3.Error as error:
                db.close()
                if mode != modes[-1] and is_fault(error):
                    continue
                raise SaveError(f"{DATABASE} cannot be read ({quote(str(error), 60)}): "
                                "start the table to recover what it can") from None
        why = None
        if found.kind is Kind.EMPTY:  # ours before its first commit (or all of it lost):
            db.close()  # nothing to read, as without one
            raise Absent
        if found.kind is Kind.FOREIGN:
            why = f"{DATABASE} is not a Robinson Table database"
        elif found.kind is Kind.NEWER:
            why = newer(self.database, found.version)
        elif found.kind is Kind.UNLIKE:
            why = (f"{DATABASE} is damaged (its tables are not ours: {unlike(found.schema)}): "
                   "start the table to set it aside and recover the games")
        if why:
            db.close()
            raise SaveError(why)
        return db

    def write_out(self, name: str, text: str) -> str:
        """``text`` as damaged/``name`` (a link planted there is not followed: replaced),
        on the disk before this returns; its name."""
        self.make_damaged()
        path = self.damaged_dir / name
        if odd(path):
            path.unlink()
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
                             | os.O_CLOEXEC, 0o600)
        try:
            os.write(descriptor, text.encode("utf-8"))
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        fsync_dir(self.damaged_dir)
        return name

    def _number(self) -> int:
        """The next number free in damaged/ (each setting aside takes one)."""
        return 1 + max((int(n) for p in self.damaged_dir.iterdir()
                        if (n := p.name.rpartition(".")[2]).isdigit() and len(n) < 9),
                       default=0)

    def keep(self, *paths: Path) -> str:
        """Copies of ``paths`` (those there) in damaged/, on the disk before this returns,
        the files left where they are; their names there, said."""
        self.make_damaged()
        number, kept = self._number(), []
        for path in paths:
            if not path.exists() or odd(path):
                continue
            aside = self.damaged_dir / f"{path.name}.{number}"
            shutil.copyfile(path, aside, follow_symlinks=False)
            os.chmod(aside, 0o600)
            fsync_file(aside)
            kept.append(aside.name)
        fsync_dir(self.damaged_dir)
        return " and ".join(kept) or "nothing (no file was there)"

    def set_aside(self, path: Path, why: str, keep: bool = False) -> str:
        """Move a file (with SQLite's side files, if it is the database) into damaged/;
        ``keep``: the database itself is linked there, to be replaced in one step. Its
        name there."""
        self.make_damaged()
        number = self._number()
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
            else:
                continue
            if not aside.is_symlink():  # private, whoever made it and whatever the umask
                os.chmod(aside, 0o600)  # (a copy put in place by hand was 0644)
        fsync_dir(self.damaged_dir)
        fsync_dir(self.directory)
        self.problems.append(f"{path.name}: {why} (kept in damaged/ as {path.name}.{number})")
        return f"{path.name}.{number}"

    def why(self, error: sqlite3.Error) -> int:
        """The OS's reason (an errno) behind an SQLite error, as far as it can be told."""
        code = primary(error)
        try:  # touching the folder asks the filesystem itself (an ext4 gone read-only
            os.utime(self.directory)  # after an error shows it nowhere else)
        except OSError as refused:
            if refused.errno in (errno.EROFS, errno.ENOSPC, errno.EIO):
                return refused.errno
        with contextlib.suppress(OSError):
            disk = os.statvfs(self.directory)
            if disk.f_flag & os.ST_RDONLY:
                return errno.EROFS
            if code == sqlite3.SQLITE_FULL or disk.f_bavail == 0:
                return errno.ENOSPC
        if code == sqlite3.SQLITE_READONLY:
            return errno.EROFS
        return errno.EIO

    def unreadable(self, error: OSError, path: Path | None = None) -> str:
        """Why a reader could not read the folder (or ``path``), and what to do: the
        service's folder is its user's (0750): ``robinson state`` without sudo."""
        path = path or self.directory
        if error.errno in (errno.EACCES, errno.EPERM):
            return (f"{path} may not be read by the user {user()} (its owner: "
                    f"{owner(path)}): use sudo")
        return f"{path}: {error.strerror or error}"


def fsync_file(path: Path) -> None:
    """Make the bytes of the file at ``path`` (not through a link) last a power cut."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def fsync_dir(directory: Path) -> None:
    """Make the names in ``directory`` (a rename, a new file) last a power cut."""
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


SQLITE_MAGIC = b"SQLite format 3\x00"


def sqlite_header(path: Path) -> bool:
    """Absent, empty, or beginning as an SQLite database does."""
    try:
        with open(path, "rb") as file:
            start = file.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        return True
    return start in (b"", SQLITE_MAGIC)


def holds_frames(database: Path) -> bool:
    """Whether the database's -wal holds anything (commits not yet in the file)."""
    try:
        return os.stat(database.with_name(database.name + "-wal")).st_size > 0
    except OSError:
        return False


def identity(path: Path) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def create_private(path: Path) -> None:
    """An empty file, made by us before SQLite opens it: private whatever the umask
    (SQLite gives its -wal and -shm the database's mode), and no planted link followed."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600))


def odd(path: Path) -> bool:
    """Something is there, and it is not a plain file (a folder, a link, a FIFO...)."""
    try:
        return not stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return False


def uri_path(path: Path) -> str:
    return urllib.parse.quote(str(path.absolute()))


def read_only_mount(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def user() -> str:
    return owner_name(os.geteuid())


def owner(path: Path) -> str:
    try:
        return owner_name(os.stat(path).st_uid)
    except OSError:
        return "?"


def owner_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def newer(database: Path, version: int) -> str:
    return (f"{database} was made by a newer version of Robinson Table (schema {version}; "
            f"this one reads {SCHEMA_VERSION}): update the software; the file is left as "
            "it is")
