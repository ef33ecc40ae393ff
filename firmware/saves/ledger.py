"""The banker's ledger: what the last save left in the database, written down outside it,
so that a database found behind it is said, never played on in silence.

Why a file of our own beside SQLite's: SQLite reads its write-ahead log (``-wal``) up to
the first frame whose checksum fails and silently drops the rest (one flipped bit rolls
the database back), and nothing in ``robinson.db`` names its ``-wal`` (another
database's, or a crashed session's after a restore, is applied without a word). The
store therefore

- seals every write: the transaction sets a new random ``seal`` in the database's
  ``meta`` table, and ``sealed_after`` to the seal it replaced (``rows.SEAL``);
- checkpoints after every commit, so at rest the ``-wal`` is empty and the main file
  holds every commit (a flipped bit can cost at most the one transaction a crash left
  in the log);
- then writes here the seal, the main file's own seal (``base``: the seal of the last
  commit a checkpoint carried into the main file), what the database then held, and the
  ``-wal``'s own mark when a reader's snapshot kept it from being emptied (``wal``: its
  header's checkpoint sequence and salts, which SQLite draws anew each time it starts
  the log over, so no other database's log, nor an older one of ours, bears them).

At opening, the database (with its ``-wal``) must be at the ledger's seal or one commit
past it (a cut between the commit and this file's write: that commit was never shown),
and a non-empty ``-wal`` is applied only over the main file it was written over (the
main file alone at the ledger's ``base``, or already past it), and only if it is ours:
its commits reach the ledger's seal, or it bears the ledger's mark. A ``-wal`` of ours
that a flipped bit or a tear damaged keeps, as SQLite reads it, every commit before the
damage: the game in play comes back shortened, said, never lost whole. ``audit`` says
what was found; the store sets a stranger's ``-wal`` (or one of ours that makes the
main file unreadable) aside and keeps copies of a database found behind before
anything may checkpoint it.

The file is two fixed slots written in turn, each with its own checksum, so a write
torn by a power cut leaves the other slot whole: one ``pwrite`` and one ``fdatasync``
a save, never a rename.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path

from firmware.saves.folder import Folder, uri_path
from firmware.saves.rows import DATABASE, Standing, connect, our_schema, schema_of, standing

LEDGER = "robinson.ledger"
SLOT = 256  # bytes: a slot's checksum, its JSON, padded with spaces
_DIGEST = 16  # hex characters of sha256 before each slot's JSON


@dataclass(frozen=True)
class Entry:
    """One save, as the ledger has it: the database's seal after it, the main file's
    seal (the last commit a checkpoint carried there), and what the database held."""

    serial: int
    seal: str
    base: str
    games: int  # finished games kept (damaged ones not counted)
    row: int  # the game in play's row (0: none)
    actions: int  # its actions
    top: int = 0  # the newest finished game's row
    kept: str = ""  # rows.kept_digest of the finished games ("": an older ledger's entry)
    wal: str = ""  # the -wal's mark (wal_mark) after the save ("": it was emptied)

    @classmethod
    def of(cls, serial: int, found: Standing, base: str, kept: str = "",
           wal: str = "") -> Entry:
        return cls(serial, found.seal, base, found.games, found.row, found.actions,
                   found.top, kept, wal)

    def slot(self) -> bytes:
        body = json.dumps(asdict(self), separators=(",", ":")).encode("ascii")
        text = hashlib.sha256(body).hexdigest()[:_DIGEST].encode("ascii") + body
        if len(text) > SLOT - 1:
            raise ValueError("a ledger entry longer than its slot")
        return text.ljust(SLOT - 1) + b"\n"

    @classmethod
    def read(cls, slot: bytes) -> Entry | None:
        """The entry in ``slot``, or None if it is torn, flipped or not one."""
        text = slot.rstrip(b" \n\x00")
        body = text[_DIGEST:]
        if hashlib.sha256(body).hexdigest()[:_DIGEST].encode("ascii") != text[:_DIGEST]:
            return None
        try:
            fields = json.loads(body)
            entry = cls(**fields)
        except (ValueError, TypeError):
            return None
        if not all(isinstance(getattr(entry, n), int) for n in ("serial", "games", "row",
                                                                "actions", "top")) \
                or not all(isinstance(getattr(entry, n), str) for n in ("seal", "base",
                                                                        "kept", "wal")):
            return None
        return entry

    def behind(self, found: Standing) -> str | None:
        """What ``found`` lacks of this entry, in words, or None if it lacks nothing."""
        said = []
        if self.games > found.games:
            lost = self.games - found.games
            said.append(f"{lost} finished game{'s' if lost > 1 else ''}")
        if self.row and found.row != self.row:
            said.append("the game in play")
        elif self.row and found.actions < self.actions:
            said.append(f"{last_actions(self.actions - found.actions)} of the game in play")
        return " and ".join(said) if said else None


def last_actions(count: int) -> str:
    """``count`` actions lost from a game's end, in words: "the last action", "the last 3
    actions"."""
    return "the last action" if count == 1 else f"the last {count} actions"


