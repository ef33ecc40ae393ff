"""The store on SQLite: what is committed stays, whatever sits in the state directory,
whatever the clock says, and reading never changes anything."""

from __future__ import annotations

import datetime
import hashlib
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.table import store as store_module
from firmware.table.store import KEEP_FINISHED, Store
from robinson_core import Game, Roll, play_script

GAME = Game((1, 2)).play(Roll(3)).play(Roll(5))
WON = play_script(Game((1, 2)), "6 2 5 3 3 1 6 again 3 jump 6 1 6 3 6 1 5")
ROBINSON = Path(sys.executable).with_name("robinson")


def tree(folder: Path, contents: bool = True) -> dict[str, object]:
    """Every name under ``folder`` with its mode, owner and (if asked) a hash of its bytes."""
    found: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        digest = (hashlib.sha256(path.read_bytes()).hexdigest()
                  if contents and stat.S_ISREG(info.st_mode) else None)
        found[str(path.relative_to(folder))] = (stat.filemode(info.st_mode), info.st_uid, digest)
    return found


def test_each_save_is_one_commit_and_reads_back(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(GAME)
    store.save(GAME.play(Roll(2)))
    store.save(GAME)  # an undo
    store.close()
    assert Store(tmp_path).load().game == GAME
    rows = sqlite3.connect(tmp_path / "robinson.db").execute(
        "SELECT count(*) FROM action").fetchone()
    assert rows == (2,)


def test_putting_away_and_beginning_the_next_is_one_transaction(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(WON)
    store.put_away(WON, WON.restart())
    store.close()
    again = Store(tmp_path)
    assert again.load().game == WON.restart()
    finished = again.finished()
    assert [(f.game, f.ended, f.winner) for f in finished] == [(WON, "won", WON.state.winner)]


def test_a_game_with_other_seats_is_never_written_over(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(GAME)
    other = Game((1, 2, 3)).play(Roll(1))
    store.save(other)
    assert store.load().game == other
    assert [(f.game, f.ended) for f in store.finished()] == [(GAME, "abandoned")]


def test_the_newest_hundred_are_kept_by_order_not_by_clock(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pi without a clock: behind, ahead, jumping, stuck. Order and count hold."""
    clock = iter([datetime.datetime(2030, 1, 1), datetime.datetime(1970, 1, 1),
                  datetime.datetime(2000, 6, 6)] * 100 + [datetime.datetime(1999, 1, 1)] * 100)

    class Jumpy(datetime.datetime):
        @classmethod
        def now(cls, tz: object = None) -> Jumpy:  # type: ignore[override]
            return next(clock)  # type: ignore[return-value]

    monkeypatch.setattr(store_module.datetime, "datetime", Jumpy)
    store = Store(tmp_path)
    games = [Game((1, 2)).play(Roll(face)).play(Roll(n % 6 + 1)) for face in (1, 2, 3, 5, 6)
             for n in range(24)]  # 120 games, told apart by their actions
    for game in games:
        store.save(game)
        store.put_away(game)
    kept = [f.game for f in store.finished(1000)]
    assert len(kept) == KEEP_FINISHED
    assert kept == games[::-1][:KEEP_FINISHED]  # newest first, by when they were put away


@pytest.mark.parametrize("planted", ["a folder", "a symlink", "a FIFO", "random bytes",
                                     "1 GB of nothing", "a folder as its -wal"])
def test_whatever_sits_where_the_database_belongs_is_set_aside(tmp_path: Path,
                                                               planted: str) -> None:
    database = tmp_path / "robinson.db"
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.write_bytes(b"not yours")
    if planted == "a folder":
        database.mkdir()
    elif planted == "a symlink":
        database.symlink_to(outside)
    elif planted == "a FIFO":
        os.mkfifo(database)
    elif planted == "random bytes":
        database.write_bytes(os.urandom(70_000))
    elif planted == "1 GB of nothing":
        with open(database, "wb") as file:
            file.truncate(1 << 30)  # sparse
    else:
        database.with_name("robinson.db-wal").mkdir()
    store = Store(tmp_path)
    loaded = store.load()
    assert loaded.game is None
    assert loaded.problem is not None and "kept in damaged/" in loaded.problem
    assert loaded.problem.count("\n") == 0
    store.save(GAME)  # and the table goes on, on a new database
    store.close()
    assert Store(tmp_path).load() == store_module.Loaded(GAME)
    assert outside.read_bytes() == b"not yours"
    assert len(list((tmp_path / "damaged").iterdir())) == 1


def test_files_are_private_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        store = Store(tmp_path / "state")
        store.lock()
        store.save(GAME)
        modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "state").iterdir()}
        folder = (tmp_path / "state").stat().st_mode & 0o777
    finally:
        os.umask(old)
    assert folder == 0o700
    assert modes == {"robinson.db": 0o600, "robinson.db-wal": 0o600, "robinson.db-shm": 0o600,
                     "table.lock": 0o600}


def test_a_deleted_folder_under_a_running_table_is_made_again_with_the_whole_game(
        tmp_path: Path) -> None:
    import shutil

    state = tmp_path / "state"
    store = Store(state)
    store.lock()
    store.save(GAME)
    shutil.rmtree(state)
    store.save(GAME.play(Roll(2)))
    assert Store(state, read_only=True).load().game == GAME.play(Roll(2))
    assert (state / "table.lock").exists()


def test_the_old_text_files_are_imported_once_and_moved_not_deleted(tmp_path: Path) -> None:
    (tmp_path / "game.txt").write_text(GAME.save())
    (tmp_path / "game.prev.txt").write_text(GAME.undo().save())
    (tmp_path / "archive").mkdir()
    (tmp_path / "archive" / "20261101-120000-00000.txt").write_text(WON.save())
    (tmp_path / "prefs.txt").write_text("language=fi\ncontrast=40\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    reader = Store(tmp_path, read_only=True)  # before any table: read, change nothing
    assert reader.load().game == GAME and reader.finished()[0].game == WON
    store = Store(tmp_path)
    assert store.load().game == GAME
    assert store.prefs() == {"language": "fi", "contrast": "40"}
    [won] = store.finished()
    assert won.game == WON and won.finished_at == datetime.datetime(2026, 11, 1, 12)
    imported = tmp_path / "imported"
    assert sorted(p.name for p in imported.iterdir()) == ["archive", "game.prev.txt",
                                                          "game.txt", "prefs.txt"]
    assert {n: (imported / n).read_bytes() for n in before} == before
    store.close()
    (tmp_path / "game.txt").write_text(GAME.undo().save())  # found again later: not re-read
    store = Store(tmp_path)
    assert store.load().game == GAME and len(store.finished()) == 1
    assert (imported / "game.txt.1").exists()


def test_reading_changes_nothing_beside_a_running_table(tmp_path: Path) -> None:
    """state, history and export open the database read-only: the tree is the same after,
    with the table stopped (every byte) and with it running (every name, mode, owner)."""
    state = tmp_path / "state"
    table = Store(state)
    table.lock()
    table.save(WON)
    table.put_away(WON, GAME)
    commands = [["state"], ["state", "--json"], ["history"], ["history", "--json"],
                ["export"], ["export", "--finished", "1"]]

    def read_all() -> list[str]:
        outputs = []
        for command in commands:
            run = subprocess.run([ROBINSON, *command, "--state-dir", str(state)],
                                 capture_output=True, text=True, check=False, timeout=60)
            assert run.returncode == 0, (command, run.stderr)
            outputs.append(run.stdout)
        return outputs

    running = tree(state, contents=False)
    outputs = read_all()
    assert tree(state, contents=False) == running
    assert Game.load(outputs[4]) == GAME and Game.load(outputs[5]) == WON
    table.save(GAME.play(Roll(2)))  # the table goes on meanwhile
    assert '"actions": ["3", "5", "2"]' in read_all()[1]
    table.close()
    stopped = tree(state)
    read_all()
    assert tree(state) == stopped


def test_export_then_import_moves_a_game_to_another_table(tmp_path: Path) -> None:
    Store(tmp_path / "a").save(GAME)
    exported = tmp_path / "game.txt"
    run = subprocess.run([ROBINSON, "export", "--state-dir", str(tmp_path / "a"), "-o",
                          str(exported)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    other = Store(tmp_path / "b")
    other.save(WON)
    other.close()
    run = subprocess.run([ROBINSON, "import", str(exported), "--state-dir",
                          str(tmp_path / "b")], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    b = Store(tmp_path / "b")
    assert b.load().game == GAME and [f.game for f in b.finished()] == [WON]


@pytest.mark.parametrize("content,message", [
    (GAME.save() + "actions 6 6 6\n", "checksum"),
    (GAME.save().replace("actions 3 5", "actions 3 6"), "checksum does not match"),
    ("x" * 1_000_001, "larger than 1 MB"),
    ("\udcff", "not a saved game"),
])
def test_a_bad_import_is_one_line_and_changes_nothing(tmp_path: Path, content: str,
                                                      message: str) -> None:
    Store(tmp_path / "state").save(WON)
    before = tree(tmp_path / "state")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content.encode("utf-8", "surrogateescape"))
    run = subprocess.run([ROBINSON, "import", str(bad), "--state-dir", str(tmp_path / "state")],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and message in run.stderr, \
        run.stderr
    assert tree(tmp_path / "state") == before


def test_history_json_has_the_promised_shape(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(WON)
    store.put_away(WON, GAME)
    store.put_away(GAME)
    store.close()
    run = subprocess.run([ROBINSON, "history", "--json", "--state-dir", str(tmp_path)],
                         capture_output=True, text=True, check=True)
    import json

    games = json.loads(run.stdout)["games"]
    assert [(g["ended"], g["winner"], len(g["actions"])) for g in games] == [
        ("abandoned", None, 2), ("won", WON.state.winner, len(WON.actions))]
    assert all(set(g) == {"ended", "winner", "actions", "replay_args", "finished_at"}
               for g in games)
    replay = subprocess.run([ROBINSON, "replay", *games[1]["replay_args"], "--json"],
                            capture_output=True, text=True, check=True)
    assert json.loads(replay.stdout)["winner"] == WON.state.winner
