"""The systemd unit, and the readiness and watchdog protocol against a real socket."""

from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware.notify import Notifier
from firmware.runtime.loop import Loop

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "robinson-table.service"
WEB_UNIT = ROOT / "systemd" / "robinson-web.service"
WEB_SOCKET = ROOT / "systemd" / "robinson-web.socket"
ROBINSON = Path(sys.executable).with_name("robinson")
needs_systemd = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                   reason="./test.sh installs systemd; run it that way")


def unit_with_existing_binary(tmp_path: Path, unit: Path = UNIT) -> Path:
    """The unit as shipped, but ExecStart pointing at a binary this machine has:
    verify exits 1 for a missing ExecStart binary, and /opt/robinson-table is not here."""
    text = unit.read_text().replace("/opt/robinson-table/venv/bin/robinson", str(ROBINSON))
    copy = tmp_path / unit.name
    copy.write_text(text)
    return copy


def exposure_of(unit: Path) -> float:
    run = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(unit)],
                         capture_output=True, text=True, check=False)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", run.stdout + run.stderr)
    assert found, run.stdout + run.stderr
    return float(found.group(1))


@needs_systemd
def test_the_unit_verifies_silently(tmp_path: Path) -> None:
    run = subprocess.run(["systemd-analyze", "verify", str(unit_with_existing_binary(tmp_path))],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0 and run.stdout == "" and run.stderr == "", run.stderr


@needs_systemd
def test_the_unit_exposure_is_at_most_2(tmp_path: Path) -> None:
    exposure = exposure_of(unit_with_existing_binary(tmp_path))
    print(f"\nsystemd-analyze security exposure: {exposure}")
    assert exposure <= 2.0


@needs_systemd
def test_the_pages_units_verify_and_its_exposure_is_at_most_2_5(tmp_path: Path) -> None:
    """The companion page: its socket on port 80, its service hardened as the table's
    (no devices, nothing writable, the home network's addresses only)."""
    service = unit_with_existing_binary(tmp_path, WEB_UNIT)
    socket_unit = unit_with_existing_binary(tmp_path, WEB_SOCKET)
    run = subprocess.run(["systemd-analyze", "verify", str(service), str(socket_unit)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0 and run.stdout == "" and run.stderr == "", run.stderr
    exposure = exposure_of(service)
    print(f"\nsystemd-analyze security exposure of the page: {exposure}")
    assert exposure <= 2.5
    text = WEB_UNIT.read_text()
    for line in ("ProtectSystem=strict", "PrivateDevices=yes", "CapabilityBoundingSet=\n",
                 "User=robinson", "IPAddressDeny=any",
                 "IPAddressAllow=localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 "
                 "fc00::/7"):
        assert line in text, line
    assert "ListenStream=80\n" in WEB_SOCKET.read_text()
    # The table's unit stays closed to the network: the page reaches it by its seam.
    table = UNIT.read_text()
    assert "PrivateNetwork=yes" in table and "RestrictAddressFamilies=AF_UNIX\n" in table


def test_the_unit_is_watched_restarted_and_sandboxed() -> None:
    text = UNIT.read_text()
    for line in ("Type=notify", "WatchdogSec=", "Restart=on-failure",
                 "StartLimitIntervalSec=0\n", "RestartPreventExitStatus=2\n",
                 "StateDirectory=robinson-table", "WorkingDirectory=%t/robinson-table",
                 "Environment=LG_WD=%t/robinson-table", "RuntimeDirectoryMode=0700",
                 "User=robinson", "SupplementaryGroups=gpio i2c spi", "DevicePolicy=closed",
                 "ProtectSystem=strict", "PrivateNetwork=yes", "NoNewPrivileges=yes",
                 "CapabilityBoundingSet=\n", "RestrictAddressFamilies=AF_UNIX",
                 "SystemCallFilter=@system-service"):
        assert line in text, line


class Listener:
    """The systemd side: a datagram socket that notes what arrives, and when."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.05)
        self.got: list[tuple[float, str]] = []
        self.running = True
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self) -> None:
        while self.running:
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            self.got.append((time.monotonic(), data.decode()))

    def messages(self, name: str) -> list[float]:
        return [t for t, m in self.got if m == name]

    def close(self) -> None:
        self.running = False
        self.thread.join()
        self.sock.close()


def test_notifier_speaks_to_a_real_socket_and_an_abstract_one(tmp_path: Path) -> None:
    listener = Listener(tmp_path / "notify")
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "2000000"})
    notifier.ready()
    notifier.ping()
    time.sleep(0.2)
    notifier.close()
    listener.close()
    assert [m for _, m in listener.got] == ["READY=1", "WATCHDOG=1"]
    assert notifier.watchdog == 2.0
    abstract = Notifier({"NOTIFY_SOCKET": "@robinson-test"})
    assert abstract.address == "\0robinson-test"


def test_watchdog_pings_stop_while_the_loop_is_stuck(tmp_path: Path) -> None:
    from firmware.session import _watchdog

    listener = Listener(tmp_path / "notify")
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "200000"})
    loop = Loop()
    _watchdog(loop, notifier, 0.1)
    stuck: list[float] = []

    def hang() -> None:
        stuck.append(time.monotonic())
        time.sleep(0.8)  # a hung main loop
        stuck.append(time.monotonic())

    loop.call_later(0.5, hang)
    loop.call_later(1.8, loop.stop)
    loop.run()
    notifier.close()
    listener.close()
    pings = listener.messages("WATCHDOG=1")
    during = [t for t in pings if stuck[0] + 0.02 < t < stuck[1]]
    assert during == []
    assert len([t for t in pings if t < stuck[0]]) >= 3  # pinging before
    assert len([t for t in pings if t > stuck[1]]) >= 3  # and again after


def test_the_app_reports_ready_after_its_first_frame_and_pings_at_half_the_interval(
        tmp_path: Path) -> None:
    listener = Listener(tmp_path / "notify")
    env = {"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "600000",
           "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    capture = tmp_path / "frames"
    app = subprocess.Popen([ROBINSON, "table", "--emulate", "--state-dir", str(tmp_path / "s"),
                            "--capture", str(capture)],
                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, env=env)
    time.sleep(3.0)
    assert app.stdin is not None
    app.stdin.write(b"q")
    app.stdin.close()
    assert app.wait(timeout=20) == 0
    stderr = app.stderr.read().decode() if app.stderr else ""
    if app.stderr:
        app.stderr.close()
    listener.close()
    messages = [m for _, m in listener.got]
    assert messages[0] == "READY=1" and messages[-1] == "STOPPING=1", (messages, stderr)
    assert (capture / "frame-00001.png").exists()  # a frame was out before READY
    pings = listener.messages("WATCHDOG=1")
    gaps = sorted(b - a for a, b in itertools.pairwise(pings))
    # Half of the 0.6 s interval, as a rule; never a gap that would trip the watchdog.
    assert len(pings) >= 5 and 0.25 <= gaps[len(gaps) // 2] <= 0.4, gaps
    assert max(gaps) < 0.6, gaps


def test_on_stop_the_game_is_saved_and_the_panel_says_switched_off(tmp_path: Path) -> None:
    import signal

    from PIL import Image

    from firmware.display.render import render
    from firmware.display.screens import message_screen
    from firmware.display.words import Words
    from firmware.saves.store import Store

    from ..rig import FONTS

    capture, state = tmp_path / "frames", tmp_path / "state"
    app = subprocess.Popen([ROBINSON, "table", "--emulate", "--no-animation", "--seats", "1,2",
                            "--state-dir", str(state), "--capture", str(capture), "--seed", "4"],
                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
    assert app.stdin is not None
    app.stdin.write(b"h h   ")  # a new game, three rolls
    app.stdin.flush()

    def rolled() -> int:  # read as `robinson state` reads, beside the running table
        if not (state / "robinson.db").exists():
            return 0
        game = Store(state, read_only=True).load().game
        return len(game.actions) if game is not None else 0

    deadline = time.monotonic() + 60  # a backstop: three presses take some 3 s
    while rolled() < 3:
        assert app.poll() is None and time.monotonic() < deadline, rolled()
        time.sleep(0.1)
    app.send_signal(signal.SIGTERM)  # what systemctl stop sends
    assert app.wait(timeout=20) == 0
    app.stdin.close()
    if app.stderr:
        app.stderr.close()
    saved = Store(state).load().game
    assert saved is not None and len(saved.actions) == 3
    last = sorted(capture.glob("frame-*.png"))[-1]
    words = Words("en")
    expected = render(message_screen("ROBINSON", words("switched_off")), FONTS)
    assert Image.open(last).convert("1").tobytes() == expected.tobytes()


def test_pins_that_cannot_be_opened_are_one_clear_line() -> None:
    from gpiozero import Button
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from firmware.config.settings import Config
    from firmware.emulate.rig import emulate
    from firmware.errors import HardwareError

    factory = MockFactory(pin_class=MockPWMPin)
    holder = Button(Config().pins.button, pin_factory=factory)  # the service holds the pin
    try:
        with pytest.raises(HardwareError, match=r"in use.*systemctl stop robinson-table"):
            emulate(Config(), pin_factory=factory)
    finally:
        holder.close()


LOCK_SECONDS = float(os.environ.get("ROBINSON_LOCK_SECONDS", "12"))
"""How long the foreign write lock is held: 12 s in the suite (past the unit's 10 s
watchdog), 60 for the issue's measurement (ROBINSON_LOCK_SECONDS=60)."""


def test_a_foreign_write_lock_neither_stalls_the_loop_nor_loses_what_is_shown(
        tmp_path: Path) -> None:
    """Issue 39, item 4: another program holding the database's write lock froze the
    loop 5 s a save (SQLite's busy timeout in its thread), and systemd's watchdog killed
    the table with its unsaved actions. A demo plays on through the lock: the watchdog
    is fed every half interval, frames keep coming, the saves are tried again, and once
    the lock is gone every shown action is on disk."""
    import sqlite3

    from firmware.saves.store import Store

    listener = Listener(tmp_path / "notify")
    env = {"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "1000000",
           "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    state, capture = tmp_path / "s", tmp_path / "frames"
    app = subprocess.Popen([ROBINSON, "table", "--demo", "--state-dir", str(state),
                            "--capture", str(capture)], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 30
        while "READY=1" not in [m for _, m in listener.got] or not (
                state / "robinson.db").exists():
            assert time.monotonic() < deadline and app.poll() is None
            time.sleep(0.1)
        time.sleep(3.0)  # a game under way
        other = sqlite3.connect(state / "robinson.db", isolation_level=None, timeout=5)
        other.execute("BEGIN IMMEDIATE")  # another program, writing for a while
        began, frames = time.monotonic(), len(list(capture.glob("frame-*.png")))
        time.sleep(LOCK_SECONDS)
        held = time.monotonic(), len(list(capture.glob("frame-*.png")))
        other.execute("ROLLBACK")
        other.close()
        time.sleep(4.0)  # the retry's 3 s: what was shown goes to disk
        app.send_signal(signal.SIGTERM)
        assert app.wait(timeout=20) == 0
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
        listener.close()
    stderr = app.stderr.read().decode() if app.stderr else ""
    if app.stderr:
        app.stderr.close()
    pings = [t for t in listener.messages("WATCHDOG=1") if began <= t <= held[0]]
    gaps = [b - a for a, b in itertools.pairwise([began, *pings, held[0]])]
    print(f"\nforeign lock {LOCK_SECONDS:.0f} s: {len(pings)} pings, the longest gap "
          f"{max(gaps):.2f} s; {held[1] - frames} frames drawn under it")
    assert max(gaps) < 1.0, gaps  # the watchdog's interval: never reached
    assert held[1] - frames >= 10  # the demo played on
    assert stderr.count("cannot save the game: locked") == 1, stderr[-2000:]
    assert "saving again: the game is on disk" in stderr, stderr[-2000:]
    shown = (capture / "frames.log").read_text().splitlines()[-1].split("actions=")[1]
    saved = Store(state, read_only=True).load().game
    on_disk = ",".join(a.token for a in saved.actions) if saved else ""
    assert on_disk == shown.strip(), (on_disk, shown)
