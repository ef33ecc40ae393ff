"""Faults at every edge: the bus, the disk, the books, the inputs. The game goes on."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from pathlib import Path

import pytest

from firmware.display import screens
from firmware.saves.store import Store
from firmware.table.state import Mode
from robinson_core import Game, Roll

from ..rig import Rig


def playing(rigs: list[Rig], tmp_path: Path, faces: Sequence[int] = (), **kw: object) -> Rig:
    rig = Rig(tmp_path / "state", seats_on=(1, 2, 3), faces=faces, animate=False, **kw)  # type: ignore[arg-type]
    rigs.append(rig)
    rig.wait(2.5)
    rig.long()
    assert rig.table.mode is Mode.PLAY
    return rig


# -- the display ------------------------------------------------------------------


def test_a_bus_that_fails_some_writes_loses_no_game_and_no_screen(
        rigs: list[Rig], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    rig = playing(rigs, tmp_path, faces=[3, 4, 2, 6, 1])
    writes = {"n": 0}

    def flaky(control: int, payload: Sequence[int]) -> None:
        writes["n"] += 1
        if writes["n"] % 7 == 0:
            raise OSError(121, "Remote I/O error")

    rig.bus.fault = flaky
    with caplog.at_level(logging.WARNING, logger="robinson.panel"):
        for _ in range(5):
            rig.short()
            rig.wait(1.5)  # a fault is retried within a second
    assert rig.table.game is not None and len(rig.table.game.actions) == 5
    rig.bus.fault = None
    rig.wait(1.5)
    expected = screens.result_screen(rig.table.words, rig.table.game)
    assert rig.table.screen == expected and rig.showing(expected, rig.table.page)
    assert rig.panel.faults > 0


def test_a_panel_that_drops_off_comes_back_with_the_right_screen(
        rigs: list[Rig], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    rig = playing(rigs, tmp_path, faces=[3, 4, 2])

    def gone(control: int, payload: Sequence[int]) -> None:
        raise OSError(121, "Remote I/O error")

    rig.bus.fault = gone
    with caplog.at_level(logging.WARNING, logger="robinson.panel"):
        for _ in range(3):  # presses still work while the panel is away
            rig.short()
            rig.wait(0.4)
        rig.wait(10)
    assert rig.table.game is not None and len(rig.table.game.actions) == 3
    warnings = [r for r in caplog.records if r.name == "robinson.panel"]
    assert 1 <= len(warnings) <= 12  # at most one line a second over ~12 s of faults
    rig.bus.fault = None
    rig.bus.power_cycle()  # memory lost, the panel off
    assert not rig.bus.on
    rig.wait(2.0)  # within 2 s of coming back
    assert rig.bus.on
    expected = screens.result_screen(rig.table.words, rig.table.game)
    assert rig.table.screen == expected and rig.showing(expected, rig.table.page)


# -- the books ------------------------------------------------------------------------


def test_the_audit_stops_rolls_when_the_books_do_not_balance(rigs: list[Rig],
                                                            tmp_path: Path) -> None:
    rig = playing(rigs, tmp_path, faces=[3, 4, 5])
    rig.short()
    game = rig.table.game
    assert game is not None
    state, events = game.history[-1]
    player = state.players[0]
    cheat = state.__class__(
        (player.__class__(player.seat, player.position, player.chips + 5),
         *state.players[1:]), state.pot, state.rules, state.to_move, state.pending)
    game.__dict__["history"] = (*game.history[:-1], (cheat, events))  # corrupted in memory
    rig.wait(1.0)
    rig.short()
    assert rig.rolled == 1  # no roll on wrong money
    assert rig.table.state.audit is not None
    text = rig.table.words("audit_failed", detail=rig.table.state.audit)
    assert rig.showing(screens.message_screen(rig.table.words("notice"), text))
    rig.menu()
    rig.short()
    rig.short()  # past Repeat, to Undo
    rig.long()
    rig.long()  # undo: yes
    assert rig.table.game is not None and rig.table.game.actions == ()
    rig.short()  # the roll taken back comes again: the die is not asked
    assert rig.rolled == 1 and rig.game.actions == (Roll(3),)
    assert rig.table.state.audit is None




# -- the disk ---------------------------------------------------------------------------


def test_a_full_disk_keeps_the_game_in_memory_and_says_so(tmp_path: Path) -> None:
    broken_disk("full", tmp_path)


def test_a_deleted_save_directory_is_made_again(rigs: list[Rig], tmp_path: Path) -> None:
    import shutil

    rig = playing(rigs, tmp_path, faces=[3, 4])
    rig.short()
    shutil.rmtree(tmp_path / "state")
    rig.short()
    game = rig.table.game
    assert game is not None and len(game.actions) == 2
    # As a restart would find it: not the file the folder held before it was removed.
    assert Store(tmp_path / "state", read_only=True).load().game == game


def _damage(database: Path, damage: str) -> None:
    """What an SD card, a person or another program can do to the database file."""
    import os
    import sqlite3

    data = database.read_bytes()
    if damage == "truncated":
        database.write_bytes(data[: len(data) // 2 + 100])
    elif damage == "zeroed":
        database.write_bytes(bytes(len(data)))
    elif damage == "random bytes":
        database.write_bytes(os.urandom(len(data)))
    elif damage == "newer":
        db = sqlite3.connect(database)
        db.execute("PRAGMA user_version = 2")
        db.commit()
        db.close()
    elif damage == "not ours":  # another program's database in its place
        database.unlink()
        db = sqlite3.connect(database)
        db.execute("CREATE TABLE photo (name TEXT)")
        db.execute("PRAGMA application_id = 7")
        db.commit()
        db.close()
    elif damage == "a page scribbled":  # a table's b-tree page overwritten mid-file
        page = 4096
        database.write_bytes(data[:page] + os.urandom(page) + data[2 * page:])


@pytest.mark.parametrize("damage", ["truncated", "zeroed", "random bytes", "not ours",
                                    "a page scribbled"])
def test_a_damaged_database_is_set_aside_whole_and_the_table_starts_clean(
        rigs: list[Rig], tmp_path: Path, damage: str) -> None:
    """Damage SQLite cannot read past (or another program's file): set aside whole, with
    what could be recovered (nothing, here: the one game's pages are gone)."""
    rig = playing(rigs, tmp_path, faces=[3, 4, 5])
    for _ in range(3):
        rig.short()
    rig.close()
    database = tmp_path / "state" / "robinson.db"
    assert not database.with_name("robinson.db-wal").exists()  # closed cleanly: all in one
    before = database.read_bytes()
    _damage(database, damage)
    again = Rig(tmp_path / "state", seats_on=(1, 2, 3), faces=[6], animate=False)
    rigs.append(again)
    assert again.table.game is None
    said = " ".join(again.table.screen.body)  # the title says so, and why
    assert "robinson.db" in said
    assert {"not ours": "not a Robinson Table database",
            "truncated": "no game could be read from it",
            "a page scribbled": "0 of 1 games recovered into a new one",
            }.get(damage, "not a database") in said, said
    kept = sorted(p.name for p in (tmp_path / "state" / "damaged").iterdir())
    assert kept == ["robinson.db.1"]
    assert (tmp_path / "state" / "damaged" / "robinson.db.1").read_bytes() != before
    again.wait(6)
    again.long()  # and a new game plays and is saved
    again.short()
    assert again.table.game is not None and len(again.table.game.actions) == 1
    assert Store(tmp_path / "state", read_only=True).load().game == again.table.game


@pytest.mark.parametrize("damage", ["a token", "the rules", "the seats"])
def test_a_damaged_row_costs_that_game_only(rigs: list[Rig], tmp_path: Path,
                                            damage: str) -> None:
    import sqlite3

    rig = playing(rigs, tmp_path, faces=[3, 4, 5])
    for _ in range(3):
        rig.short()
    rig.close()
    database = tmp_path / "state" / "robinson.db"
    db = sqlite3.connect(database)
    db.execute({"a token": "UPDATE action SET token = '6' WHERE seq = 2",
                "the rules": "UPDATE game SET rules = replace(rules, 'purse=20', 'purse=99')",
                "the seats": "UPDATE game SET seats = '1 2'"}[damage])
    db.commit()
    db.close()
    again = Rig(tmp_path / "state", seats_on=(1, 2, 3))
    rigs.append(again)
    assert again.table.game is None and again.table.mode is Mode.TITLE
    body = " ".join(again.table.screen.body)
    assert "marked damaged" in body, body
    kept = sqlite3.connect(database).execute("SELECT ended, count(*) FROM game").fetchall()
    assert kept == [("damaged", 1)]  # kept for a person to look at, not deleted


# -- the inputs ---------------------------------------------------------------------------


def test_chattering_seat_switches_settle_to_their_final_state(rigs: list[Rig],
                                                              tmp_path: Path) -> None:
    rig = Rig(tmp_path / "state", seats_on=(1,))
    rigs.append(rig)
    rig.wait(2.5)
    pins = rig.seat_pins
    for _ in range(30):  # switches bouncing as a child flips them
        pins[1].drive_low()
        pins[2].drive_low()
        pins[1].drive_high()
        pins[2].drive_high()
    pins[1].drive_low()  # seat 2 ends on, seat 3 off
    rig.run()
    rig.wait(0.1)
    assert rig.table.seats.occupied() == (1, 2)
    assert rig.showing(screens.setup_screen(rig.table.words, (1, 2), 1, rig.config.rules))


def test_a_stuck_button_gives_no_phantom_rolls(rigs: list[Rig], tmp_path: Path) -> None:
    rig = playing(rigs, tmp_path, faces=[3])
    rig.button_pin.drive_low()  # stuck down from now on
    rig.run()
    rig.wait(60)
    assert rig.rolled == 0


def test_recall_survives_a_restart(rigs: list[Rig], tmp_path: Path) -> None:
    from robinson_core import play_script

    rig = playing(rigs, tmp_path, faces=[3, 4, 5, 6])
    rig.table.begin(play_script(Game((1, 2)), "6 2 5 3 3 1 6 again 3 jump 6 1 6 3 6 1 5"))
    rig.long()  # the won game goes to the archive, a new one begins
    for _ in range(4):
        rig.short()
    rig.close()
    again = Rig(tmp_path / "state", seats_on=(1, 2))
    rigs.append(again)
    again.short()  # resume
    again.menu()
    for _ in range(4):  # to Recall
        again.short()
    again.long()  # Recall
    screen = again.table.screen
    assert screen.badge == again.table.words("recall_badge")
    body = " ".join(screen.body)
    assert screen.title == "Last turns" and "RECALL" not in screen.title + body
    assert "14.\u00a0" in body and "Last games" in body and "won" in body


def test_a_save_directory_that_turns_read_only(tmp_path: Path) -> None:
    broken_disk("readonly", tmp_path)


def broken_disk(kind: str, tmp_path: Path) -> None:
    """A real tmpfs in a private mount namespace, broken mid-game (tests/broken_disk.py)."""
    import shutil
    import subprocess
    import sys

    if shutil.which("unshare") is None:
        pytest.skip("needs unshare (util-linux)")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip("no private mount namespace here (needs root): " + probe.stderr.decode())
    if kind == "readonly" and not (shutil.which("mkfs.ext4") and Path("/dev/loop-control")
                                   .exists()):
        pytest.skip("needs mkfs.ext4 and loop devices (an ext4 that fails like an SD card)")
    folder = tmp_path / "disk"
    folder.mkdir()
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run(["unshare", "-m", sys.executable, "-m", "tests.broken_disk", kind,
                          str(folder)], capture_output=True, text=True, cwd=root, check=False,
                         timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr


def test_a_session_that_could_not_save_ends_not_0_and_says_what_was_lost(
        tmp_path: Path) -> None:
    """Issue 59: a table whose disk filled up mid-session stopped with status 0, as if all
    was well. ``robinson table`` on a 1 MB tmpfs (a private mount namespace), filled once
    the title is out; a game begun (its save refused), then SIGTERM: status 1, and one
    line saying how many actions were not saved, why, and what to do."""
    import shutil
    import signal
    import subprocess
    import sys
    import time

    if shutil.which("unshare") is None:
        pytest.skip("needs unshare (util-linux)")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip("no private mount namespace here (needs root): " + probe.stderr.decode())
    folder = tmp_path / "state"
    folder.mkdir()
    robinson = Path(sys.executable).with_name("robinson")
    script = 'mount -t tmpfs -o size=1m,mode=0700 tmpfs "$1" && exec "$2" table --emulate ' \
        '--state-dir "$1" --seats 1,2 --no-animation'
    errors = (tmp_path / "stderr.txt").open("w+b")
    table = subprocess.Popen(["unshare", "-m", "sh", "-c", script, "sh", str(folder),
                              str(robinson)], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=errors)
    inside = Path(f"/proc/{table.pid}/root{folder}")  # the tmpfs, as the table sees it

    def said(text: str, within: float) -> bool:
        end = time.monotonic() + within
        while time.monotonic() < end and table.poll() is None:
            if text in (tmp_path / "stderr.txt").read_text(errors="replace"):
                return True
            time.sleep(0.05)
        return False

    try:
        end = time.monotonic() + 30
        while not (inside / "robinson.ledger").exists():  # opened: the title is out
            assert table.poll() is None and time.monotonic() < end, "no start"
            time.sleep(0.05)
        with contextlib.suppress(OSError), (inside / "fill").open("wb") as fill:
            while True:  # the disk full
                fill.write(b"\0" * 65536)
                fill.flush()
        assert table.stdin is not None
        table.stdin.write(b"hh")  # a new game: a long press on the title, then the setup
        table.stdin.flush()
        assert said("disk full", 20), (tmp_path / "stderr.txt").read_text()
        table.send_signal(signal.SIGTERM)
        status = table.wait(timeout=30)
    finally:
        if table.poll() is None:
            table.kill()
            table.wait()
        if table.stdin is not None:
            table.stdin.close()
        errors.close()
    last = (tmp_path / "stderr.txt").read_text(errors="replace").strip().splitlines()[-1]
    assert status == 1, (status, last)
    assert "stopped with 1 action of this session not saved (disk full): the disk " \
        f"holding {folder} is full: free some space" in last, last
