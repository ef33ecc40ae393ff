"""The text files versions before the database kept, read once and moved into imported/.

Those versions wrote ``game.txt`` (the game in play), ``game.prev.txt`` (the save
before it), ``archive/<stamp>-<n>.txt`` (games put away) and ``prefs.txt``. The store
imports them in one transaction and then moves them aside: nothing is deleted.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from robinson_core import Game, SaveError

MAX_SAVE_BYTES = 1_000_000  # 100,000 actions is about 600 KB
NAMES = ("game.txt", "game.prev.txt", "game.txt.tmp", "archive", "prefs.txt",
         "prefs.txt.tmp")
STAMP = "%Y%m%d-%H%M%S"  # how an archived game's file name began


@dataclass(frozen=True)
class PutAway:
    """A game the old files kept in archive/, with the time its file name carried."""

    game: Game
    finished_at: datetime.datetime


@dataclass
class Old:
    """What the old files held: the game in play, games put away (oldest first), and
    every key=value of prefs.txt (the store keeps the keys it knows)."""

    game: Game | None = None
    finished: list[PutAway] = field(default_factory=list)
    prefs: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def found(directory: Path) -> list[Path]:
    """The old files present in ``directory``."""
    return [directory / name for name in NAMES
            if (directory / name).exists() or (directory / name).is_symlink()]


def read(directory: Path) -> Old:
    """Read the old files, never writing; a damaged one is a problem, not an error."""
    old = Old()
    for name in ("game.txt", "game.prev.txt"):  # the newer first, the one before as fallback
        try:
            old.game = Game.load(read_bounded(directory / name))
            break
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError, SaveError) as error:
            old.problems.append(f"{name}: {getattr(error, 'strerror', None) or error}")
    archive = directory / "archive"
    if archive.is_dir() and not archive.is_symlink():
        for path in sorted(archive.glob("*.txt")):  # by name: the order they were written
            try:
                when = datetime.datetime.strptime(path.stem[:15], STAMP)
                old.finished.append(PutAway(Game.load(read_bounded(path)), when))
            except (OSError, UnicodeDecodeError, SaveError, ValueError) as error:
                old.problems.append(f"archive/{path.name}: {error}")
    with contextlib.suppress(OSError, UnicodeDecodeError, SaveError):
        lines = read_bounded(directory / "prefs.txt").splitlines()
        pairs = (line.partition("=") for line in lines)
        old.prefs = {k.strip(): v.strip() for k, sep, v in pairs if sep}
    return old


def read_bounded(path: Path) -> str:
    """A saved game's text, refused unread past MAX_SAVE_BYTES; never through a link."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # a FIFO would hang the table
        os.close(descriptor)
        raise SaveError("not a file")
    with open(descriptor, "rb") as file:
        data = file.read(MAX_SAVE_BYTES + 1)
    if len(data) > MAX_SAVE_BYTES:
        raise SaveError(f"larger than {MAX_SAVE_BYTES // 1_000_000} MB: no game is that long")
    return data.decode("utf-8")


def move_aside(paths: list[Path], target: Path) -> None:
    """Move the old files into ``target`` (made 0700), keeping their names."""
    target.mkdir(mode=0o700, exist_ok=True)
    for path in paths:
        destination = target / path.name
        number = 1
        while destination.exists() or destination.is_symlink():
            destination = target / f"{path.name}.{number}"
            number += 1
        path.replace(destination)
    fsync_dir(target.parent)


def fsync_dir(directory: Path) -> None:
    """Make the names in ``directory`` (a rename, a new file) last a power cut."""
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
