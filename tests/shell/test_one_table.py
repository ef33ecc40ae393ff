"""One table per state directory: a second one stops at once, in one line, and the first
loses nothing."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

ROBINSON = Path(sys.executable).with_name("robinson")


def test_a_second_table_on_the_same_directory_refuses_and_the_first_goes_on(
        tmp_path: Path) -> None:
    state = tmp_path / "state"
    notify = tmp_path / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.settimeout(30)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    first = subprocess.Popen([ROBINSON, "table", "--hardware", "emulate", "--seats", "1,2",
                              "--no-animation", "--state-dir", str(state)],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, env={**env, "NOTIFY_SOCKET": str(notify)})
    try:
        assert listener.recv(64) == b"READY=1"
        second = subprocess.run([ROBINSON, "table", "--hardware", "emulate", "--state-dir",
                                 str(state)], capture_output=True, text=True, env=env,
                                stdin=subprocess.DEVNULL, timeout=30, check=False)
        assert second.returncode == 3  # (the unit tries again: the other one may end)
        assert second.stderr.count("\n") == 1
        assert f"another table is running on {state} (pid {first.pid})" in second.stderr
        assert first.stdin is not None
        first.stdin.write(b"hh q")  # the first table still plays: a game, a roll, quit
        first.stdin.close()
        assert first.wait(timeout=30) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
        listener.close()
        if first.stderr:
            first.stderr.close()
    saved = subprocess.run([ROBINSON, "state", "--state-dir", str(state), "--json"],
                           capture_output=True, text=True, env=env, check=False)
    assert saved.returncode == 0 and '"actions": ["' in saved.stdout  # its roll is on disk
    after = subprocess.run([ROBINSON, "table", "--hardware", "emulate", "--state-dir",
                            str(state)], capture_output=True, text=True, env=env,
                           stdin=subprocess.DEVNULL, timeout=30, check=False)
    assert after.returncode == 0, after.stderr  # the lock went with the first table


def table_on(state: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """``robinson table`` emulated on ``state``, with nothing to read: how it ends."""
    return subprocess.run([ROBINSON, "table", "--hardware", "emulate", "--state-dir",
                           str(state)], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(home)},
                          stdin=subprocess.DEVNULL, timeout=30, check=False)


def test_a_file_where_the_state_directory_should_be_is_one_line(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.write_text("not a folder")
    run = table_on(state, tmp_path)
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert f"cannot use {state} for the saved games" in run.stderr


def test_a_link_planted_at_the_lock_is_one_line_and_nothing_is_made_where_it_points(
        tmp_path: Path) -> None:
    """A symbolic link where the table's lock goes (someone's, to a file of their choice)
    is never followed: the table stops with one line naming it and what to do."""
    state, elsewhere = tmp_path / "state", tmp_path / "elsewhere"
    state.mkdir()
    (state / "table.lock").symlink_to(elsewhere)
    run = table_on(state, tmp_path)
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    assert f"{state / 'table.lock'} is a symbolic link, which the table never follows: " \
           "remove it" in run.stderr, run.stderr
    assert not elsewhere.exists()


def test_a_state_folder_that_is_a_dangling_link_is_said_as_one(tmp_path: Path) -> None:
    """The state folder is a symbolic link to a folder that is gone (a USB stick not
    mounted): one line saying so and what to do, not "File exists"."""
    state = tmp_path / "state"
    state.symlink_to(tmp_path / "stick")
    run = table_on(state, tmp_path)
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    assert f"{state} is a symbolic link to {tmp_path / 'stick'}, which does not exist: " \
           "make that folder" in run.stderr, run.stderr
    assert not (tmp_path / "stick").exists()
