"""Saved games on disk: written atomically before they are shown, read back with care.

Layout of the state directory::

    game.txt        the game in progress (robinson_core's text form, with a checksum)
    game.prev.txt   the same game one save earlier: the fallback if game.txt is damaged
    archive/        finished (and abandoned) games, the newest kept
    damaged/        files that could not be read, set aside for a person to look at
    prefs.txt       language and brightness chosen from the menu
    table.lock      held (flock) by the one table running on this directory, with its pid
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import os
import time
from dataclasses import dataclass
from pathlib import Path

from firmware.errors import TableError
from robinson_core import Game, SaveError


class StateDirectoryError(TableError):
    """The state directory cannot be used: another table holds it, or it cannot be made."""

KEEP_ARCHIVED = 20
LOCK_FILE = "table.lock"
MAX_SAVE_BYTES = 1_000_000  # 100,000 actions is about 600 KB
PREF_KEYS = ("language", "contrast")
SYSTEM_STATE_DIR = Path("/var/lib/robinson-table")
STAMP = "%Y%m%d-%H%M%S"  # how an archived game's file name begins


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
    """A game put away, and when: the clock's time, a label only."""

    game: Game
    finished_at: datetime.datetime


@dataclass(frozen=True)
class Loaded:
    """What was found at start: a game (or None), and what went wrong on the way, if anything."""

    game: Game | None
    problem: str | None = None


class Store:
    """The state directory: the game in progress, games put away, and preferences."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.current = self.directory / "game.txt"
        self.previous = self.directory / "game.prev.txt"
        self.archive_dir = self.directory / "archive"
        self.damaged_dir = self.directory / "damaged"
        self.prefs_file = self.directory / "prefs.txt"
        self._lock: int | None = None

    # -- writing ------------------------------------------------------------------

    def save(self, game: Game) -> None:
        """Make ``game`` the saved game; returns only once it is on disk (raises OSError).

        The save it replaces becomes game.prev.txt by a rename, not a second write: one
        fsync'd file per action. A crash between the two renames leaves game.prev.txt
        (the save before) and the new one unrevealed: it was never shown."""
        self.directory.mkdir(parents=True, exist_ok=True)
        temporary = self.current.with_name(self.current.name + ".tmp")
        for path in (temporary, self.current, self.previous):
            if path.is_dir() and not path.is_symlink():  # a folder where a save belongs
                self._set_aside(path)
        _write_synced(temporary, game.save())
        if self.current.exists():
            os.replace(self.current, self.previous)
        os.replace(temporary, self.current)
        _fsync_dir(self.directory)

    def archive(self, game: Game) -> None:
        """Keep a finished or abandoned game for recall, and forget it as the current one."""
        if game.actions:
            self.archive_dir.mkdir(parents=True, exist_ok=True)
            stamp = time.strftime(STAMP)
            number = len(list(self.archive_dir.glob("*.txt")))
            write_atomically(self.archive_dir / f"{stamp}-{number:05d}.txt", game.save())
            for old in sorted(self.archive_dir.glob("*.txt"))[:-KEEP_ARCHIVED]:
                old.unlink(missing_ok=True)
        for path in (self.current, self.previous):
            path.unlink(missing_ok=True)
        _fsync_dir(self.directory)

    # -- reading ------------------------------------------------------------------

    def load(self, repair: bool = True) -> Loaded:
        """The saved game; a damaged file is set aside and the one before it used.

        ``repair=False`` (``robinson state``, which may run beside the table) reads
        only: nothing is set aside or written, whatever is found.
        """
        problems: list[str] = []
        for path in (self.current, self.previous):
            try:
                text = _read_bounded(path)
            except FileNotFoundError:
                continue
            except (OSError, UnicodeDecodeError, SaveError) as error:
                problems.append(f"{path.name}: {getattr(error, 'strerror', None) or error}")
                if repair:
                    self._set_aside(path)
                continue
            try:
                game = Game.load(text)
            except SaveError as error:
                problems.append(f"{path.name}: {error}")
                if repair:
                    self._set_aside(path)
                continue
            if path == self.previous and repair:
                with contextlib.suppress(OSError):
                    write_atomically(self.current, text)
            return Loaded(game, "; ".join(problems) or None)
        return Loaded(None, "; ".join(problems) or None)

    def finished(self, count: int = 10) -> list[Finished]:
        """The newest games put away, newest first."""
        games: list[Finished] = []
        if not self.archive_dir.is_dir():
            return games
        for path in sorted(self.archive_dir.glob("*.txt"), reverse=True):
            try:
                when = datetime.datetime.strptime(path.stem[:15], STAMP)
                games.append(Finished(Game.load(path.read_text(encoding="utf-8")), when))
            except (OSError, UnicodeDecodeError, SaveError, ValueError):
                continue
            if len(games) == count:
                break
        return games

    def prefs(self) -> dict[str, str]:
        try:
            lines = self.prefs_file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return {}
        pairs = (line.partition("=") for line in lines)
        return {k.strip(): v.strip() for k, sep, v in pairs if sep and k.strip() in PREF_KEYS}

    def lock(self) -> None:
        """Claim the state directory for this process's life: one table per directory.

        A second table on the same directory (someone runs ``robinson table`` while
        the service runs) would interleave saves with the first; it stops instead,
        with one line naming the directory and the table that holds it.
        """
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
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

    def save_prefs(self, prefs: dict[str, str]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        write_atomically(self.prefs_file, "".join(f"{k}={v}\n" for k, v in prefs.items()))

    def _set_aside(self, path: Path) -> None:
        with contextlib.suppress(OSError):
            self.damaged_dir.mkdir(parents=True, exist_ok=True)
            path.replace(self.damaged_dir / f"{path.name}.{time.strftime('%Y%m%d-%H%M%S')}")


def write_atomically(path: Path, text: str) -> None:
    """Write, fsync, rename over, fsync the directory: the file is whole, old or new."""
    temporary = path.with_name(path.name + ".tmp")
    _write_synced(temporary, text)
    os.replace(temporary, path)
    _fsync_dir(path.parent)


def _read_bounded(path: Path) -> str:
    """A save's text, refused unread past MAX_SAVE_BYTES (a 100 MB file is not a game)."""
    with open(path, "rb") as file:
        data = file.read(MAX_SAVE_BYTES + 1)
    if len(data) > MAX_SAVE_BYTES:
        raise SaveError(f"larger than {MAX_SAVE_BYTES // 1_000_000} MB: no game is that long")
    return data.decode("utf-8")


def _write_synced(path: Path, text: str) -> None:
    """Write and fsync, mode 0600 whatever the umask, never through a planted symlink."""
    with contextlib.suppress(FileNotFoundError, IsADirectoryError):
        path.unlink()  # a stale temporary, or a link someone left in its place
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o600)
    with open(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())


def _fsync_dir(directory: Path) -> None:
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
