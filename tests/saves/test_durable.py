"""What the saves write lasts a power cut, and no file of the state folder stays open.

A power cut keeps only what was fsynced: a new file's bytes before it is renamed in (else
the rename can reach the disk before the bytes: an empty file under the right name), and
the folder after (else the rename itself is lost). The power-loss campaigns cannot show a
missing fsync (a killed process still has the kernel's page cache), so the order is
watched here: every fsync and rename the saves make, in order, each fsync named by the
path its descriptor had (``/proc/self/fd``).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from firmware.saves import restore as restoring
from firmware.saves.folder import Folder
from firmware.saves.ledger import LEDGER
from firmware.saves.rows import APPLICATION_ID
from firmware.saves.spare import SPARE
from firmware.saves.store import Store
from robinson_core import SaveError

from .test_ledger import BEGUN, SHOWN, games_store
from .test_store_faults import WON


@dataclass
class Disk:
    """The fsyncs and renames made, in order: ("fsync", path, "") or ("rename", from, to)."""

    events: list[tuple[str, str, str]] = field(default_factory=list)

    def durable(self, fresh: Path, final: Path) -> bool:
        """``fresh`` fsynced, then renamed to ``final``, then at once (before the file
        is used: a rename lost to a cut after it is used loses what followed)
        ``final``'s folder fsynced."""
        try:
            renamed = self.events.index(("rename", str(fresh), str(final)))
        except ValueError:
            return False
        return (("fsync", str(fresh), "") in self.events[:renamed]
                and self.events[renamed + 1:renamed + 2] == [("fsync", str(final.parent), "")])

    def synced(self, path: Path) -> int:
        return self.events.count(("fsync", str(path), ""))


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Disk:
    watched = Disk()

    def syncing(real: Callable[[int], None]) -> Callable[[int], None]:
        def sync(descriptor: int) -> None:
            watched.events.append(("fsync", os.readlink(f"/proc/self/fd/{descriptor}"), ""))
            real(descriptor)
        return sync

    def renaming(real: Callable[..., None]) -> Callable[..., None]:
        def rename(source: object, target: object, *args: object, **kwargs: object) -> None:
            watched.events.append(("rename", str(source), str(target)))
            real(source, target, *args, **kwargs)
        return rename

    monkeypatch.setattr(os, "fsync", syncing(os.fsync))
    monkeypatch.setattr(os, "fdatasync", syncing(os.fdatasync))
    monkeypatch.setattr(os, "replace", renaming(os.replace))
    monkeypatch.setattr(os, "rename", renaming(os.rename))
    return watched


def open_files(under: Path) -> list[str]:
    """The files under ``under`` this process has open."""
    found = []
    for descriptor in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{descriptor}")
        except OSError:  # the listing's own descriptor, closed since
            continue
        if target.startswith(str(under) + os.sep):
            found.append(target)
    return sorted(found)


def made(tmp_path: Path, finished: int = 3) -> Path:
    """A state folder with ``finished`` games put away and a copy of it (copy.db)."""
    store = games_store(tmp_path / "state", finished=finished)
    store.backup(tmp_path / "copy.db")
    store.save(WON)
    store.put_away(WON, None)
    store.close()
    store.unlock()
    return tmp_path / "state"


def test_robinson_restore_puts_the_copy_on_the_disk_before_its_name(
        tmp_path: Path, disk: Disk) -> None:
    folder = made(tmp_path)
    (tmp_path / "copy.db").chmod(0o644)  # a copy anyone may read: the saves stay private
    restoring.restore(folder, tmp_path / "copy.db")
    assert disk.durable(folder / "robinson.db.restoring", folder / "robinson.db"), disk.events
    assert disk.synced(folder / "damaged") >= 1 and disk.synced(folder) >= 2, disk.events
    assert (folder / "robinson.db").stat().st_mode & 0o777 == 0o600
    assert open_files(tmp_path) == []


def test_robinson_restore_killed_before_its_rename_leaves_the_old_database_in_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The old database is linked into damaged/, never moved there first: a kill before
    the copy's rename leaves the folder with its database, every game in it."""
    folder = made(tmp_path)
    before = [f.number for f in Store(folder, read_only=True).finished(10)]
    assert len(before) == 5  # 3 won, the game begun put away, 1 won
    real = os.replace

    def killed(source: object, target: object) -> None:
        if str(source).endswith(".restoring"):
            raise OSError("killed")
        real(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(OSError, match="killed"):
        restoring.restore(folder, tmp_path / "copy.db")
    monkeypatch.undo()
    assert [f.number for f in Store(folder, read_only=True).finished(10)] == before


@pytest.mark.parametrize("changed", ["its application id", "its tables"])
def test_robinson_restore_refuses_a_copy_ours_in_one_way_only(tmp_path: Path,
                                                              changed: str) -> None:
    """The header's id and the tables must both be ours: either alone is some other
    program's file (or a damaged one of ours), not a copy to put back."""
    folder = made(tmp_path)
    copy = sqlite3.connect(tmp_path / "copy.db")
    if changed == "its application id":
        copy.execute(f"PRAGMA application_id = {APPLICATION_ID + 1}")
    else:
        copy.execute("CREATE TABLE fired (x)")
    copy.commit()
    copy.close()
    before = (folder / "robinson.db").read_bytes()
    with pytest.raises(SaveError, match="is not a database of saved games"):
        restoring.restore(folder, tmp_path / "copy.db")
    assert (folder / "robinson.db").read_bytes() == before


def test_robinson_restore_leaves_nothing_of_its_own_behind(tmp_path: Path) -> None:
    """A copy a kill left half made (robinson.db.restoring) is replaced, and the
    finished restore leaves only the database, the ledger, the spare and damaged/."""
    folder = made(tmp_path)
    (folder / "robinson.db.restoring").write_bytes(b"half a copy")
    restoring.restore(folder, tmp_path / "copy.db")
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["robinson.db", LEDGER, SPARE, "damaged", "table.lock"])


