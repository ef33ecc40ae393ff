"""The virtual Pi's test scenario, run inside the guest at boot (test harness only).

Two guests run at once, each its part (settings.json): the table's (install.sh
again, a game, the watchdog, 7 of the 20 power cuts, no panel or GPIO chip, the
selftest, a reboot without sync) and the power cuts'.

Each works the table as a family and a power cut would: through the kernel's
simulated GPIO lines (gpio-sim pulls), reading what reached the panel from the
kernel's SMBus trace, cutting power to the state directory with dm-flakey, and
rebooting without sync. It writes what it saw to /mnt/host/results; the host
(tests/test_virtual_pi.py) decodes the panel bytes and judges. Standard library only:
this is the guest's own python3, not the product's.
"""

from __future__ import annotations

import array
import contextlib
import functools
import hashlib
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

HOST = Path("/mnt/host")
RESULTS = HOST / "results"
SETTINGS = json.loads((HOST / "settings.json").read_text())
TRACING = Path("/sys/kernel/tracing")
LINES = TRACING / "instances" / "lines"  # the GPIO lines' levels (the buzzer, the LEDs)
SIM = Path("/sys/kernel/config/gpio-sim/pi")
STATE = Path("/var/lib/robinson-table")
DM = "robinson-state"
DATA_DISK = "/dev/vdb"
SERVICE = "robinson-table.service"
INSTALLED = Path("/opt/robinson-table/installed")  # install.sh's record of what it installed
BUTTON, SEATS = SETTINGS["button"], tuple(SETTINGS["seats"])  # the default config's pins
# A table that speaks has a MAX98357A on the I2S pins (18, 19, 21; the overlay holds 18-21):
# from the game on, its config moves seat 4 and the buzzer off them, as hardware/WIRING.md
# says (seats 5 and 6 are not wired), and its LEDs keep GPIO 4 (no-sdmode leaves it free).
AMPLIFIED = bool(SETTINGS.get("voice"))
AMPLIFIER_SEATS, AMPLIFIER_BUZZER = (5, 6, 13, 16), 12
AMPLIFIER = "MAX98357A"  # the card's name, as the overlay's simple-audio-card gives it
HEADER_BANK = "bank1" if SETTINGS["board"] == "pi5" else "bank0"  # hardware.sh's banks
FACTS: dict[str, object] = {}
QUIET = 0.4  # seconds without a panel byte: the screen of the moment is out (frames: 0.08)
MENU_QUIET = 0.2  # the same for a menu's row: one frame, no animation to wait out
MENU_ROWS = tuple(SETTINGS["menu"])  # firmware.table.menu.MENU, in order, from the host
VOICE_LANGUAGES = tuple(SETTINGS["languages"])  # the menu's language row goes round so
LOOPBACK_RATE = 22050  # the recording of the loopback's capture side: 16-bit mono
# The guest's table takes its presses quicker than the shipped config (1.0 s and 3.0 s),
# within the config's bounds, a long press held 0.4 s past its threshold and a menu
# press a second past (MENU_THRESHOLD): a round of the menu takes less of the run.
LONG_PRESS = 1.0  # seconds a long press is held (the config's long_press: 0.6)
MENU_PRESS = 2.4  # seconds a press to the menu is held (the config's menu_press: 1.4)
MENU_THRESHOLD = 1.4
"""A press to the menu is held a whole second past its threshold (a long one only 0.4 s:
it must stay under the menu's): under TCG the loop may take the button's first edge
late, and a menu press held 0.4 s past, measured short, was once taken for a long one
(a page turned instead of the menu, and the run went on a language behind)."""