class Ledger:
    """The ledger file of one state folder, opened without following a link."""

    def __init__(self, directory: Path) -> None:
        self.path = Path(directory) / LEDGER
        self._fd: int | None = None
        self.last: Entry | None = None  # the newest entry read or written

    def read(self) -> Entry | None:
        """The newest whole entry, or None (no ledger yet, or both slots unreadable)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            data = os.read(fd, 2 * SLOT)
        except OSError:
            return None
        finally:
            os.close(fd)
        entries = [e for i in (0, 1) if (e := Entry.read(data[i * SLOT:(i + 1) * SLOT]))]
        self.last = max(entries, key=lambda e: e.serial, default=None)
        return self.last

    def write(self, found: Standing, base: str, kept: str = "") -> None:
        """Write down a save (raises OSError): the slot the newest entry is not in, with
        the mark of the -wal the save left."""
        serial = (self.last.serial if self.last else 0) + 1
        entry = Entry.of(serial, found, base, kept, wal_mark(self.path.with_name(DATABASE)))
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                               0o600)
        os.pwrite(self._fd, entry.slot(), (serial % 2) * SLOT)
        os.fdatasync(self._fd)
        self.last = entry

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


@dataclass(frozen=True)
class Audit:
    """What opening found against the ledger: a ``-wal`` that was not written over this
    main file (``foreign``: never to be applied), and what the database lacks of the
    last save written down (``behind``), in words."""

    foreign: bool = False
    behind: str | None = None
    damaged: bool = False  # the -wal set aside is ours, but makes the database unreadable


def audit(folder: Folder, ledger: Ledger) -> Audit:
    """The database read against the ledger before anything may checkpoint it: a
    ``-wal`` written over another main file is set aside, never applied; a database
    behind the last save written down is said (``folder.problems``), and copied into
    damaged/ first. What was found."""
    database = folder.database
    wal = database.with_name(database.name + "-wal")
    found = examine(database, ledger.read())
    if found.behind:
        kept = folder.keep(database, wal)
        folder.problems.append(f"{database.name} is behind what was last saved "
                               f"({found.behind} missing); the files as found are kept in "
                               f"damaged/ as {kept}")
    if found.foreign:
        folder.set_aside(wal, "a -wal of this database's, damaged: never applied"
                         if found.damaged else
                         "a -wal that was not written over this database: never applied")
        with contextlib.suppress(FileNotFoundError):
            database.with_name(database.name + "-shm").unlink()
    return found


def examine(database: Path, entry: Entry | None) -> Audit:
    """The database and its ``-wal`` read against ``entry``, through read-only
    connections only (none of them may checkpoint or write)."""
    if entry is None:
        return Audit()
    if not database.exists():  # removed, or lost with its folder's entry
        return Audit(behind=entry.behind(Standing("", "", 0, 0, 0)))
    wal = database.with_name(database.name + "-wal")
    try:
        frames = wal.stat().st_size > 0
    except OSError:
        frames = False
    main = _standing(database, immutable=True)  # the main file alone: no -wal read
    if not frames:
        return _against(entry, main)
    if main is None:  # the main file alone cannot be read: the -wal is all there is
        return _against(entry, _standing(database, immutable=False))
    logged = _standing(database, immutable=False)  # with the -wal's commits
    follows = logged is not None and (_at(entry, logged)
                                      or main.seal in (logged.seal, logged.sealed_after))
    if _at(entry, main):  # the main file holds the last save: the -wal only what followed
        ours = follows
    elif main.seal == entry.base:  # the saves since the base only in the -wal (a reader
        # kept it): it bears the ledger's mark, or its commits reach the ledger's seal
        ours = (bool(entry.wal) and wal_mark(database) == entry.wal) or follows
    else:  # a main file the ledger never knew (a copy put back after a crash)
        ours = False
    if ours and logged is not None:  # whole, or cut short by damage (said if behind)
        return _against(entry, logged)
    # Another database's, or written over another main file, or ours but making the main
    # file unreadable (what SQLite applies of a stranger's -wal mixes its pages into
    # ours; a frame of ours that a bit or a tear damaged, SQLite drops by its checksum):
    # never applied; the main file alone is the database.
    return Audit(foreign=True, behind=_against(entry, main).behind, damaged=ours)


def wal_mark(database: Path) -> str:
    """The mark of ``database``'s -wal: its header's checkpoint sequence and two salts, in
    hex ("": no -wal, or an empty one, or one cut inside its header)."""
    try:
        fd = os.open(database.with_name(database.name + "-wal"),
                     os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return ""
    try:
        header = os.pread(fd, 12, 12)
    except OSError:
        return ""
    finally:
        os.close(fd)
    return header.hex() if len(header) == 12 else ""


def _against(entry: Entry, found: Standing | None) -> Audit:
    if found is None:  # not readable as ours: the store's own checks will say why
        return Audit()
    if _at(entry, found):
        return Audit(behind=entry.behind(found) if found.seal == entry.seal else None)
    return Audit(behind=entry.behind(found) or "the last save")


def _at(entry: Entry, found: Standing) -> bool:
    """At the entry's save, or one commit past it (a cut before the ledger's write)."""
    return found.seal == entry.seal or found.sealed_after == entry.seal


def _standing(database: Path, immutable: bool) -> Standing | None:
    mode = "mode=ro&immutable=1" if immutable else "mode=ro"
    try:
        db = connect(f"file:{uri_path(database)}?{mode}")
    except sqlite3.Error:
        return None
    try:
        # Only a schema of ours is queried: a view, a trigger or a virtual table planted
        # under one of our names would run as the query did (a recursive view: for
        # ever, deaf to SIGTERM). Any other is the store's own checks' to say.
        return standing(db) if schema_of(db) == our_schema() else None
    except sqlite3.Error:
        return None
    finally:
        db.close()