def test_the_spare_is_on_the_disk_before_its_name(tmp_path: Path, disk: Disk) -> None:
    store = games_store(tmp_path / "state", finished=1)
    disk.events.clear()
    store.save(WON)
    store.put_away(WON, None)
    folder = tmp_path / "state"
    assert disk.durable(folder / f"{SPARE}.new", folder / SPARE), disk.events
    store.close()
    store.unlock()
    assert open_files(tmp_path) == []


def test_every_save_is_written_down_in_the_ledger_on_the_disk(tmp_path: Path,
                                                             disk: Disk) -> None:
    store = games_store(tmp_path / "state", finished=0)
    disk.events.clear()
    for n in range(3):
        store.save(SHOWN if n % 2 else BEGUN)
    assert disk.synced(tmp_path / "state" / LEDGER) == 3, disk.events
    store.close()
    store.unlock()


def test_what_is_set_aside_or_kept_in_damaged_is_on_the_disk(tmp_path: Path,
                                                              disk: Disk) -> None:
    folder = Folder(tmp_path / "state")
    folder.make()
    (tmp_path / "state" / "robinson.db").write_bytes(b"x" * 100)
    (tmp_path / "state" / "robinson.db-wal").write_bytes(b"y" * 100)
    kept = folder.keep(folder.database, folder.database.with_name("robinson.db-wal"))
    assert kept == "robinson.db.1 and robinson.db-wal.1"
    damaged = tmp_path / "state" / "damaged"
    assert disk.synced(damaged / "robinson.db.1") == 1, disk.events
    assert disk.synced(damaged / "robinson.db-wal.1") == 1, disk.events
    assert disk.synced(damaged) >= 1, disk.events
    disk.events.clear()
    folder.set_aside(folder.database, "not a database")
    assert disk.events[-2:] == [("fsync", str(damaged), ""),
                                ("fsync", str(tmp_path / "state"), "")], disk.events


def test_no_file_of_the_state_folder_stays_open(tmp_path: Path) -> None:
    """After a store is closed (the ledger's descriptor too), a backup, a salvage and a
    restore: nothing under the folder is open (a table that runs for months would run
    out of descriptors, and a file kept open is not let go when it is set aside)."""
    folder = made(tmp_path)
    store = Store(folder)
    store.lock()
    store.load()
    store.save(SHOWN)
    store.backup(tmp_path / "backup.db")
    store.close()
    store.unlock()
    assert open_files(tmp_path) == []
    shutil.copyfile(tmp_path / "backup.db", tmp_path / "damaged.db")
    with open(tmp_path / "damaged.db", "r+b") as damaged:
        damaged.seek(4096 + 20)
        damaged.write(b"\xee" * 40)
    broken = Store(tmp_path / "broken")
    broken.folder.make()
    shutil.copyfile(tmp_path / "damaged.db", tmp_path / "broken" / "robinson.db")
    broken.load()
    broken.close()
    restoring.restore(folder, tmp_path / "copy.db")
    assert open_files(tmp_path) == []


def test_a_game_written_out_to_damaged_is_private_and_on_the_disk(tmp_path: Path,
                                                                   disk: Disk) -> None:
    folder = Folder(tmp_path / "state")
    folder.make()
    assert folder.write_out("game-7.txt", "seats 1 2\n") == "game-7.txt"
    damaged = tmp_path / "state" / "damaged"
    assert (damaged / "game-7.txt").stat().st_mode & 0o777 == 0o600
    assert disk.events[-2:] == [("fsync", str(damaged / "game-7.txt"), ""),
                                ("fsync", str(damaged), "")], disk.events
    (tmp_path / "state" / "robinson.db").write_bytes(b"x" * 10)
    (tmp_path / "state" / "robinson.db").chmod(0o644)
    folder.keep(folder.database)
    assert (damaged / "robinson.db.1").stat().st_mode & 0o777 == 0o600


def test_another_tables_lock_names_its_holder_whatever_it_wrote(tmp_path: Path) -> None:
    """The lock's holder as it wrote itself (a pid, or bytes that are not: shown, not a
    traceback), in the one line that stops a second table (flock's lock is one per open
    file: a second folder in this process is refused as another process would be)."""
    from firmware.saves.faults import TableRunning

    first = Folder(tmp_path / "state")
    first.lock()
    lock = tmp_path / "state" / "table.lock"
    lock.write_bytes(b"\xff12\n")
    second = Folder(tmp_path / "state")
    with pytest.raises(TableRunning) as raised:
        second.lock()
    assert str(raised.value) == (
        f"another table is running on {tmp_path / 'state'} (pid \ufffd12): stop it first "
        "(sudo systemctl stop robinson-table), or give --state-dir")
    first.unlock()