def run(*command: str, check: bool = True, timeout: float = 60,
        during: Callable[[], None] | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command, bounded: past ``timeout`` its whole process group is killed (a
    command's own children too: killing sudo alone left its selftest holding the pipe)
    and the step fails. ``during`` runs while it does (a press the command waits for)."""
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True)
    try:
        if during:
            during()
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.communicate(timeout=10)
        raise RuntimeError(f"{' '.join(command)}: still running after {timeout:.0f} s") \
            from None
    done = subprocess.CompletedProcess(command, child.returncode, out, err)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {done.returncode}: {done.stderr.strip()}")
    return done


def fact(name: str, value: object) -> None:
    FACTS[name] = value
    (RESULTS / "facts.json").write_text(json.dumps(FACTS, indent=1))
    print(f"vpi: {name} = {value}", flush=True)


def uptime() -> float:
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def mark(text: str) -> None:
    """A line in the trace, in the trace's own clock, between the panel's bytes."""
    (TRACING / "trace_marker").write_text(f"vpi {text}\n")


class Trace:
    """Reads every SMBus write (or SPI message) off the kernel's trace as it happens, into a
    file."""

    def __init__(self, path: Path) -> None:
        self.out = path.open("a", encoding="utf-8")
        self.commands: list[tuple[float, str]] = []  # (when, bytes): the panel's commands
        self.count = 0
        self.last = uptime()
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with (TRACING / "trace_pipe").open(encoding="utf-8", errors="replace") as pipe:
            for line in pipe:
                with self.lock:
                    self.out.write(line)
                    if "smbus_write" in line or "spi_message_done" in line:  # the panel's
                        self.count += 1
                        self.last = uptime()
                    # the bytes, where the trace carries them: an SMBus command (c=0), or
                    # an SPI transfer while spi_transfer_start is on (commands and data:
                    # the D/C pin tells them apart, the trace does not)
                    sent = re.search(r" c=0 \S+ l=\d+ \[([0-9a-f-]+)\]", line) or \
                        re.search(r"spi_transfer_start: .* tx=\[([0-9a-f-]+)\]", line)
                    if sent:
                        self.commands.append((uptime(), sent.group(1)))

    def flush(self) -> None:
        with self.lock:
            self.out.flush()

    def quiet(self, for_seconds: float = 0.5, at_most: float = 30.0, after: int | None = None,
              ) -> bool:
        """Wait until the panel has had no byte for ``for_seconds``; True if any came after
        ``after`` writes (something happened)."""
        end = uptime() + at_most
        while uptime() < end:
            time.sleep(0.05)
            with self.lock:
                if uptime() - self.last >= for_seconds and (after is None or self.count > after):
                    return True
        with self.lock:
            return after is None or self.count > after


def pull(line: int, down: bool) -> None:
    path = Path(f"/sys/devices/platform/{sim_device()}/sim_gpio{line}/pull")
    path.write_text("pull-down" if down else "pull-up")


@functools.cache
def sim_device() -> str:
    """The simulated chip's folder under /sys/devices/platform (fixed once it is live)."""
    chip = (SIM / HEADER_BANK / "chip_name").read_text().strip()
    return f"{(SIM / 'dev_name').read_text().strip()}/{chip}"


def press(seconds: float, trace: Trace, label: str = "press", quiet: float = QUIET,
          at_most: float = 20.0) -> bool:
    """Hold ROLL for ``seconds``; True if the panel changed after it was let go (and has
    then been ``quiet`` for so long). Not counted: what the panel drew while it was held
    (the footer's "let go: menu"), which once let the next press come 70 ms after this
    one's release, before the table had taken it: the two ran together as one press."""
    mark(f"{label} down")
    pull(BUTTON, True)
    time.sleep(seconds)
    mark(f"{label} up")
    held = trace.count
    pull(BUTTON, False)
    return trace.quiet(quiet, at_most, after=held)


def next_row(trace: Trace) -> None:
    """A short press in the menu: the next row, one still frame (no animation, so a
    shorter quiet than QUIET tells it is out). A row always redraws the menu, so a press
    after which the panel stays as it was did not reach the table, and is pressed again:
    under TCG a 0.1 s press's two edges can reach the table's loop together, as a bounce
    (seen once: the language row missed, so the rest of the run spoke one language
    behind and the title after the watchdog came up in Japanese)."""
    for n in range(3):
        if press(0.1, trace, "next row" if n == 0 else f"next row ({n + 1})",
                 quiet=MENU_QUIET, at_most=5.0):
            return
    raise RuntimeError("three short presses in the menu moved no row")


def roll(trace: Trace, label: str) -> bool:
    """Press as a player does until the die is rolled: a press first resumes a game at the
    title, shows a result's money not yet on the panel, or the decision screen of the
    next player; True once an action was saved (False: the game is over)."""
    before = on_disk()
    for n in range(5):
        press(0.15, trace, label if n == 0 else f"{label} ({n + 1})")
        if on_disk() > before:
            return True
    return False


def seat(number: int, on: bool) -> None:
    pull((AMPLIFIER_SEATS if AMPLIFIED and GAME_CONFIG[0] else SEATS)[number - 1], on)


GAME_CONFIG = [False]  # the game's config is in place (begin_game)


def services(*props: str) -> dict[str, str]:
    """Properties of the service, several in one call (under TCG each process costs)."""
    out = run("systemctl", "show", *(f"--property={p}" for p in props), SERVICE).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def service(prop: str) -> str:
    return services(prop)[prop]


def start(trace: Trace) -> float:
    """Start the table; seconds until READY (Type=notify: start returns then)."""
    run("systemctl", "reset-failed", SERVICE, check=False)
    began = uptime()
    run("systemctl", "start", SERVICE, timeout=120)
    ready = uptime() - began
    trace.quiet(QUIET, 20.0)
    return ready


def start_cpu() -> list[int] | None:
    """The table's own figures of its last start, from its log line: the CPU (ms) it had
    spent when its first frame (the title's name) was out, its title, and when ready."""
    said = run("journalctl", "-u", SERVICE, "-o", "cat", "--no-pager", check=False).stdout
    found = re.findall(r"the first frame out (\d+) ms of CPU after start; its title (\d+); "
                       r"ready after (\d+)", said)
    return [int(ms) for ms in found[-1]] if found else None


def saved(folder: Path) -> None:
    """Copy the state directory's files out for the host to read (taken while the table
    is idle; the wal-index -shm is left out: SQLite rebuilds it from the -wal)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in STATE.rglob("*"):
        if path.is_file() and not path.name.endswith("-shm"):
            target = folder / path.relative_to(STATE)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def state_json(name: str) -> dict[str, object]:
    done = run("/usr/local/bin/robinson", "state", "--state-dir", str(STATE), "--json")
    (RESULTS / f"{name}.json").write_text(done.stdout)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def _saves(query: str) -> tuple[object, ...] | None:
    """One row of the saves as the page cache has them now (read-only); None where they
    cannot be read."""
    try:
        db = sqlite3.connect(f"file:{STATE / 'robinson.db'}?mode=ro", uri=True, timeout=10)
        try:
            row: tuple[object, ...] | None = db.execute(query).fetchone()
            return row
        finally:
            db.close()
    except sqlite3.Error:
        return None


def in_play() -> bool:
    """Whether the saves hold a game in play."""
    return _saves("SELECT 1 FROM game WHERE ended IS NULL") is not None


def on_disk(latest: bool = False) -> int:
    """The actions of the game in play (or of the latest game, ended or not: a roll in
    flight may have won it)."""
    game = "SELECT max(id) FROM game" if latest else "SELECT id FROM game WHERE ended IS NULL"
    found = _saves(f"SELECT count(*) FROM action WHERE game = ({game})")
    return int(str(found[0])) if found else 0


@functools.cache
def sectors() -> str:
    return run("blockdev", "--getsz", DATA_DISK).stdout.strip()


def dm_table(kind: str) -> str:
    size = sectors()
    if kind == "linear":
        return f"0 {size} linear {DATA_DISK} 0"
    return f"0 {size} flakey {DATA_DISK} 0 0 3600 1 drop_writes"


def mount_state() -> None:
    run("dmsetup", "create", DM, "--table", dm_table("linear"))
    run("mount", f"/dev/mapper/{DM}", str(STATE))


def power_cut() -> None:
    """What pulling the plug does to the state directory: the table dies at once, and what
    was only in the page cache never reaches the disk (dm-flakey drop_writes). One shell
    for the whole cut: under TCG each process the harness starts costs a tenth of a second."""
    flakey, linear = dm_table("flakey"), dm_table("linear")
    # The suspend before drop_writes must not freeze the filesystem (--nolockfs): a
    # freeze would write the page cache out, the very thing a power cut loses. Once
    # unmounted, a resume suspends by itself to swap the table in.
    run("sh", "-ec", f"""
        systemctl kill --signal=KILL {SERVICE} || true
        systemctl stop {SERVICE} || true   # no restart while the disk is away
        dmsetup suspend --nolockfs {DM}
        dmsetup load {DM} --table '{flakey}'
        dmsetup resume {DM}
        umount {STATE}
        dmsetup load {DM} --table '{linear}'
        dmsetup resume {DM}
        echo 3 > /proc/sys/vm/drop_caches
        mount /dev/mapper/{DM} {STATE}
    """)


def owner_runs_install_sh(said: str) -> tuple[int, float]:
    """The owner runs the checkout's install.sh, from the wheelhouse (the guest has no
    network), what it says kept in results/``said``: its status and seconds."""
    checkout = Path("/root/checkout")
    shutil.copytree(HOST / "checkout", checkout, dirs_exist_ok=True)
    began = uptime()
    done = run("sh", str(checkout / "install.sh"), "--wheelhouse", "/opt/wheelhouse",
               "--no-fast-i2c", check=False, timeout=300)
    (RESULTS / said).write_text(done.stdout + done.stderr)
    return done.returncode, round(uptime() - began, 1)


def install_again() -> None:
    """The owner runs the checkout's install.sh once more (the image's product was
    installed by it, in the image's chroot): on a booted system, under systemd."""
    status, seconds = owner_runs_install_sh("install.txt")
    fact("install", {"status": status, "seconds": seconds})


def begin_game(trace: Trace) -> None:
    """The state directory onto a disk that can lose power; the table started on it;
    seats on and a long press: a game begins."""
    run("systemctl", "stop", SERVICE)
    # The buzzer and the seats' LEDs on, as most tables have them; every GPIO line's
    # level change goes to a trace of its own, read after the game (streaming some
    # 4,000 lines a second of a tone through this python would take the guest's one
    # core from the table while it plays): the tones as the kernel saw them.
    # The voice's device stays "auto", as shipped: the table must find the amplifier's
    # card by its name, and it is not card 0 (the_voice).
    config = Path("/etc/robinson-table/config.toml")
    text = (config.read_text().replace("use_buzzer = false", "use_buzzer = true")
            .replace("use_leds = false", "use_leds = true")
            .replace("long_press = 1.0", f"long_press = {LONG_PRESS - 0.4:.1f}")
            .replace("menu_press = 3.0", f"menu_press = {MENU_THRESHOLD:.1f}"))
    if AMPLIFIED:
        seats = ", ".join(map(str, SEATS))
        assert f"seats = [{seats}]" in text and "buzzer = 18" in text, text
        text = (text.replace(f"seats = [{seats}]", f"seats = {list(AMPLIFIER_SEATS)}")
                .replace("buzzer = 18", f"buzzer = {AMPLIFIER_BUZZER}")
                .replace("i2s_amplifier = false", "i2s_amplifier = true"))
    config.write_text(text)
    GAME_CONFIG[0] = True
    LINES.mkdir(exist_ok=True)
    (LINES / "buffer_size_kb").write_text("8192\n")
    (LINES / "events/gpio/gpio_value/enable").write_text("1\n")
    (LINES / "tracing_on").write_text("1\n")
    mount_state()
    with open("/etc/fstab", "a") as fstab:  # for the reboot without sync
        fstab.write(f"{DATA_DISK} {STATE} ext4 defaults 0 2\n")
    fact("start_seconds", round(start(trace), 2))
    fact("start_cpu_ms", start_cpu())
    mark("started")
    # What sound the kernel had as the table started: ALSA's core (loaded at boot by
    # install.sh's modules-load.d) and no card yet: the_voice's come later.
    fact("sound_at_table_start", {
        "alsa_major": any(line.split()[1:] == ["alsa"] for line in
                          Path("/proc/devices").read_text().splitlines()),
        "cards": Path("/proc/asound/cards").read_text().strip()
        if Path("/proc/asound/cards").exists() else None})
    trace.quiet(QUIET, 10.0)
    # The title stands two seconds before setup: wait for setup's screen (it follows
    # the seats as they come on).
    title = trace.count
    for number in (1, 2, 3, 4):
        seat(number, True)
    trace.quiet(QUIET, 10.0, after=title)
    mark("seats on")
    press(LONG_PRESS, trace, "long")
    end = uptime() + 10.0  # waited for: one read as the panel went quiet found no game
    # in two runs of six (cause not found: begin-failed.txt says what the guest had)
    while not in_play() and uptime() < end:
        time.sleep(0.2)
    if not in_play():  # the presses reach no table (the wrong GPIO chip, say): stop here,
        # rather than press on at 20 s a press until the host's guard
        (RESULTS / "begin-failed.txt").write_text(no_game_begun())
        raise RuntimeError("the long press began no game: the table does not see ROLL "
                           "(results/begin-failed.txt)")
    mark("game begun")


def no_game_begun() -> str:
    """What the guest had when a long press began no game: the saves as the harness reads
    them and as the table's own command does, the table's open files and the mounts."""
    said = []
    try:
        db = sqlite3.connect(f"file:{STATE / 'robinson.db'}?mode=ro", uri=True, timeout=10)
        said.append(f"games: {db.execute('SELECT id, ended FROM game').fetchall()}")
        db.close()
    except sqlite3.Error as error:
        said.append(f"games: {type(error).__name__}: {error}")
    pid = service("MainPID")
    for command in (["ls", "-la", str(STATE)], ["findmnt", str(STATE)],
                    ["ls", "-l", f"/proc/{pid}/fd", f"/proc/{pid}/cwd"],
                    ["/usr/local/bin/robinson", "state", "--state-dir", str(STATE), "--json"],
                    ["journalctl", "-u", SERVICE, "-n", "30", "-o", "short-monotonic"]):
        done = run(*command, check=False)
        said.append(f"$ {' '.join(command)}\n{done.stdout}{done.stderr}")
    return "\n".join(said)


def the_table(trace: Trace) -> None:
    """The table's part: boot, install.sh again, a game of ten rolls, the watchdog, its
    share of the power cuts, no panel and no GPIO chip, the selftest, and a reboot
    without sync."""
    fact("boot_active_monotonic_us", int(service("ActiveEnterTimestampMonotonic") or 0))
    fact("boot_state", service("ActiveState"))
    install_again()
    fact("installed", INSTALLED.read_text().strip())
    fact("timer_slack_ns", int(Path(f"/proc/{service('MainPID')}/timerslack_ns").read_text()))
    fact("working_directory", os.readlink(f"/proc/{service('MainPID')}/cwd"))
    fact("thread_slack_ns", {"no buzzer": thread_slacks()})
    fact("idle_cpu", {"no buzzer": idle_cpu()})
    the_system()
    fact("security", run("systemd-analyze", "security", SERVICE, check=False).stdout
         .strip().splitlines()[-1:])
    begin_game(trace)
    edges = []
    with others_paused("the buzzer's tunes are judged"):
        for n in range(10):
            count = trace.count
            roll(trace, f"roll {n}")
            edges.append(trace.count - count)
        mark("ten rolls")
    trace.flush()
    (RESULTS / "lines-1.txt").write_text((LINES / "trace").read_text())
    state_json("after_rolls")
    the_page()
    fact("roll_writes", edges)
    fact("thread_slack_ns", {**FACTS["thread_slack_ns"], "buzzer": thread_slacks()})  # type: ignore[dict-item]
    fact("idle_cpu", {**FACTS["idle_cpu"], "buzzer": idle_cpu()})  # type: ignore[dict-item]
    if SETTINGS.get("voice"):
        the_voice(trace)
    state_json("before_watchdog")

    # The watchdog: a hung loop is killed and the table starts again, with its game.
    pid = service("MainPID")
    restarts = int(service("NRestarts") or 0)
    os.kill(int(pid), 19)  # SIGSTOP
    began = uptime()
    while uptime() - began < 60:
        time.sleep(0.2)
        now = services("MainPID", "ActiveState", "NRestarts")
        if now["MainPID"] not in ("0", pid) and now["ActiveState"] == "active" \
                and int(now["NRestarts"] or 0) > restarts:
            break
    fact("watchdog_restart_seconds", round(uptime() - began, 1))
    trace.quiet(0.8, 30.0)
    mark("after watchdog")
    trace.flush()
    state_json("after_watchdog")
    press(0.15, trace, "resume")
    power_cuts(trace)  # its share of the cuts (settings.json), the rest in the other guest

    # No panel, no GPIO chip: a clear line and a failure, never a quiet exit.
    run("systemctl", "stop", SERVICE)
    run("modprobe", "-r", "i2c-stub")  # the bus stays; nothing answers at 0x3C (a loose wire)
    run("modprobe", "i2c-stub", "chip_addr=0x50")
    fact("no_panel", panel_after_failed_starts(trace))
    (SIM / "live").write_text("0\n")
    fact("no_gpio", _failed_start())
    (SIM / "live").write_text("1\n")
    sim_device.cache_clear()  # live again: the chip may have a new name
    run("udevadm", "settle", check=False)

    # The selftest as the service user, from a folder it cannot write (lgpio's FIFO);
    # it ends on a menu press of ROLL, once its first screen is out.
    os.chdir("/")

    def hold_to_end() -> None:  # (its screen changes each second: half a second's quiet)
        # Twice: its panel is built (luma's start-up on the bus) before its pins, and
        # gpiozero's loading may be a quiet of half a second before its first screen
        trace.quiet(0.5, 30.0, after=trace.count)
        trace.quiet(0.5, 30.0, after=trace.count)
        press(MENU_PRESS, trace, "selftest end")

    selftest = run("sudo", "-u", "robinson", "/usr/local/bin/robinson", "selftest",
                   check=False, timeout=60, during=hold_to_end)
    fact("selftest", {"status": selftest.returncode, "stderr": selftest.stderr.strip()[-300:]})

    # The reboot without sync: the service must come back at boot with the game.
    fact("start_before_reboot", round(start(trace), 2))
    press(0.15, trace, "resume before reboot")
    for n in range(3):
        roll(trace, f"reboot roll {n}")
    saved(RESULTS / "reboot-shown")
    (RESULTS / "phase").write_text(json.dumps({"phase": 2, "shown": on_disk()}))
    fact("cpu_seconds_1", cpu_by_unit())
    trace.flush()
    # The results (9p) and the root disk only: the state disk is written by the table
    # alone, and ...
    run("sync", "--file-system", "/", str(RESULTS))
    Path("/proc/sys/kernel/sysrq").write_text("1\n")
    Path("/proc/sysrq-trigger").write_text("b\n")  # ... is cut here, without a sync


def the_page() -> None:
    """The companion page under its units as shipped: robinson-web.socket listens on
    port 80 and nothing runs until the host (a phone, through QEMU's port forward)
    visits; then the page is served by a robinson-web.service it started."""
    web = "robinson-web"

    def shown(unit: str) -> dict[str, str]:
        out = run("systemctl", "show", "--property=ActiveState", "--property=MainPID",
                  "--property=SubState", unit).stdout
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    before = {"socket": shown(f"{web}.socket"), "service": shown(f"{web}.service")}
    asked, answer = RESULTS / "web.ask", RESULTS / "web.json"
    plugged, ready = RESULTS / "web.plugged", RESULTS / "web.ready"
    for old in (answer, plugged, ready):
        old.unlink(missing_ok=True)
    asked.write_text("visit the page\n")  # the host plugs a network card in...
    began = uptime()
    card = ""
    while not card and not answer.exists() and uptime() - began < 120:
        time.sleep(0.2)
        cards = [p.name for p in sorted(Path("/sys/class/net").iterdir()) if p.name != "lo"]
        card = cards[0] if cards and plugged.exists() else ""
    if card:  # ... the guest brings it up as QEMU's user network's guest, then is visited
        run("udevadm", "settle", check=False)  # (udev renames eth0 to enp1s0: after that)
        card = next(p.name for p in sorted(Path("/sys/class/net").iterdir()) if p.name != "lo")
        run("ip", "link", "set", card, "up")
        run("ip", "addr", "add", "10.0.2.15/24", "dev", card)
        ready.write_text(card + "\n")
    while not answer.exists() and uptime() - began < 400:
        time.sleep(0.2)
    asked.unlink(missing_ok=True)
    after = shown(f"{web}.service")
    user = ""
    if after.get("MainPID", "0") != "0":
        for line in Path(f"/proc/{after['MainPID']}/status").read_text().splitlines():
            if line.startswith("Uid:"):
                user = line.split()[1]
    fact("web", {"before": before, "after": after, "uid": user, "card": card,
                 "robinson_uid": run("id", "-u", "robinson").stdout.strip(),
                 "waited_seconds": round(uptime() - began, 1),
                 "visit": json.loads(answer.read_text()) if answer.exists() else None,
                 "security": run("systemd-analyze", "security", f"{web}.service",
                                 check=False).stdout.strip().splitlines()[-1:]})


def resident_kib(pid: int) -> int:
    """A process's resident memory (KiB), 0 for none."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def page_of(port: int, within: float = 60.0) -> bytes:
    """What ``http://127.0.0.1:PORT/`` answers, asked until it does (b"" for never)."""
    began = uptime()
    while uptime() - began < within:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as answer:
                return bytes(answer.read())
        except OSError:
            time.sleep(0.2)
    return b""


FRAMEWORKS = Path("/opt/frameworks/bin/python")  # aiohttp, Starlette, uvicorn (the image's)


def the_frameworks() -> None:
    """The page's framework was chosen by memory (docs/architecture.md), weighed here,
    after the reboot, on a Zero 2 W's 512 MB (vm.py's GUESTS): each candidate's least
    app (frameworks.py) started once (three starts each, as until 2026-12-06, cost the
    guest some 24 s more: that day's run had aiohttp at 35.0-35.2 MB and Starlette at
    27.5 MB, each start within 0.2 MB of its others), asked for its page once, its
    resident memory read; then the page as shipped, started by its socket for a visit
    from this guest; and the memory the kernel has, and has still available, with the
    table and the page running."""
    weighed: dict[str, list[int]] = {}
    for name in ("aiohttp", "starlette"):
        child = subprocess.Popen([str(FRAMEWORKS), str(HOST / "frameworks.py"), name, "8100"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            page = page_of(8100)
            if page != b"Robinson":
                said = child.stderr.read() if child.poll() is not None and child.stderr \
                    else repr(page)
                raise RuntimeError(f"{name}'s least app did not answer: {said}")
            weighed[name] = [resident_kib(child.pid)]
        finally:
            child.kill()
            child.wait(timeout=10)
    visited = b"<html" in page_of(80).lower()  # the socket starts the page as shipped
    page_kib = resident_kib(int(run("systemctl", "show", "--property=MainPID", "--value",
                                    "robinson-web.service").stdout.strip() or 0))
    memory = dict(line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines())
    fact("frameworks", {"rss_kib": weighed, "page_rss_kib": page_kib, "page_visited": visited,
                        "mem_total_kib": int(memory["MemTotal"].split()[0]),
                        "mem_available_kib": int(memory["MemAvailable"].split()[0])})


@contextlib.contextmanager
def others_paused(why: str) -> Iterator[None]:
    """The host pauses the other guests while this one's timing is judged (vm.py's YIELD):
    asked through the share, and waited for (10 s at most; the fact says if it came)."""
    asked, given = RESULTS / "yield", RESULTS / "yield.given"
    given.unlink(missing_ok=True)
    asked.write_text(f"{why}\n")
    began = uptime()
    while not given.exists() and uptime() - began < 10:
        time.sleep(0.05)
    fact("others_paused", {"why": why, "given": given.exists(),
                           "waited_seconds": round(uptime() - began, 2)})
    try:
        yield
    finally:
        asked.unlink(missing_ok=True)
        given.unlink(missing_ok=True)


def intend(trace: Trace, intent: str, value: object) -> None:
    """What a paired phone's page asks of the table, through its seam (the table's
    socket, which takes root as its own user), answered once the table has taken it,
    and its screen then drawn. The voice's round of languages took 10 s of menu presses
    a language."""
    count = trace.count
    mark(f"{intent} {value}")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(str(STATE / "table.sock"))
        sock.sendall(json.dumps({"intent": intent, "value": value, "id": 1}).encode() + b"\n")
        with sock.makefile("rb") as lines:
            for line in lines:
                answer = json.loads(line)
                if answer.get("kind") == "answer":
                    if not answer.get("ok"):
                        raise RuntimeError(f"the seam refused {intent}={value}: {answer}")
                    break
            else:
                raise RuntimeError(f"the seam closed without answering {intent}={value}")
    trace.quiet(MENU_QUIET, 10.0, after=count)


def menu_row(trace: Trace, row: str) -> None:
    """Open the menu and step to ``row``."""
    press(MENU_PRESS, trace, "menu")
    for _ in range(MENU_ROWS.index(row)):
        next_row(trace)


def the_voice(trace: Trace) -> None:
    """The spoken banker, under the unit as shipped, into ALSA's loopback: the menu
    switches the voice on, a result is heard in each language (set between them through
    the seam, as a phone's page sets it), the menu switches it off and the next result
    is silent. The loopback's capture side is recorded whole; the host finds each
    result's first panel byte in the trace and the first sound after it, both on the
    trace's clock (a mark says when the recording's first samples came)."""
    # Two cards, loaded now, long after the table started (a sound driver probed late, a
    # speaker plugged in): card 0 a dummy (as the jack or HDMI is card 0 on a Pi), card
    # 1 ALSA's loopback named as the amplifier's card is. What the table plays to
    # MAX98357A's device 0 comes out of its device 1, recorded here.
    run("modprobe", "snd-dummy", "index=0")
    run("modprobe", "snd-aloop", "index=1", f"id={AMPLIFIER}", "pcm_substreams=1")
    run("udevadm", "settle", check=False)
    fact("voice_cards", Path("/proc/asound/cards").read_text().strip())
    recording = RESULTS / "voice.raw"
    recorder = subprocess.Popen(
        ["arecord", "-q", "-D", f"plughw:CARD={AMPLIFIER},DEV=1", "-f", "S16_LE", "-c", "1",
         "-r", str(LOOPBACK_RATE), "-t", "raw", "--period-time=10000",
         "--buffer-time=80000", str(recording)], start_new_session=True)
    began = uptime()
    while uptime() - began < 10 and (not recording.exists() or recording.stat().st_size == 0):
        time.sleep(0.002)
    mark(f"recording bytes={recording.stat().st_size if recording.exists() else 0}")
    actions: list[int] = []  # the game's length after each result heard, and the last
    spoken: dict[str, object] = {}
    try:
        menu_row(trace, "voice")
        press(LONG_PRESS, trace, "voice on")
        press(MENU_PRESS, trace, "menu closed")
        for lang in VOICE_LANGUAGES:
            if lang != VOICE_LANGUAGES[0]:  # as a phone's page sets it: the menu's
                intend(trace, "language", lang)  # language row is the host's tests'
            roll(trace, f"voice-{lang}")
            actions.append(on_disk())
            spoken[lang] = heard(recording)  # said to its end (the host measures how long)
        intend(trace, "language", "en")  # back to English, for what follows
        menu_row(trace, "voice")
        press(LONG_PRESS, trace, "voice off")
        press(MENU_PRESS, trace, "menu closed")
        roll(trace, "voice-off")
        actions.append(on_disk())
        time.sleep(3.0)  # a result with the voice off: nothing may be heard
        mark("voice done")
    finally:
        os.killpg(recorder.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            recorder.wait(timeout=10)
    fact("voice_recorded_seconds", round(recording.stat().st_size / 2 / LOOPBACK_RATE, 1))
    fact("voice_actions", actions)
    fact("voice_heard", spoken)
    journal = run("journalctl", "-u", SERVICE, "-b", "-o", "cat", check=False).stdout
    fact("voice_journal", [line for line in journal.splitlines()
                           if "sound" in line or "voice" in line][-5:])
    fact("voice_device", [line for line in journal.splitlines()
                          if "voice: playing to" in line][-3:])
    state_json("voice")


def heard(recording: Path, at_most: float = 20.0) -> dict[str, object]:
    """Wait until the loopback has carried sound and then 0.6 s of silence (``at_most``
    seconds: a backstop); what was heard, for the host's message should a result be
    silent: whether anything was, after how long, and the loudest sample. Each look
    reads only what was recorded since the last (a look at the whole last 0.6 s, ten
    times a second, took a quarter of the guest's core in this python)."""
    began, read, sounded, last_loud, peak = uptime(), recording.stat().st_size, None, 0.0, 0
    read -= read % 2
    while uptime() - began < at_most:
        time.sleep(0.1)
        with recording.open("rb") as file:
            file.seek(read)
            new = file.read()
        new = new[:len(new) - len(new) % 2]
        read += len(new)
        samples = array.array("h", new)
        loudest = max(max(samples), -min(samples)) if samples else 0
        peak = max(peak, loudest)
        if loudest > 1000:
            sounded = sounded if sounded is not None else round(uptime() - began, 2)
            last_loud = read / 2 / LOOPBACK_RATE
        if sounded is not None and read / 2 / LOOPBACK_RATE - last_loud >= 0.6:
            break
    return {"sound_after_s": sounded, "waited_s": round(uptime() - began, 2), "peak": peak}


def idle_cpu(seconds: float = 5.0) -> dict[str, float]:
    """The share of the guest's core the table takes while nothing is pressed: all of it
    (its cgroup's CPU time) and its threads but the main one (lgpio's: what their
    wake-ups cost), over ``seconds``."""
    stat = Path(f"/sys/fs/cgroup/system.slice/{SERVICE}/cpu.stat")
    pid = service("MainPID")

    def used() -> tuple[int, int]:
        threads = sum(int(Path(f"/proc/{tid.name}/schedstat").read_text().split()[0])
                      for tid in Path(f"/proc/{pid}/task").iterdir() if tid.name != pid)
        return int(stat.read_text().split("usage_usec ")[1].split()[0]) * 1000, threads

    (all_before, threads_before), began = used(), uptime()
    time.sleep(seconds)
    (all_after, threads_after), took = used(), uptime() - began
    return {"table": round((all_after - all_before) / 1e9 / took, 3),
            "lgpio's threads": round((threads_after - threads_before) / 1e9 / took, 3)}


def thread_slacks() -> dict[str, object]:
    """The table's timer slack, its main thread's and its other threads' (lgpio's two
    among them), read from /proc/TID, which every thread has though /proc lists none."""
    pid = service("MainPID")
    others = sorted(int(Path(f"/proc/{tid.name}/timerslack_ns").read_text())
                    for tid in Path(f"/proc/{pid}/task").iterdir() if tid.name != pid)
    return {"main": int(Path(f"/proc/{pid}/timerslack_ns").read_text()), "others": others}


def product() -> str:
    """A digest of the product's code as installed in the venv (each module's path and
    bytes): the same in both guests, and the checkout's, however it was installed."""
    site = next(Path("/opt/robinson-table/venv/lib").glob("python3.*/site-packages"))
    digest = hashlib.sha256()
    for path in sorted(p for package in ("firmware", "robinson_core")
                       for p in (site / package).rglob("*.py")):
        digest.update(f"{path.relative_to(site)}\n".encode() + path.read_bytes())
    return digest.hexdigest()


def the_system() -> None:
    """What this guest is, as the table under its unit found it."""
    fact("product", product())
    journal = run("journalctl", "-u", SERVICE, "-b", "-o", "cat", check=False).stdout
    fact("header_chip", [line for line in journal.splitlines() if "the header is" in line][-1:])
    fact("header_bank_chip", (SIM / HEADER_BANK / "chip_name").read_text().strip())
    release = dict(line.split("=", 1) for line in
                   Path("/etc/os-release").read_text().splitlines() if "=" in line)
    python = "/opt/robinson-table/venv/bin/python"
    probe = "import sys, PIL; print('%d.%d' % sys.version_info[:2], PIL.__version__, PIL.__file__)"
    version, pillow, where = run(python, "-c", probe).stdout.split()
    model = Path("/proc/device-tree/model")
    revision = [line.split(":")[1].strip() for line in
                Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("Revision")]
    # A decision's odds as the table weighs them (issue 40): 2,000 rollouts an option
    # from a tree on 7 in a game of four, the kernel's CPU alone (the import not in it).
    weigh = ("import random, time; from robinson_core import Game, play_script; "
             "from robinson_core.kernel import odds; "
             "state = play_script(Game((1, 2, 3, 4)), '4 4 6 2 1 3 1 6 3 4').state; "
             "began = time.process_time(); odds(state, 2000, random.Random(1).random); "
             "print(round(time.process_time() - began, 3))")
    fact("odds_seconds", float(run(python, "-c", weigh, timeout=120).stdout))
    fact("system", {"debian": release.get("VERSION_CODENAME"), "kernel": os.uname().release,
                    "machine": os.uname().machine, "cpuinfo_revision": revision,
                    "device_tree_model": model.read_text().strip("\0") if model.exists()
                    else None,
                    "python": version, "pillow": pillow, "pillow_from": where,
                    "systemd": run("systemctl", "--version").stdout.split()[1]})


def the_spi_panel(trace: Trace) -> None:
    """The panel on SPI0, which came up seconds after the boot's hardware: when the device
    appeared and the table started (the unit waits for it: no failed start), that the
    table sends the panel its frames as the service user (no EPERM), and which chip's
    lines the panel's D/C and reset are (rpi-lgpio, told the header's chip)."""
    device = run("systemctl", "show", "--property=ActiveEnterTimestampMonotonic",
                 "dev-spidev0.0.device").stdout.strip().split("=", 1)[1]
    table = services("ExecMainStartTimestampMonotonic", "NRestarts", "ActiveState")
    (RESULTS / "gpioinfo.txt").write_text(run("gpioinfo").stdout)
    sent = trace.count
    run("systemctl", "restart", SERVICE, timeout=120)  # its title, again, over SPI
    trace.quiet(QUIET, 20.0, after=sent)
    fact("spi", {"device_us": int(device or 0),
                 "table_started_us": int(table["ExecMainStartTimestampMonotonic"] or 0),
                 "restarts": int(table["NRestarts"] or 0), "state": table["ActiveState"],
                 "messages_on_restart": trace.count - sent,
                 "mode": oct(Path("/dev/spidev0.0").stat().st_mode & 0o777),
                 "journal_errors": [line for line in run(
                     "journalctl", "-u", SERVICE, "-b", "-o", "cat", check=False)
                     .stdout.splitlines() if "error" in line.lower()][-3:]})


def python_upgrade() -> None:
    """An upgrade from bookworm to trixie under an installed table: the venv was made by
    python 3.11 (its packages in lib/python3.11), the system's python is now 3.13, and
    the service cannot start. The owner runs install.sh again, as the README says after
    any update: it makes the venv anew and the table runs."""
    venv = Path("/opt/robinson-table/venv")
    now = run(str(venv / "bin/python"), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"
              ).stdout.strip()
    run("systemctl", "stop", SERVICE)
    (venv / "lib" / f"python{now}").rename(venv / "lib" / "python3.11")
    config = venv / "pyvenv.cfg"
    config.write_text(re.sub(r"(?m)^version\s*=.*$", "version = 3.11.2", config.read_text()))
    broken = _failed_start()
    status, seconds = owner_runs_install_sh("upgrade-install.txt")
    after = services("ActiveState", "NRestarts")
    fact("python_upgrade", {"system_python": now, "broken_start": broken["start_status"],
                            "install": status, "seconds": seconds,
                            "state": after["ActiveState"],
                            "restarts": int(after["NRestarts"] or 0)})


BOOT = Path("/boot/firmware")  # the card's FAT partition, bootfs
BUNDLE_MARK = Path("/opt/robinson-table/bundle")  # install.sh --first-boot's, when done
BOOT_SETTINGS = BOOT / "robinson-table.toml"
BROKEN = ("i2c_address = 0x3c", "i2c_address = 0x99")  # the broken settings' one line


def table_up(trace: Trace, within: float = 900.0) -> float:
    """Wait, running nothing in the guest, until the table is up by itself: the first
    boot's install done (its mark), the panel written and the service ready (its first
    frame comes before its pins are open: a press then would find the button held).
    Seconds since power-on."""
    end = uptime() + within
    while uptime() < end:
        if BUNDLE_MARK.exists() and trace.count > 0 and service("ActiveState") == "active":
            trace.quiet(QUIET, 20.0)
            return round(uptime(), 1)
        time.sleep(0.5)
    raise RuntimeError(f"the table did not come up by itself within {within:.0f} s of "
                       "the harness's start (no install mark, or no panel write)")


def first_frame() -> float | None:
    """The kernel's time (seconds since power-on) of the panel's first SPI message."""
    with (RESULTS / "trace-1.txt").open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            found = re.search(r"\s(\d+\.\d+): spi_message_done", line)
            if found:
                return float(found.group(1))
    return None


def unit_times(unit: str) -> dict[str, str]:
    out = run("systemctl", "show", "--property=ExecMainStartTimestampMonotonic",
              "--property=ExecMainExitTimestampMonotonic", "--property=Result",
              "--property=ExecMainStatus", unit).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def pair_with_the_owner_code(trace: Trace) -> dict[str, object]:
    """A phone on the page pairs with the owner code read off the boot partition (no code
    asked of the panel), then makes one change as a paired phone."""
    said = (BOOT / "robinson-table-owner-code.txt").read_bytes().decode()
    code = re.search(r"owner code: ([\d ]+)", said)
    assert code, said
    base = "http://127.0.0.1"
    page_of(80)  # the socket starts the page's service at the first visit

    def post(path: str, body: dict[str, object], **headers: str) -> tuple[int, str]:
        request = urllib.request.Request(
            base + path, data=json.dumps(body).encode(), method="POST",
            headers={"content-type": "application/json", **headers})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.headers.get("set-cookie") or ""
        except urllib.error.HTTPError as error:
            return error.code, ""

    wrong, _ = post("/api/pair", {"code": "0000000000"})
    status, cookie = post("/api/pair", {"code": code.group(1)})
    session = cookie.split(";", 1)[0]
    with urllib.request.urlopen(urllib.request.Request(
            base + "/settings", headers={"cookie": session}), timeout=30) as answer:
        csrf = re.search(r'name="csrf" content="([^"]+)"', answer.read().decode())
    token = {"x-csrf-token": csrf.group(1) if csrf else ""}
    changed, _ = post("/api/voice", {"value": True}, cookie=session, **token)
    again, _ = post("/api/pair", {"code": code.group(1)})
    # The paired phone tries another panel driver and does not keep it: the SH1106's
    # driver takes the bus (its own start-up commands), and 15 s later the SSD1306's again.
    transfers = TRACING / "events/spi/spi_transfer_start/enable"  # an SPI panel's bytes
    if transfers.exists():
        transfers.write_text("1\n")
    asked = uptime()
    mark("the phone tries sh1106")
    tried, _ = post("/api/hardware", {"changes": {"display.display": "sh1106"}},
                    cookie=session, **token)
    sh1106 = sent_after(trace, asked, SH1106_START, within=30.0)
    ssd1306 = sent_after(trace, sh1106 or asked, SSD1306_START, within=60.0)
    if transfers.exists():
        transfers.write_text("0\n")
    return {"wrong": wrong, "paired": status, "change": changed, "second_phone": again,
            "spent": not (STATE / "owner-code").exists(), "panel_tried": tried,
            "sh1106_after_s": round(sh1106 - asked, 2) if sh1106 else None,
            "back_after_s": round(ssd1306 - sh1106, 2) if sh1106 and ssd1306 else None,
            "kept": (STATE / "hardware.toml").exists()}


SH1106_START = "10-b0-c8"  # in luma's SH1106 start-up: column high, page 0, COM scan down
SSD1306_START = "8d-14-20-00"  # in its SSD1306 start-up: charge pump on, horizontal mode


def sent_after(trace: Trace, after: float, command: str, within: float) -> float | None:
    """When the panel's bus first carried ``command`` (hex bytes, "-" between) after
    ``after`` (the harness's uptime), waiting up to ``within`` seconds; None if it never."""
    end = uptime() + within
    while True:
        with trace.lock:
            seen = next((at for at, sent in trace.commands if at > after and command in sent),
                        None)
        if seen is not None or uptime() > end:
            return seen
        time.sleep(0.1)


def the_first_boot(trace: Trace) -> None:
    """A card as Imager writes it with the bundle copied on: the table comes up by itself
    (cloud-init's bootcmd, robinson-first-boot, the bundle's install.sh), nothing run by
    the harness until then; its panel writes, three presses are three saved actions, a
    phone pairs with the owner code, the watchdog is in force. Then the owner edits the
    settings file on the card, and powers it off and on."""
    # The install had the host's cores (hardware.sh asked the host, softly, at power-on,
    # to pause the table's guest, its clock too): beside that guest's two busy vCPUs
    # this one's niced vCPU took 303 s over it, 74 s alone.
    up = table_up(trace)
    fact("others_paused", {"why": "the first boot's install",
                           "given": (RESULTS / "yield.given").exists()})
    (RESULTS / "yield").unlink(missing_ok=True)
    (RESULTS / "yield.given").unlink(missing_ok=True)
    trace.flush()
    install = unit_times("robinson-first-boot.service")
    began = int(install.get("ExecMainStartTimestampMonotonic") or 0)
    ended = int(install.get("ExecMainExitTimestampMonotonic") or 0)
    status = run("cloud-init", "status", "--format", "json", check=False)
    cloud = json.loads(status.stdout) if status.stdout.strip().startswith("{") else {}
    (RESULTS / "cloud-init.json").write_text(status.stdout)
    (RESULTS / "first-boot-install.log").write_bytes(
        (BOOT / "robinson-table-install.log").read_bytes())
    for number in (1, 2, 3):
        seat(number, True)
    trace.quiet(QUIET, 10.0)
    press(1.4, trace, "long (the shipped 1.0 s)")  # a game begins
    saved = [roll(trace, f"first roll {n}") and on_disk() for n in range(3)]
    fact("first_boot", {
        "table_up_s": up, "first_frame_s": first_frame(),
        "install_s": round((ended - began) / 1e6, 1) if ended > began else None,
        "install_result": install.get("Result"), "install_status": install.get("ExecMainStatus"),
        "cloud_init": {key: cloud.get(key) for key in ("status", "datasource", "detail",
                                                     "errors", "recoverable_errors")},
        "bundle": BUNDLE_MARK.read_text().strip(),
        "watchdog": run("systemctl", "show", "--property=RuntimeWatchdogUSec").stdout.strip(),
        "saved_after_presses": saved, "table": service("ActiveState"),
        "kernel": run("/opt/robinson-table/venv/bin/python", "-c",  # the bundle's, for
                      "from robinson_core import compiled; print(compiled.which())"  # this
                      ).stdout.strip(),  # guest's platform (tools/pi_kernel.py)
        "owner": pair_with_the_owner_code(trace)})
    # The owner takes the card out, edits the settings file on another computer, and
    # puts it back: the language changes at the next power-on.
    text = BOOT_SETTINGS.read_text()
    BOOT_SETTINGS.write_text(text.replace('language = "en"', 'language = "fi"'))
    reboot_into(2, trace)


def reboot_into(phase: int, trace: Trace) -> None:
    """Power off and on again (a clean reboot: QEMU's -no-reboot ends it, and the host
    starts it again into ``phase``), what this boot saw kept first."""
    (RESULTS / "phase").write_text(json.dumps({"phase": phase}))
    fact(f"cpu_seconds_{phase - 1}", cpu_by_unit())
    trace.flush()
    journal = run("journalctl", "-b", "-o", "short-monotonic", "--no-pager", check=False)
    (RESULTS / f"journal-{phase - 1}.txt").write_text(journal.stdout)
    os.sync()
    run("systemctl", "reboot", check=False)
    time.sleep(600)  # (the reboot ends this QEMU, and this process with it)


def settings_kept(name: str) -> dict[str, object]:
    """What became of the card's settings file at this boot: the config's language, the
    report beside the file, what the table was told, its unit's result."""
    refused = Path("/run/robinson-table-settings-refused")
    journal = run("journalctl", "-u", SERVICE, "-b", "-o", "cat", check=False).stdout
    return {"language": re.findall(r'(?m)^language = "(\w+)"',
                                   Path("/etc/robinson-table/config.toml").read_text()),
            "report": (BOOT / "robinson-table-settings.txt").read_text().strip(),
            "refused": refused.read_text().strip() if refused.exists() else None,
            "unit": unit_times("robinson-settings.service").get("Result"),
            "title_told": [line for line in journal.splitlines() if "was not taken" in line],
            "table": service("ActiveState"), "name": name}


def settings_taken(trace: Trace) -> None:
    """The second power-on: the edited settings are the config. Then the owner breaks a
    line of the file (an address no panel has), and it is read again as a power-on
    reads it: the boot's settings unit, then the table (a third power-on cost the tier
    a minute, and this one has just judged the boot's order); then the cuts' part."""
    trace.quiet(QUIET, 60.0)
    fact("settings_taken", settings_kept("fi"))
    text = BOOT_SETTINGS.read_text()
    assert BROKEN[0] in text, text
    BOOT_SETTINGS.write_text(text.replace(*BROKEN))
    fact("broken_line", text.splitlines().index(BROKEN[0]) + 1)
    sent = trace.count
    run("systemctl", "start", "robinson-settings.service", check=False, timeout=120)
    run("systemctl", "restart", SERVICE, timeout=120)
    trace.quiet(QUIET, 60.0, after=sent)
    the_cuts(trace)


def the_cuts(trace: Trace) -> None:
    """The power cuts' part, in a guest of its own beside the table's, on its second
    power-on (after settings_taken): the broken settings file was not taken; then begin
    a game and cut the power among presses."""
    fact("settings_refused", settings_kept("broken"))
    fact("installed", INSTALLED.read_text().strip())
    the_system()
    if SETTINGS["panel"] == "spi":
        the_spi_panel(trace)
    python_upgrade()
    begin_game(trace)
    power_cuts(trace)
    fact("done", True)


def power_cuts(trace: Trace) -> None:
    """Cut the power among presses, as many times as settings.json says. Each round:
    one press whose result is out on the panel (so its action is committed: the table
    saves before it shows), a copy of the save as the page cache has it, maybe one
    more press, and the cut somewhere in its animation or save, or after. The host
    checks what survived against that copy."""
    rng = random.Random(SETTINGS["seed"])
    log: list[dict[str, object]] = []
    (RESULTS / "cuts.json").write_text("[]")  # none yet (a guest may have no share)
    try:
        for cut in range(SETTINGS["cuts"]):
            if not roll(trace, f"cut {cut} shown"):  # the game is over: a long press, again
                press(LONG_PRESS, trace, f"cut {cut} again")
                if not roll(trace, f"cut {cut} shown"):
                    raise RuntimeError(f"cut {cut}: no press rolled the die, in a new game too")
            shown = on_disk()
            saved(RESULTS / f"cut-{cut:03d}-shown")
            in_flight = rng.random() < 0.6
            if in_flight:  # cut mid-animation, mid-save, or just after
                mark(f"cut {cut} in flight")
                pull(BUTTON, True)
                time.sleep(0.15)
                pull(BUTTON, False)
                time.sleep(rng.uniform(0.0, 1.2))
            else:  # or soon after the last result, while the database's last commit may
                # still be in ext4's journal
                time.sleep(rng.uniform(0.05, 1.0))
            began = uptime()
            power_cut()
            cut_seconds = uptime() - began
            saved(RESULTS / f"cut-{cut:03d}")
            ready = start(trace)
            kept = on_disk(latest=True)  # read once the table has opened (and recovered) it
            log.append({"cut": cut, "shown": shown, "in_flight": in_flight, "kept": kept,
                        "cut_seconds": round(cut_seconds, 2), "ready_seconds": round(ready, 2)})
            (RESULTS / "cuts.json").write_text(json.dumps(log))
            if kept < shown:  # a shown roll lost: the scenario ends here (more steps would
                # only wait on a table that has lost its game); the host judges this copy
                raise RuntimeError(f"cut {cut}: {shown} actions were on the panel, "
                                   f"{kept} kept: the store lost a shown action")
            # The title is out: the next round's first press resumes the game (roll() presses
            # until an action is saved), as the step after the last round does.
    finally:
        fact("cuts", len(log))  # the rounds done, however they ended


def panel_after_failed_starts(trace: Trace, tries: int = 6) -> dict[str, object]:
    """No panel at start: the table fails with one line and status 3, and systemd starts
    it again, past the five tries in five minutes it once gave up after; then the panel
    is wired (i2c-stub answers at 0x3C again) and the next try lights it. The pause
    between tries is 1 s here (a drop-in of this guest's; the unit's is 5 s): the
    policy is what is judged, not its pace."""
    quick = Path(f"/run/systemd/system/{SERVICE}.d/vpi-quick-restart.conf")
    quick.parent.mkdir(parents=True, exist_ok=True)
    quick.write_text("[Service]\nRestartSec=1\n")
    run("systemctl", "daemon-reload")
    run("systemctl", "reset-failed", SERVICE, check=False)
    done = run("systemctl", "start", SERVICE, check=False, timeout=120)
    status = service("ExecMainStatus")
    first = int(service("NRestarts") or 0)
    began, restarts, state = uptime(), 0, ""
    while uptime() - began < 120 and restarts < tries and state != "failed":
        time.sleep(0.5)
        now = services("NRestarts", "ActiveState")
        restarts, state = int(now["NRestarts"] or 0) - first, now["ActiveState"]
    journal = run("journalctl", "-u", SERVICE, "-n", "80", "-o", "cat", check=False).stdout
    run("modprobe", "-r", "i2c-stub")  # the panel wired: it answers at 0x3C
    run("modprobe", "i2c-stub", "chip_addr=0x3c")
    count, wired = trace.count, uptime()
    while uptime() - wired < 60 and service("ActiveState") != "active":
        time.sleep(0.3)
    lit = round(uptime() - wired, 1)
    trace.quiet(QUIET, 20.0, after=count)
    drawn = trace.count - count
    run("systemctl", "stop", SERVICE, check=False)
    quick.unlink()
    run("systemctl", "daemon-reload")
    run("systemctl", "reset-failed", SERVICE, check=False)
    return {"start_status": done.returncode, "exit_status": status, "restarts": restarts,
            "state_while_away": state, "active_after_seconds": lit, "writes_drawn": drawn,
            "journal": [line for line in journal.splitlines() if "error:" in line][-2:]}


def _failed_start() -> dict[str, object]:
    run("systemctl", "reset-failed", SERVICE, check=False)
    done = run("systemctl", "start", SERVICE, check=False, timeout=120)
    time.sleep(0.3)  # the journal has the line the table wrote before it exited
    journal = run("journalctl", "-u", SERVICE, "-n", "40", "-o", "cat", check=False).stdout
    status = service("ExecMainStatus")
    run("systemctl", "stop", SERVICE, check=False)
    run("systemctl", "reset-failed", SERVICE, check=False)
    return {"start_status": done.returncode, "exit_status": status,
            "journal": [line for line in journal.splitlines() if "error:" in line][-2:]}


def phase_two(trace: Trace, before: dict[str, object]) -> None:
    fact("reboot_active_monotonic_us", int(service("ActiveEnterTimestampMonotonic") or 0))
    fact("reboot_state", service("ActiveState"))
    fact("reboot_shown", before["shown"])
    trace.quiet(0.8, 30.0)
    mark("after reboot")
    trace.flush()
    state_json("after_reboot")
    saved(RESULTS / "after-reboot")
    the_frameworks()
    done = run("sh", "/root/checkout/install.sh", "--uninstall", check=False, timeout=300)
    (RESULTS / "uninstall.txt").write_text(done.stdout + done.stderr)
    fact("uninstall", {"status": done.returncode,
                       "saves_kept": any(STATE.iterdir()) if STATE.exists() else False})


def cpu_by_unit(most: int = 8) -> dict[str, float]:
    """Where this power-on's CPU went: the guest's whole busy time, and the units that
    took most of it (their cgroups' usage), in seconds; the run's figures, not judged."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, idle, iowait, irq, softirq = (int(n) for n in fields[:7])
    hertz = os.sysconf("SC_CLK_TCK")
    used = {"all": (user + nice + system + irq + softirq) / hertz,
            "kernel": (system + irq + softirq) / hertz, "idle": (idle + iowait) / hertz}
    root = Path("/sys/fs/cgroup")
    units = {}
    for stat in [*root.glob("*.slice/*/cpu.stat"), root / "init.scope" / "cpu.stat"]:
        with contextlib.suppress(OSError, IndexError, ValueError):
            usec = int(stat.read_text().split("usage_usec ")[1].split()[0])
            units[stat.parent.name] = usec / 1e6
    ranked = sorted(units.items(), key=lambda unit: -unit[1])[:most]
    return {name: round(seconds, 1) for name, seconds in [*used.items(), *ranked]}


def main() -> None:
    RESULTS.mkdir(exist_ok=True)
    phase_file = RESULTS / "phase"
    before = json.loads(phase_file.read_text()) if phase_file.exists() else {"phase": 1}
    if before["phase"] >= 2:
        FACTS.update(json.loads((RESULTS / "facts.json").read_text()))
    trace = Trace(RESULTS / f"trace-{before['phase']}.txt")
    try:
        # How the boot spent its time, for the figures (not judged); inside the try, so a
        # command that hangs ends the scenario like any failing step.
        blame = run("systemd-analyze", "blame", check=False)  # (or why it has none yet)
        (RESULTS / f"boot-{before['phase']}.txt").write_text(blame.stdout or blame.stderr)
        if SETTINGS["part"] == "cuts":
            [the_first_boot, settings_taken][before["phase"] - 1](trace)
        elif before["phase"] == 1:
            the_table(trace)
        else:
            phase_two(trace, before)
            fact("done", True)
    except Exception as error:  # the host reads this: never a silent end
        fact("error", f"{type(error).__name__}: {error}")
    finally:
        trace.flush()
        fact(f"cpu_seconds_{before['phase']}", cpu_by_unit())
        journal = run("journalctl", "-b", "-o", "short-monotonic", "--no-pager", check=False)
        (RESULTS / f"journal-{before['phase']}.txt").write_text(journal.stdout)
        os.sync()
    run("systemctl", "poweroff", "--force", "--force", check=False)


if __name__ == "__main__":
    main()
