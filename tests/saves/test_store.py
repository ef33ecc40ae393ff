"""The store on SQLite: what is committed stays, whatever sits in the state directory,
whatever the clock says, and reading never changes anything."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.saves import rows, spare
from firmware.saves import store as store_module
from firmware.saves.rows import DATABASE, KEEP_FINISHED
from firmware.saves.store import Store
from robinson_core import Game, Roll, play_script

from .test_store_faults import plant

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


def test_the_newest_hundred_are_kept_by_order_not_by_clock(tmp_path: Path) -> None:
    """A Pi without a clock: behind, ahead, jumping, stuck. Order and count hold; the
    clock (the store's own, handed in) only labels each game."""
    told = [datetime.datetime(2030, 1, 1), datetime.datetime(1970, 1, 1),
            datetime.datetime(2000, 6, 6)] * 40
    clock = iter(told)
    store = Store(tmp_path, clock=lambda: next(clock))
    games = [Game((1, 2)).play(Roll(face)).play(Roll(n % 6 + 1)) for face in (1, 2, 3, 5, 6)
             for n in range(24)]  # 120 games, told apart by their actions
    for game in games:
        store.save(game)
        store.put_away(game)
    kept = store.finished(1000)
    assert len(kept) == KEEP_FINISHED
    assert [f.game for f in kept] == games[::-1][:KEEP_FINISHED]  # newest first, by when
    assert [f.finished_at for f in kept] == told[::-1][:KEEP_FINISHED]  # put away


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
    why = {"a folder": "robinson.db: robinson.db is not a file",
           "a symlink": "robinson.db: robinson.db is not a file",
           "a FIFO": "robinson.db: robinson.db is not a file",
           "a folder as its -wal": "robinson.db-wal: robinson.db-wal is not a file"}.get(
        planted, "robinson.db: not a database")
    assert loaded.problem is not None and loaded.problem.startswith(why), loaded.problem
    assert "kept in damaged/" in loaded.problem and loaded.problem.count("\n") == 0
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
                     "robinson.ledger": 0o600, "robinson.spare": 0o600,
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
    assert run.stdout == (f"imported: seats 1,2, {len(GAME.actions)} actions: the game in play "
                          "now; the one it replaced is put away (robinson history)\n")
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
    store = Store(tmp_path / "state")  # closed before the tree is taken: left to the
    store.save(WON)  # collector, its connection (a cycle in Python 3.11's sqlite3) was
    store.close()  # closed mid-test now and then, its -wal and -shm gone with it
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
    assert all(set(g) == {"ended", "winner", "put_away", "actions", "replay_args",
                          "finished_at"} for g in games)
    replay = subprocess.run([ROBINSON, "replay", *games[1]["replay_args"], "--json"],
                            capture_output=True, text=True, check=True)
    assert json.loads(replay.stdout)["winner"] == WON.state.winner


def test_history_lists_a_won_game_at_once_not_when_the_next_begins(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(WON)  # won, still on the table: no new game begun yet
    store.close()
    run = subprocess.run([ROBINSON, "history", "--state-dir", str(tmp_path)],
                         capture_output=True, text=True, check=True)
    assert run.stdout.startswith("on the table ") and f"seat {WON.state.winner} won" in run.stdout
    run = subprocess.run([ROBINSON, "history", "--json", "--state-dir", str(tmp_path)],
                         capture_output=True, text=True, check=True)
    import json

    [game] = json.loads(run.stdout)["games"]
    assert (game["ended"], game["put_away"], game["finished_at"]) == ("won", False, None)


def test_state_and_history_name_the_players_and_speak_as_the_table_shows_them(
        tmp_path: Path) -> None:
    """``robinson state`` and ``history`` read the names the table keeps (``robinson
    names``, the menu's) over the config's, and ``state`` its language: they said
    "Igrač 1" where the panel showed Čedo (issue 61, item 11)."""
    folder, config = tmp_path / "state", tmp_path / "config" / "robinson-table"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('language = "hr"\nseat_names = ["Ivo", "Ana"]\n',
                                        encoding="utf-8")
    store = Store(folder, pref_keys=("names",))
    store.save(WON)  # won, on the table
    winner = WON.state.winner
    store.save_prefs({"names": json.dumps({str(winner): "Čedo"})})  # as the table keeps them
    store.close()
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}

    def robinson(*args: str) -> str:
        return subprocess.run([ROBINSON, *args, "--state-dir", str(folder)], env=env,
                              capture_output=True, text=True, check=True).stdout

    state = robinson("state")
    assert state.startswith("2 igrača") and state.count("Čedo baca") > 3, state
    other = 3 - (winner or 0)
    assert state.count(f"{('Ivo', 'Ana')[other - 1]} baca") > 3  # the config's, where none kept
    assert "Igrač" not in state
    assert robinson("state", "--lang", "en").startswith("2 players")  # asked: over the table's
    assert f"Čedo (seat {winner}) won" in robinson("history")


# -- in-process checks of each part (mutation testing sees only in-process calls) --------


def test_where_the_state_lives(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from firmware.config.settings import SYSTEM_STATE_DIR
    from firmware.saves.folder import state_dir

    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    assert state_dir("rel", on_pi=False) == tmp_path / "rel"  # absolute: lgpio changes cwd
    assert state_dir(None, on_pi=False) == tmp_path / "xdg" / "robinson-table"
    assert state_dir(None, on_pi=True) == SYSTEM_STATE_DIR
    # the folder systemd makes for the unit (StateDirectory=, under /var/lib): the one the
    # commands read on a Pi when run outside the unit
    unit = (Path(__file__).resolve().parents[2] / "systemd" / "robinson-table.service")
    made = next(line.partition("=")[2] for line in unit.read_text().splitlines()
                if line.startswith("StateDirectory="))
    assert Path(SYSTEM_STATE_DIR) == Path("/var/lib") / made
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}/sd:/other")
    assert state_dir(None, on_pi=True) == tmp_path / "sd"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert state_dir(None, on_pi=False) == tmp_path / "home/.local/state/robinson-table"


def test_import_puts_the_game_in_play_away_and_keeps_it(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(GAME)
    store.import_game(WON)
    store.close()
    again = Store(tmp_path, read_only=True)
    assert again.load().game == WON
    assert [(f.game, f.ended) for f in again.finished()] == [(GAME, "abandoned")]


def test_begin_puts_away_a_game_left_in_play_and_drops_an_empty_one(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(Game((1, 2)))  # begun, not played
    store.begin(GAME.undo().undo())
    assert store.finished() == []  # nothing to keep
    store.save(GAME)
    store.begin(Game((1, 2, 3)))
    assert store.load().game == Game((1, 2, 3))
    assert [f.game for f in store.finished()] == [GAME]
    rows = sqlite3.connect(tmp_path / "robinson.db").execute(
        "SELECT count(*) FROM game").fetchone()
    assert rows == (2,)


def test_a_game_not_saved_is_still_put_away_whole(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.put_away(GAME)  # saving failed before: the table hands over what it holds
    assert [f.game for f in store.finished()] == [GAME] and store.load().game is None


def test_preferences_keep_only_the_keys_handed_in(tmp_path: Path) -> None:
    """The saves know nothing of the table: it hands in the keys it knows."""
    known = ("language", "contrast")
    store = Store(tmp_path, pref_keys=known)
    assert store.prefs() == {}
    store.save_prefs({"language": "ja", "contrast": "40"})
    store.save_prefs({"language": "fi"})
    sqlite3.connect(tmp_path / "robinson.db").execute(
        "INSERT INTO pref VALUES ('colour', 'red')").connection.commit()
    assert Store(tmp_path, pref_keys=known).prefs() == {"language": "fi", "contrast": "40"}
    assert Store(tmp_path, pref_keys=("colour",)).prefs() == {"colour": "red"}
    assert Store(tmp_path).prefs() == {}  # handed none: keeps none


def test_a_backup_is_a_whole_database(tmp_path: Path) -> None:
    store = Store(tmp_path / "state")
    store.save(WON)
    store.put_away(WON, GAME)
    store.backup(tmp_path / "copy.db")
    copy = tmp_path / "restored"
    copy.mkdir()
    (tmp_path / "copy.db").rename(copy / "robinson.db")
    restored = Store(copy, read_only=True)
    assert restored.load().game == GAME and [f.game for f in restored.finished()] == [WON]


def test_a_second_lock_in_the_same_directory_names_the_holder(tmp_path: Path) -> None:
    from firmware.saves.faults import StateDirectoryError

    first = Store(tmp_path)
    first.lock()
    with pytest.raises(StateDirectoryError, match=f"pid {os.getpid()}"):
        Store(tmp_path).lock()
    assert (tmp_path / "table.lock").read_text() == f"{os.getpid()}\n"
    (tmp_path / "file").write_text("")
    with pytest.raises(StateDirectoryError, match="cannot use"):
        Store(tmp_path / "file" / "below").lock()


def test_an_sqlite_error_says_what_the_os_would(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    store = Store(tmp_path)
    store.save(GAME)

    def refuse(code: int) -> sqlite3.Error:
        error = sqlite3.OperationalError("database or disk is full")
        error.sqlite_errorcode = code
        return error

    assert store.folder.why(refuse(sqlite3.SQLITE_FULL)) == errno.ENOSPC
    assert store.folder.why(refuse(sqlite3.SQLITE_READONLY)) == errno.EROFS
    assert store.folder.why(refuse(sqlite3.SQLITE_IOERR)) == errno.EIO

    def read_only(path: object, *args: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(os, "utime", read_only)
    assert store.folder.why(refuse(sqlite3.SQLITE_IOERR)) == errno.EROFS


def test_a_failed_write_is_an_oserror_and_the_next_one_catches_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware.saves.faults import SaveFailed

    store = Store(tmp_path)
    store.save(GAME)
    real = store._sync
    monkeypatch.setattr(store, "_sync", lambda db, game: (_ for _ in ()).throw(
        sqlite3.OperationalError("disk I/O error")))
    with pytest.raises(SaveFailed):
        store.save(GAME.play(Roll(1)))
    monkeypatch.setattr(store, "_sync", real)
    store.save(GAME.play(Roll(1)).play(Roll(2)))
    assert Store(tmp_path, read_only=True).load().game == GAME.play(Roll(1)).play(Roll(2))


def test_read_only_refuses_what_is_not_ours_and_writes_nothing(tmp_path: Path) -> None:
    from firmware.saves.faults import SaveFailed

    assert Store(tmp_path / "none", read_only=True).load() == store_module.Loaded(None)
    assert not (tmp_path / "none").exists()
    (tmp_path / "robinson.db").write_bytes(b"x" * 5000)
    loaded = Store(tmp_path, read_only=True).load()
    assert loaded.game is None and "not a database" in (loaded.problem or "")
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE t (x)").connection.commit()
    (tmp_path / "other.db").replace(tmp_path / "robinson.db")
    loaded = Store(tmp_path, read_only=True).load()
    assert "not a Robinson Table database" in (loaded.problem or "")
    with pytest.raises(SaveFailed):
        Store(tmp_path, read_only=True).save(GAME)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["robinson.db"]


def test_each_thing_set_aside_gets_its_own_number(tmp_path: Path) -> None:
    (tmp_path / "damaged").mkdir()  # what a person left there counts for nothing
    for name in ("notes", "robinson.db.old", "robinson.db.123456789"):
        (tmp_path / "damaged" / name).write_text("mine")
    for n in range(1, 4):
        (tmp_path / "robinson.db").write_bytes(b"junk %d" % n)
        (tmp_path / "robinson.db-wal").write_bytes(b"wal %d" % n)
        store = Store(tmp_path)
        loaded = store.load()
        store.close()
        assert f"kept in damaged/ as robinson.db.{n}" in (loaded.problem or "")
    kept = sorted(p.name for p in (tmp_path / "damaged").iterdir())
    assert kept == ["notes", "robinson.db-wal.1", "robinson.db-wal.2", "robinson.db-wal.3",
                    "robinson.db.1", "robinson.db.123456789", "robinson.db.2", "robinson.db.3",
                    "robinson.db.old"]
    assert (tmp_path / "damaged" / "robinson.db-wal.2").read_bytes() == b"wal 2"


@pytest.mark.parametrize("spare", ["kept", "lost too"])
def test_a_damaged_finished_row_costs_that_game_only(tmp_path: Path, spare: str) -> None:
    """A finished game's row changed on disk: brought back whole from the spare, said; a
    spare lost too, it costs that game only."""
    store = Store(tmp_path)
    for game in (GAME, WON, GAME.undo()):
        store.save(game)
        store.put_away(game)
    store.close()
    db = sqlite3.connect(tmp_path / "robinson.db")
    db.execute("UPDATE action SET token = '1' WHERE game = 2 AND seq = 0")
    db.commit()
    db.close()
    if spare == "lost too":
        (tmp_path / "robinson.spare").unlink()
    again = Store(tmp_path)
    problem = again.load().problem or ""
    assert "finished game 2 changed on disk" in problem
    if spare == "kept":
        assert [f.game for f in again.finished()] == [GAME.undo(), WON, GAME]
        assert problem.endswith(": marked damaged, written out as damaged/game-2.txt; 1 "
                                "finished game brought back from the spare copy "
                                "(robinson.spare)"), problem  # nothing salvaged
        return
    assert [f.game for f in again.finished()] == [GAME.undo(), GAME]
    assert [f.number for f in again.finished()] == [3, 1]
    assert [f.game for f in again.finished(1)] == [GAME.undo()]


def test_an_unplayed_game_is_replaced_not_kept(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(Game((1, 2)))
    other = Game((1, 2, 3)).play(Roll(4))
    store.save(other)
    store.close()
    again = Store(tmp_path)
    assert again.load().game == other and again.finished() == []
    rows = sqlite3.connect(tmp_path / "robinson.db").execute(
        "SELECT count(*) FROM game").fetchone()
    assert rows == (1,)


def test_reading_a_database_no_table_has_open_makes_no_file(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(GAME)
    store.close()  # no -wal now: a reader must not make one (immutable)
    before = sorted(p.name for p in tmp_path.iterdir())
    reader = Store(tmp_path, read_only=True)
    assert reader.load().game == GAME and reader.prefs() == {}
    reader.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == before == [
        "robinson.db", "robinson.ledger", "robinson.spare"]


def test_a_state_directory_is_made_with_its_parents_and_kept_private(tmp_path: Path) -> None:
    state = tmp_path / "a" / "b" / "state"
    store = Store(state)  # kept open (held here, not left to the collector)
    store.save(GAME)
    (state / "robinson.db-shm").unlink()  # the store is still open: make one odd thing
    (state / "robinson.db-shm").mkdir()
    Store(state).load()
    assert (state / "damaged").stat().st_mode & 0o777 == 0o700
    assert state.stat().st_mode & 0o777 == 0o700
    store.close()


def test_the_lock_says_what_to_do(tmp_path: Path) -> None:
    from firmware.saves.faults import StateDirectoryError

    (tmp_path / "file").write_text("")
    with pytest.raises(StateDirectoryError) as caught:
        Store(tmp_path / "file").lock()
    assert str(caught.value) == (f"cannot use {tmp_path / 'file'} for the saved games (File "
                                 "exists): give --state-dir a folder the table may write")


def test_bring_back_puts_the_newest_abandoned_game_back_and_this_one_away(
        tmp_path: Path) -> None:
    store = Store(tmp_path)
    older = Game((1, 2, 3)).play(Roll(2))
    store.save(older)
    store.put_away(older)  # abandoned
    store.put_away(None, WON)
    store.put_away(WON)  # won: never brought back
    store.save(GAME)
    assert store.bring_back() == older
    assert store.load().game == older
    assert [(f.game, f.ended) for f in store.finished()] == [(GAME, "abandoned"), (WON, "won")]
    again = Store(tmp_path)  # on disk, as one change
    assert again.load().game == older
    assert again.bring_back() == GAME  # and back again: the newest abandoned is GAME now
    # listed in the order they were begun, newest first
    assert [(f.game, f.ended) for f in again.finished()] == [(WON, "won"), (older, "abandoned")]


def test_bring_back_with_nothing_abandoned_changes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.put_away(None, WON)
    store.put_away(WON)
    store.save(GAME)
    assert store.bring_back() is None
    assert store.load().game == GAME and [f.ended for f in store.finished()] == ["won"]


@pytest.mark.parametrize("with_spare", [True, False])
def test_bring_back_never_takes_a_damaged_game(tmp_path: Path, with_spare: bool) -> None:
    """The newest game put away, its row spoilt while the table was off: opening finds it
    and brings it back whole from the spare, said (marking it damaged once copied the
    spare over with the damage, and the game was lost); with no spare to take it from,
    bring-back skips it for the game before."""
    store = Store(tmp_path)
    store.save(GAME)
    store.put_away(GAME)
    other = Game((1, 2, 3)).play(Roll(4))
    store.put_away(None, other)
    store.put_away(other)
    store.close()
    with sqlite3.connect(tmp_path / DATABASE) as db:  # the newest one's row spoilt
        db.execute("UPDATE action SET token = 'banana' WHERE game = "
                   "(SELECT max(id) FROM game)")
    if not with_spare:
        (tmp_path / spare.SPARE).unlink()
    store = Store(tmp_path)
    assert store.bring_back() == (other if with_spare else GAME)
    if with_spare:
        assert "brought back from the spare copy" in " ".join(store.problems), store.problems


@pytest.mark.parametrize("kept,said", [(0, "only 0 games put away"),
                                       (1, "only 1 game put away")])
def test_export_of_a_game_not_kept_says_how_many_there_are(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kept: int, said: str) -> None:
    from firmware.cli import main

    store = Store(tmp_path)
    for _ in range(kept):
        store.put_away(None, WON)
        store.put_away(WON)
    store.close()
    assert main(["export", "--state-dir", str(tmp_path), "--finished", "2"]) == 2
    assert said in capsys.readouterr().err


def test_the_file_says_whose_it_is_and_which_schema_in_its_header(tmp_path: Path) -> None:
    """The header's application id (offset 68) and user version (offset 60), as any
    SQLite tool reads them: the bytes are the promise, so they are pinned as bytes."""
    store = Store(tmp_path)
    store.save(GAME)
    store.close()
    header = (tmp_path / "robinson.db").read_bytes()[:100]
    assert header[68:72] == b"Robi" and int.from_bytes(header[60:64], "big") == 1


def test_a_file_not_a_database_goes_aside_with_every_side_file(tmp_path: Path) -> None:
    """Whatever lies beside a file that is not a database under its name goes with it,
    before SQLite opens anything: a -journal left there would be rolled into ours."""
    (tmp_path / "robinson.db").write_bytes(b"not a database" * 100)
    sides = {suffix: f"its {suffix}".encode() * 50 for suffix in ("-wal", "-shm", "-journal")}
    for suffix, data in sides.items():
        (tmp_path / f"robinson.db{suffix}").write_bytes(data)
    store = Store(tmp_path)
    store.save(GAME)
    store.close()
    for suffix, data in sides.items():
        assert (tmp_path / "damaged" / f"robinson.db{suffix}.1").read_bytes() == data
    assert not (tmp_path / "robinson.db-journal").exists()


def test_a_foreign_sqlite_file_is_set_aside_never_written_into(tmp_path: Path) -> None:
    """Another program's database (application id 0, tables of its own) where ours
    belongs: moved to damaged/ untouched, and a database of ours begun beside it."""
    foreign = tmp_path / "robinson.db"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE notes (text TEXT)")
    db.execute("INSERT INTO notes VALUES ('mine')")
    db.commit()
    db.close()
    before = foreign.read_bytes()
    store = Store(tmp_path)
    store.save(GAME)
    store.close()
    kept = tmp_path / "damaged" / "robinson.db.1"
    assert kept.read_bytes() == before
    assert any("not a Robinson Table database" in p for p in store.problems)
    assert Store(tmp_path, read_only=True).load().game == GAME


def test_any_one_page_scribbled_is_set_aside_or_read_right_never_a_crash(
        tmp_path: Path) -> None:
    """Random bytes over each page of the database in turn (a table's, an index's, the
    schema's): the next start either sets it aside, saying so, or reads the very games
    that were saved; it never raises, so it never crash-loops."""
    import random

    source = tmp_path / "source"
    store = Store(source)
    for game in (GAME, WON):
        store.save(game)
        store.put_away(game)
    store.save(GAME.undo())
    store.close()
    data = (source / "robinson.db").read_bytes()
    page = 4096
    pages, set_aside, read_right = len(data) // page, 0, 0
    rng = random.Random(26)
    for number in range(pages):
        state = tmp_path / f"page{number}"
        state.mkdir()
        scribbled = data[:number * page] + rng.randbytes(page) + data[(number + 1) * page:]
        (state / "robinson.db").write_bytes(scribbled)
        again = Store(state)
        loaded = again.load()
        finished = [f.game for f in again.finished()]
        again.close()
        if (state / "damaged").exists():
            assert loaded.problem and "kept in damaged/" in loaded.problem
            set_aside += 1
        else:
            assert loaded.game == GAME.undo() and finished == [WON, GAME], number
            read_right += 1
    print(f"\n{pages} pages scribbled: {set_aside} set aside, {read_right} read right")
    assert pages >= 5 and set_aside + read_right == pages and set_aside >= 1


def test_a_won_game_whose_winning_save_failed_is_put_away_won(tmp_path: Path) -> None:
    """The table holds the win; the disk holds the game a roll before (that save
    failed). Put away, it is kept as won, with its winning roll."""
    store = Store(tmp_path)
    store.save(WON.undo())
    store.put_away(WON)
    [kept] = store.finished()
    assert kept.ended == "won" and kept.game == WON
    store.close()


def test_an_error_that_is_not_sqlites_during_a_write_is_not_swallowed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a refused write becomes SaveFailed; anything else reaches the caller, and
    nothing half done is committed."""
    store = Store(tmp_path)
    store.save(GAME.undo())

    def broken(*args: object) -> int:
        raise ValueError("a bug")

    monkeypatch.setattr(Store, "_sync", broken)
    with pytest.raises(ValueError, match="a bug"):
        store.save(GAME)
    monkeypatch.undo()
    assert Store(tmp_path, read_only=True).load().game == GAME.undo()
    store.close()


def test_a_long_lived_reader_sees_each_later_save(tmp_path: Path) -> None:
    """Issue 37's third defect: a read-only store kept the first game it read, so a reader
    that stays open (the companion) showed a stale game for ever."""
    writer, reader = Store(tmp_path), Store(tmp_path, read_only=True)
    game = Game((1, 2))
    writer.begin(game)
    seen = [reader.load().game]
    for face in (3, 5, 2):
        game = game.play(Roll(face))
        writer.save(game)
        seen.append(reader.load().game)
    writer.put_away(game)
    seen.append(reader.load().game)
    assert seen == [*(Game((1, 2), actions=game.actions[:n]) for n in range(4)), None]
    assert len(reader.finished(5)) == 1
    writer.close()
    reader.close()


def test_the_log_and_a_database_copy_are_private_whatever_the_umask(tmp_path: Path) -> None:
    """Issue 39, item 8: table.log and export --database's copy were 0644."""
    import logging

    from firmware.startup import start_logging

    old = os.umask(0o022)
    try:
        start_logging(tmp_path / "state")
        logging.getLogger("test").warning("a line")
        store = Store(tmp_path / "state")
        store.save(GAME)
        store.backup(tmp_path / "copy.db")
        store.close()
    finally:
        os.umask(old)
        logging.basicConfig(handlers=[logging.StreamHandler()], force=True)
    made = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "state").iterdir()}
    made["copy.db"] = (tmp_path / "copy.db").stat().st_mode & 0o777
    assert set(made.values()) == {0o600} and "table.log" in made, made
    assert (tmp_path / "state").stat().st_mode & 0o777 == 0o700


def test_an_empty_database_of_ours_reads_as_no_games_not_as_someone_elses(
        tmp_path: Path) -> None:
    """Issue 39: a database before its first commit (or one whose commits were all lost)
    was "not a Robinson Table database" to the readers; it holds no games, and says so."""
    db = sqlite3.connect(tmp_path / "robinson.db")
    db.execute("PRAGMA journal_mode = WAL")  # a header, and nothing else
    db.close()
    reader = Store(tmp_path, read_only=True)
    loaded = reader.load()
    assert (loaded.game, loaded.problem, reader.finished(10)) == (None, None, [])
    reader.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["robinson.db"]  # nothing made


# -- the store's own words and settings, in this process (the mutation runs see them) --


def test_a_newer_database_of_ours_is_refused_by_the_writer_here_too(tmp_path: Path) -> None:
    """Ours, its tables as ours, a schema version past this one's: refused, never played
    on (tests/saves/test_store_faults.py sees the same through the table's process)."""
    from firmware.saves.faults import Fault, StateDirectoryError
    from firmware.saves.rows import SCHEMA_VERSION

    store = Store(tmp_path)
    store.save(GAME)
    store.close()
    plant(tmp_path, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = (tmp_path / "robinson.db").read_bytes()
    with pytest.raises(StateDirectoryError) as raised:
        Store(tmp_path).load()
    assert raised.value.kind is Fault.NEWER and "newer version" in str(raised.value)
    assert (tmp_path / "robinson.db").read_bytes() == before


def test_every_commit_waits_for_the_disk(tmp_path: Path) -> None:
    """WAL with synchronous=FULL: a commit is on the disk before save() returns."""
    store = Store(tmp_path)
    store.save(GAME)
    db = store._connection()
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    store.close()


def test_the_ledger_keeps_the_finished_games_fingerprint_as_each_put_away_leaves_it(
        tmp_path: Path) -> None:
    from firmware.saves.rows import kept_digest

    store = Store(tmp_path)
    for _ in range(3):
        store.save(GAME)
        store.put_away(GAME, None)
        assert store.ledger.last is not None
        assert store.ledger.last.kept == kept_digest(store._connection())
    store.close()


def test_a_game_in_play_that_does_not_replay_is_said_and_marked_damaged(
        tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(GAME)
    store.close()
    plant(tmp_path, "UPDATE action SET token = '9' WHERE seq = 1")
    store = Store(tmp_path)
    loaded = store.load()
    assert loaded.game is None and loaded.problem == (
        "the game in play does not replay (the saved game does not replay: '9' is not a die "
        "face 1-6 or a decision word (roll, stay, again, pass, jump, restart)): kept in the "
        "database, marked damaged, written out as damaged/game-1.txt")
    store.close()
    db = sqlite3.connect(tmp_path / "robinson.db")
    assert db.execute("SELECT ended FROM game WHERE id = 1").fetchone() == ("damaged",)
    db.close()


def test_a_reader_says_a_database_it_cannot_read_in_one_line(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.save(GAME)
    store.close()
    db = sqlite3.connect(tmp_path / "robinson.db")
    page = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'one_game_in_play'"
                      ).fetchone()[0]
    db.close()
    data = bytearray((tmp_path / "robinson.db").read_bytes())
    data[(root - 1) * page:(root - 1) * page + 12] = b"\xee" * 12  # its page's header
    (tmp_path / "robinson.db").write_bytes(bytes(data))
    loaded = Store(tmp_path, read_only=True).load()
    assert loaded.game is None and loaded.problem == (
        "robinson.db cannot be read ('database disk image is malformed')"), loaded.problem


def test_why_a_database_was_set_aside_is_cut_to_eighty_characters(tmp_path: Path) -> None:
    from robinson_core.errors import quote

    store = Store(tmp_path)
    store.save(GAME)
    store.close()
    plant(tmp_path, "CREATE TABLE a (x); CREATE TABLE b (x); CREATE TABLE c (x); "
                    "CREATE TABLE d (x);")
    store = Store(tmp_path)
    loaded = store.load()
    store.close()
    why = ("its tables are not ours: a table 'a' that is not ours, a table 'b' that is not "
           "ours, a table 'c' that is not ours and 1 more")
    assert len(why) > 80 and loaded.game == GAME
    assert loaded.problem == (f"robinson.db: damaged ({quote(why, 80)}); 1 of 1 games "
                              "recovered into a new one (kept in damaged/ as robinson.db.1)")


def test_a_read_of_a_database_with_tables_not_ours_says_so_and_moves_nothing(
        tmp_path: Path) -> None:
    """A read command (history, export) on a database another program added a table to:
    its words say what is wrong and what to do; the file stays where it is."""
    store = Store(tmp_path)
    store.save(GAME)
    store.close()
    plant(tmp_path, "CREATE TABLE a (x);")
    loaded = Store(tmp_path, read_only=True).load()
    assert loaded.game is None and loaded.problem == (
        "robinson.db is damaged (its tables are not ours: a table 'a' that is not ours): "
        "start the table to set it aside and recover the games"), loaded.problem
    assert not (tmp_path / "damaged").exists()


def test_keeping_copies_of_files_not_there_says_nothing_was_kept(tmp_path: Path) -> None:
    from firmware.saves.folder import Folder

    folder = Folder(tmp_path)
    assert folder.keep(tmp_path / "robinson.db", tmp_path / "robinson.db-wal") == (
        "nothing (no file was there)")
    (tmp_path / "robinson.db").write_bytes(b"x")
    assert folder.keep(tmp_path / "robinson.db", tmp_path / "robinson.db-wal") == (
        "robinson.db.1")


def put_away_three(folder: Path) -> Store:
    """A store with three games put away (won, put away in play, won) and one in play."""
    store = Store(folder)
    for game in (WON, GAME, WON):
        store.save(game)
        store.put_away(game, Game((1, 2)))
    store.save(GAME)
    return store


def test_the_games_put_away_are_listed_from_their_summaries_reading_no_action(
        tmp_path: Path) -> None:
    store = put_away_three(tmp_path)
    read: list[str] = []
    store._connection().set_trace_callback(read.append)
    listed = store.recent(10)
    assert [(s.number, s.ended, s.winner) for s in listed] == [
        (3, "won", WON.state.winner), (2, "abandoned", None), (1, "won", WON.state.winner)]
    assert all(s.finished_at is not None for s in listed)
    assert listed[0].standings == ((1, 25, None, 45), (2, 15, None, 16))  # as WON ended
    assert read and not [sql for sql in read if "action" in sql]  # no game replayed
    assert [f.summary for f in store.finished(10)] == listed  # the same as replayed
    assert store.recent(2) == listed[:2]


@pytest.mark.parametrize(("planted", "replays"), [
    ("DELETE FROM meta WHERE key = 'summary 3'", 1),  # put away by a version without them
    ("UPDATE meta SET value = '2' || substr(value, 2) WHERE key = 'summary 3'", 1),  # who won
    ("UPDATE meta SET value = 'summary' WHERE key = 'summary 3'", 1),
    ("UPDATE meta SET value = replace(value, '1:25:', '1:99:') WHERE key = 'summary 3'", 1),
    ("UPDATE meta SET value = replace(value, ' 1:25:-:45;', ' ') WHERE key = 'summary 3'", 1),
    ("DELETE FROM meta WHERE key = 'summary 3'; "  # another game's (the same game, won the
     "UPDATE meta SET key = 'summary 3' WHERE key = 'summary 1'", 2),  # same way): both
])
def test_a_summary_that_cannot_be_trusted_is_replayed_instead(tmp_path: Path, planted: str,
                                                               replays: int) -> None:
    put_away_three(tmp_path).close()
    before = Store(tmp_path).recent(10)
    plant(tmp_path, planted)
    store = Store(tmp_path)
    read: list[str] = []
    store._connection().set_trace_callback(read.append)
    listed = store.recent(10)
    replayed = [sql for sql in read if "FROM action WHERE game =" in sql]
    assert listed == before  # who won read again from the game itself
    assert len(replayed) == replays  # those games alone


def test_a_summary_written_before_the_standings_were_kept_is_trusted_for_who_won(
        tmp_path: Path) -> None:
    """A game put away by a version that kept who won only: listed as it won, without
    how each stood, and not replayed (ten such games are not replayed at every look)."""
    put_away_three(tmp_path).close()
    db = sqlite3.connect(tmp_path / "robinson.db")
    digest, = db.execute("SELECT digest FROM game WHERE id = 3").fetchone()
    db.execute("UPDATE meta SET value = ? WHERE key = 'summary 3'",
               (rows._sealed(3, digest, WON.state.winner),))
    db.commit()
    db.close()
    store = Store(tmp_path)
    read: list[str] = []
    store._connection().set_trace_callback(read.append)
    listed = store.recent(10)
    assert (listed[0].number, listed[0].winner, listed[0].standings) == (
        3, WON.state.winner, ())
    assert listed[2].standings == ((1, 25, None, 45), (2, 15, None, 16))
    assert not [sql for sql in read if "FROM action WHERE game =" in sql]
    store.close()


def test_standings_read_back_as_kept_below_zero_too() -> None:
    """How each stood is read back as it was written: chips below zero (house rule
    debt) too, where an unreadable one would have the game replayed at every look."""
    stood = (rows.Final(1, -3, 2, 45), rows.Final(2, 0, None, None), rows.Final(8, 123, None, 0))
    assert rows._stood(rows._said(stood)) == stood
    assert [rows._stood(bad) for bad in ("1:x:-:45", "1:3:-", "1:-:-:45", "1:3:-:45;", "")] == [
        None] * 5


def test_a_summary_is_sealed_to_its_rows_digest(tmp_path: Path) -> None:
    put_away_three(tmp_path).close()
    db = sqlite3.connect(tmp_path / "robinson.db")
    assert [getattr(s, "number", s) for s in rows.summaries(db, 10)] == [3, 2, 1]
    assert all(isinstance(s, rows.Summary) for s in rows.summaries(db, 10))
    db.execute("UPDATE game SET digest = 'x' || substr(digest, 2) WHERE id = 3")
    found = rows.summaries(db, 10)
    assert found[0] == 3 and all(isinstance(s, rows.Summary) for s in found[1:])
    db.close()


def test_only_the_games_kept_keep_a_summary(tmp_path: Path) -> None:
    store = Store(tmp_path)
    for _ in range(KEEP_FINISHED + 2):
        store.save(GAME)
        store.put_away(GAME, Game((1, 2)))
    keys = [key for (key,) in store._connection().execute(
        "SELECT key FROM meta WHERE key GLOB 'summary *'")]
    assert len(keys) == KEEP_FINISHED and "summary 1" not in keys and "summary 2" not in keys
    assert len(store.recent(1000)) == KEEP_FINISHED
