"""What can keep the saves from the disk, by kind: the store says the kind, each
language's words name it (``fault_<kind>``), and the journal has the whole line.

>>> Fault.of_errno(28), SaveFailed(Fault.DISK_FULL).strerror
(<Fault.DISK_FULL: 'disk full'>, 'disk full')
"""

from __future__ import annotations

import enum
import errno

from firmware.errors import TableError


class Fault(enum.StrEnum):
    """A fault outside the saved games: they are untouched, only not reachable now."""

    DISK_FULL = "disk full"
    READ_ONLY = "read-only"
    PERMISSIONS = "permissions"
    NO_LOCKS = "no locks"
    LOCKED = "locked"  # another program holds the database
    NOT_WRITABLE = "not writable"  # opened for reading only, though the disk is writable
    IO_ERROR = "I/O error"
    NEWER = "newer version"
    CANNOT_START = "cannot start"  # no new database could be made
    NOT_A_FOLDER = "not a folder"  # the state folder, or damaged/ in it, is a file

    @property
    def key(self) -> str:
        """The text key each language names it by."""
        return "fault_" + self.name.lower()

    @property
    def errno(self) -> int:
        """An OS error's number of this kind (EIO for a kind no OS error has)."""
        return next((n for n, kind in _BY_ERRNO.items() if kind is self), errno.EIO)

    @classmethod
    def of_errno(cls, code: int | None) -> Fault:
        """The kind of an OS error's number."""
        return _BY_ERRNO.get(code or errno.EIO, cls.IO_ERROR)


_BY_ERRNO = {errno.ENOSPC: Fault.DISK_FULL, errno.EDQUOT: Fault.DISK_FULL,
             errno.EROFS: Fault.READ_ONLY, errno.EACCES: Fault.PERMISSIONS,
             errno.EPERM: Fault.PERMISSIONS, errno.ENOLCK: Fault.NO_LOCKS,
             errno.EIO: Fault.IO_ERROR, errno.ENOTDIR: Fault.NOT_A_FOLDER,
             errno.EEXIST: Fault.NOT_A_FOLDER}


class StateDirectoryError(TableError):
    """The state directory cannot be used: another table holds it, it cannot be made, or
    a fault outside the file (a full disk, an I/O error, permissions, no locks) keeps
    the database from being opened. Never a reason to set the database aside.

    ``kind`` names the fault, for the panel in its language; the message is the line
    for the journal and the command line: what is wrong, and what to do."""

    def __init__(self, line: str, kind: Fault = Fault.CANNOT_START) -> None:
        super().__init__(line)
        self.kind = kind


class TableRunning(StateDirectoryError):
    """Another table holds the state directory (its lock). Exit status 3: a command that
    holds it ends, and the unit's next try finds the folder free."""

    status = 3


class SaveFailed(OSError):
    """The database would not take the write: ``kind`` says why (``strerror`` too, as the
    OS would, for those who only know OSError)."""

    def __init__(self, kind: Fault) -> None:
        super().__init__(kind.errno, str(kind))
        self.kind = kind


def kind_of(error: OSError) -> Fault:
    """The kind of a failed write: the store's own, or the OS error's."""
    return error.kind if isinstance(error, SaveFailed) else Fault.of_errno(error.errno)
