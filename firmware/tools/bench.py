"""``robinson bench``: the figures of the performance targets, from one run, as one table.

Benchmarks print; the test suite only checks that they run.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import luma.oled.device
from luma.core.interface.serial import i2c
from PIL import Image

from firmware.config.settings import Config
from firmware.display.fonts import BIG
from firmware.display.panels import Interface
from firmware.emulate.bus import Bus, PanelBus
from firmware.runtime.loop import ManualClock, advance
from firmware.saves.store import Store
from firmware.shell.die import SeededDie
from firmware.shell.table import Table
from firmware.table.moment import FRAME
from firmware.table.prefs import PREF_KEYS
from firmware.table.state import Mode
from robinson_core import Game, HouseRules, Pending, Roll, Status

if TYPE_CHECKING:
    from firmware.emulate.rig import EmulatedRigging

BITS_PER_BYTE = 9  # 8 data bits and the ACK on I2C


@dataclass
class Figure:
    """One measured figure, with its target if it has one."""

    name: str
    value: str
    target: str = ""
    met: bool | None = None
    kind: str = ""  # what it is: one of KINDS


KINDS = {
    "bytes": "bytes on the panel's bus: the same on any machine, for the same turns",
    "wire": "those bytes' time on the wire at the bus's clock: the same on any machine",
    "CPU": "CPU time on this machine (a Pi Zero 2 W's cores are some 10x slower)",
    "ratio": "a ratio to an anchor measured in the same run: this machine's load cancels",
    "wall": "wall-clock time on this machine: its disk and its load are in it",
    "memory": "peak resident memory of a process",
    "count": "a count",
}
DETERMINISTIC = ("bytes", "wire")  # rows docs/performance.md must agree with (a test)


@dataclass
class Bench:
    """The figures of one run, printed as one table."""

    figures: list[Figure] = field(default_factory=list)

    def add(self, name: str, value: str, target: str = "", met: bool | None = None, *,
            kind: str) -> None:
        assert kind in KINDS, kind
        self.figures.append(Figure(name, value, target, met, kind))

    def table(self) -> str:
        width = max(len(f.name) for f in self.figures)
        vwidth = max(len(f.value) for f in self.figures)
        lines = [f"{'figure':<{width}}  {'kind':<6}  {'measured':<{vwidth}}  target",
                 "-" * (width + vwidth + 32)]
        for f in self.figures:
            mark = "" if f.met is None else ("  ok" if f.met else "  MISSED")
            lines.append(f"{f.name:<{width}}  {f.kind:<6}  {f.value:<{vwidth}}  "
                         f"{f.target}{mark}".rstrip())
        return "\n".join(lines)


def full_frame_bytes() -> int:
    """What luma's own display() puts on the bus for one frame."""

    bus = PanelBus()
    device = luma.oled.device.ssd1306(i2c(bus=bus, address=0x3C))
    before = bus.sent
    device.display(Image.new("1", (device.width, device.height), 1))
    return bus.sent - before


@dataclass
class Turns:
    """What a run of turns cost: CPU per press, and bytes on the panel's bus."""

    cpu: list[float] = field(default_factory=list)
    first_frame: list[float] = field(default_factory=list)
    turn_bytes: list[int] = field(default_factory=list)
    frame_bytes: list[int] = field(default_factory=list)
    first_parts: list[int] = field(default_factory=list)  # a press's first part on the bus
    parts: list[int] = field(default_factory=list)  # every part while the die tumbles


@contextlib.contextmanager
def _game_of_four(config: Config, seed: int, parts: list[int],
                  counting: Callable[[Table], bool] = lambda table: True,
                  ) -> Iterator[tuple[EmulatedRigging, Table, ManualClock]]:
    """An emulated table with a game of four begun, its die seeded with ``seed``, and
    each call of its panel's writer that sent anything counted into ``parts`` (bytes on
    the bus) while ``counting(table)``; stopped and closed after."""
    from firmware.emulate.rig import emulate

    clock = ManualClock()
    rig = emulate(config, clock=clock)
    try:
        with tempfile.TemporaryDirectory() as folder:
            table = Table(rig, Store(Path(folder), pref_keys=PREF_KEYS), die=SeededDie(seed))
            table.start()
            writer = table.panel.writer
            assert writer is not None
            writer.display = _counting(  # type: ignore[method-assign]
                writer.display, rig.bus, parts, lambda: counting(table))
            table.begin(Game((1, 2, 3, 4), 1, HouseRules()))
            advance(rig.loop, clock, 1.0)
            try:
                yield rig, table, clock
            finally:
                table.stop()
    finally:
        rig.close()


def _counting(display: Callable[..., int], bus: Bus, parts: list[int],
              counting: Callable[[], bool]) -> Callable[..., int]:
    """``display``, each call that sent something counted into ``parts`` (bus bytes)
    while ``counting()``."""
    def counted(image: Image.Image, first: tuple[int, int, int, int] | None = None,
                budget: int | None = None) -> int:
        before = bus.sent
        sent = display(image, first=first, budget=budget)
        if sent and counting():
            parts.append(bus.sent - before)
        return sent
    return counted


def _tumble(rig: EmulatedRigging, clock: ManualClock, table: Table) -> list[int]:
    """The die's tumble played out frame by frame: the bytes the bus had sent after
    each (the first: before any)."""
    marks = [rig.bus.sent]
    while table.mode is Mode.ANIMATE:
        deadline = rig.loop.next_deadline()
        assert deadline is not None
        clock.now = deadline
        rig.loop.run_until_idle()
        marks.append(rig.bus.sent)
    return marks


def play_turns(config: Config, turns: int) -> Turns:
    """Press ROLL ``turns`` times on the emulated table; measure each press."""
    out = Turns()
    with _game_of_four(config, 45, out.parts,
                       lambda table: table.mode is Mode.ANIMATE) as (rig, table, clock):
        bus, loop, hands = rig.bus, rig.loop, rig.hands
        for _ in range(turns):
            game = table.game
            if game is None or game.state.pending is Pending.OVER:
                break
            hands.button.drive_low()
            advance(loop, clock, 0.1)
            sent = bus.sent
            start = time.thread_time()
            hands.button.drive_high()  # the release is the press
            parts = len(out.parts)
            advance(loop, clock, config.timings.debounce)  # settled: the press is taken now
            out.first_parts += out.parts[parts:parts + 1]
            first = time.thread_time()
            out.first_frame.append(first - start)
            marks = _tumble(rig, clock, table)
            out.cpu.append(time.thread_time() - start)
            out.turn_bytes.append(bus.sent - sent)
            frames = [b - a for a, b in itertools.pairwise(marks)]
            out.frame_bytes += [marks[0] - sent, *frames[:-1]]  # the tumbling frames
            advance(loop, clock, 3.0)  # read the result, like a table would
    return out


def decision_presses(config: Config, each: int) -> dict[str, list[int]]:
    """The bytes on the panel's bus of each decision press's first part (what the panel
    shows of its result before the rest, REST_AFTER later), by decision: games of four
    with a seeded die, each press short (the first option), until every decision of the
    default rules was taken ``each`` times."""
    found: dict[str, list[int]] = {"TREE": [], "AGAIN": [], "JUMP": []}
    seed = 45
    while min(len(parts) for parts in found.values()) < each and seed < 45 + 50:
        parts: list[int] = []
        with _game_of_four(config, seed, parts) as (rig, table, clock):
            while (game := table.game) is not None and game.state.pending is not Pending.OVER:
                asked = game.state.pending.name if table.state.deciding else None
                rig.hands.button.drive_low()
                advance(rig.loop, clock, 0.1)
                before = len(parts)
                rig.hands.button.drive_high()
                advance(rig.loop, clock, config.timings.debounce)
                if asked in found and len(parts) > before:
                    found[asked].append(parts[before])
                _tumble(rig, clock, table)
                advance(rig.loop, clock, 3.0)
        seed += 1
    return found


PANEL_CLASSES = ("ssd1306:128x32", "ssd1306", "sh1107", "ssd1322", "ssd1351", "st7735",
                 "st7789", "ili9341")
I2C_HZ = 400_000  # install.sh sets the Pi's I2C to fast mode


def panel_classes(turns: int) -> str:
    """A row per panel class: bytes per turn and per animation frame, and the frames a
    second its bus could carry at the speed its interface runs at (I2C fast mode; SPI as
    configured): what the bus allows, not the tumble's rate (FRAME)."""
    from firmware.config.reading import display_option

    rows = [f"{'panel':<16} {'size':<9} {'bus':<14} {'B/turn':>8} {'B/frame':>8} "
            f"{'bus fps':>7}"]
    for option in PANEL_CLASSES:
        display = display_option(option)
        played = play_turns(Config(display=display), turns)
        turn, frame = statistics.median(played.turn_bytes), statistics.median(played.frame_bytes)
        if display.interface is Interface.I2C:
            hz, bits, bus = I2C_HZ, BITS_PER_BYTE, f"I2C {I2C_HZ // 1000} kHz"
        else:
            hz, bits, bus = display.spi_bus_speed, 8, f"SPI {display.spi_bus_speed / 1e6:g} MHz"
        fps = f"{hz / (bits * frame):,.0f}" if frame else "-"
        size = "x".join(map(str, display.size))
        rows.append(f"{option.split(':')[0]:<16} {size:<9} {bus:<14} {turn:>8,.0f} "
                    f"{frame:>8,.0f} {fps:>7}")
    return "\n".join(rows)


def press_path(turns: int, bench: Bench) -> None:
    """(a) CPU from a press to the last byte of its result, and (b) the bytes of each turn."""
    config = Config()
    played = play_turns(config, turns)
    cpu, first_frame = played.cpu, played.first_frame
    turn_bytes, frame_bytes = played.turn_bytes, played.frame_bytes
    full = full_frame_bytes()
    frames_each = len(frame_bytes) / len(cpu) + 1  # animation frames and the result
    full_turn = full * frames_each
    ms = [c * 1000 for c in cpu]
    bench.add("(a) press -> result on the bus: the loop thread, a manual clock, the "
              "emulator's panel model included; median", f"{statistics.median(ms):.2f} ms",
              "<= 5 ms", statistics.median(ms) <= 5, kind="CPU")
    bench.add("(a) press -> result on the bus, the most", f"{max(ms):.2f} ms", kind="CPU")
    bench.add("(a) press -> first frame on the bus, median",
              f"{statistics.median(first_frame) * 1000:.2f} ms", kind="CPU")
    bench.add("    turns measured", f"{len(cpu)}", kind="count")
    turn = statistics.median(turn_bytes)
    bench.add("(b) bus bytes per turn, partial (median)", f"{turn:,.0f} B", kind="bytes")
    bench.add("(b) bus bytes per turn, full redraw", f"{full_turn:,.0f} B", kind="bytes")
    bench.add("(b) partial / full per turn", f"{100 * turn / full_turn:.1f} %", "<= 25 %",
              turn / full_turn <= 0.25, kind="bytes")
    per_frame = statistics.median(frame_bytes)
    bench.add("(b) bus bytes per animation frame (median)", f"{per_frame:,.0f} B", "<= 150 B",
              per_frame <= 150, kind="bytes")
    bench.add("(b) bus bytes per animation frame (the most)", f"{max(frame_bytes):,.0f} B",
              kind="bytes")
    bench.add("(b) bus bytes per full frame (luma)", f"{full:,} B", kind="bytes")
    first, longest = max(played.first_parts), max(played.parts)
    bench.add("(b) a press's first part on the panel (the die alone), the most",
              f"{first} B", kind="bytes")
    bench.add("(c) that first part on the wire at 100 / 400 kHz",
              f"{wire(first, 100):.1f} / {wire(first, 400):.1f} ms", "<= 15 ms at 100 kHz",
              wire(first, 100) <= 15, kind="wire")
    decided = decision_presses(config, 3 if turns < 50 else 12)
    for name, parts in decided.items():
        most = max(parts, default=0)
        bench.add(f"(b) a decision press's first part on the panel ({name.lower()}), the most "
                  f"of {len(parts)}", f"{most} B", "<= 200 B", 0 < most <= 200, kind="bytes")
        bench.add(f"(c) a decision press's first part on the wire at 100 / 400 kHz "
                  f"({name.lower()})",
                  f"{wire(most, 100):.1f} / {wire(most, 400):.1f} ms", kind="wire")
    bench.add("(c) the longest part while the die tumbles, on the wire at 100 kHz",
              f"{longest} B: {wire(longest, 100):.1f} ms", f"<= {FRAME * 1000:.0f} ms (a frame)",
              wire(longest, 100) <= FRAME * 1000, kind="wire")
    largest = max(frame_bytes)
    bench.add("(c) the largest frame of a turn on the wire at 100 / 400 kHz",
              f"{wire(largest, 100):.1f} / {wire(largest, 400):.1f} ms", kind="wire")
    bench.add("(c) a full frame (luma) on the wire at 100 / 400 kHz",
              f"{wire(full, 100):.1f} / {wire(full, 400):.1f} ms", kind="wire")
    bench.add("(c) the die's tumble as the table draws it (a frame each)",
              f"{1 / FRAME:.1f} frames/s ({FRAME * 1000:.0f} ms)", kind="count")
    for khz in (100, 400):
        fps_partial = khz * 1000 / (BITS_PER_BYTE * per_frame)
        fps_full = khz * 1000 / (BITS_PER_BYTE * full)
        target = f">= {1 / FRAME:.1f} (the tumble)" if khz == 100 else ""
        bench.add(f"(c) frames/s the bus could carry at {khz} kHz, median frame (partial / "
                  "full)", f"{fps_partial:,.0f} / {fps_full:,.0f}", target,
                  fps_partial >= 1 / FRAME if khz == 100 else None, kind="wire")


def wire(count: int | float, khz: int) -> float:
    """Milliseconds ``count`` bytes take on an I2C bus at ``khz``."""
    return count * BITS_PER_BYTE / khz


def process_figures(bench: Bench, idle_seconds: float, starts: int = 5) -> None:
    """(d) cold start, (e) peak RSS, (f) idle CPU: the real app in a process of its own;
    the start's figures the medians of ``starts`` starts, as its anchors' are."""
    with tempfile.TemporaryDirectory() as folder:
        app, ready, said = _started(Path(folder))
        try:
            time.sleep(3.0)  # boot is over: the title, then setup
            before = _cpu_seconds(app.pid)
            time.sleep(idle_seconds)
            idle = _cpu_seconds(app.pid) - before
            rss = _peak_rss_kib(app.pid)
        finally:
            logged = [said(app)]
    readies = [ready]
    for _ in range(starts - 1):
        with tempfile.TemporaryDirectory() as folder:
            app, ready, said = _started(Path(folder))
            logged.append(said(app))
            readies.append(ready)
    # The table's own figures, from its log: its CPU at its first frame, its title, READY
    first, title, at_ready = (statistics.median(int(found.group(n)) / 1000 for found in logged)
                              for n in (1, 2, 3))
    bench.add(f"(d) process start -> READY (the title out first, then the pins and the seam), "
              f"median of {starts}", f"{statistics.median(readies):.2f} s", kind="wall")
    bare, anchor = _cpu_of([sys.executable, "-c", BARE_FRAME]), _cpu_of([sys.executable, "-c",
                                                                        "pass"])
    bench.add("(d) start -> first frame (the title's name), against a bare luma + Pillow "
              "frame in the same run",
              f"{first * 1000:.0f} ms = {first / bare:.1f}x ({bare * 1000:.0f} ms)", "<= 2x",
              first <= 2 * bare, kind="ratio")
    bench.add("(d) start -> first frame / the title / READY, against python -c pass in the "
              "same run", f"{first / anchor:.1f}x / {title / anchor:.1f}x / "
              f"{at_ready / anchor:.1f}x ({anchor * 1000:.0f} ms)", kind="ratio")
    bench.add("(e) peak RSS of the table", f"{rss / 1024:.1f} MB", "<= 60 MB", rss / 1024 <= 60,
              kind="memory")
    share = 100 * idle / idle_seconds
    bench.add(f"(f) CPU over {idle_seconds:g} s idle", f"{share:.2f} % of a core", "<= 0.5 %",
              share <= 0.5, kind="CPU")


def _started(folder: Path) -> tuple[subprocess.Popen[str], float, Callable[
        [subprocess.Popen[str]], re.Match[str]]]:
    """``robinson table`` emulated, in ``folder``, once it is READY (systemd's message, to a
    socket of our own): the process, the seconds it took, and what stops it and reads its
    log line of its start."""
    robinson = Path(sys.executable).with_name("robinson")
    notify = folder / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.settimeout(20)
    started = time.perf_counter()
    app = subprocess.Popen([str(robinson), "table", "--emulate", "--seats", "1,2,3",
                            "--state-dir", str(folder / "state")],
                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, env=dict(os.environ, NOTIFY_SOCKET=str(notify)),
                           text=True)
    try:
        message = listener.recv(64)
    except OSError:  # no READY within 20 s: the table is stopped, and this says why
        app.kill()
        raise AssertionError(app.communicate(timeout=20)[1]) from None
    finally:
        listener.close()
    assert message == b"READY=1"

    def said(app: subprocess.Popen[str]) -> re.Match[str]:
        found = re.search(FIRST_FRAME, app.communicate("q", timeout=20)[1])
        assert found is not None
        return found

    return app, time.perf_counter() - started, said


FIRST_FRAME = re.compile(r"the first frame out (\d+) ms of CPU after start; its title (\d+); "
                         r"ready after (\d+)")
"""The table's log line of its start (``firmware.app``)."""

BARE_FRAME = f"""
from luma.core.interface.serial import noop
from luma.oled.device import ssd1306
from PIL import Image, ImageDraw, ImageFont
try:
    font = ImageFont.truetype({BIG[0][0]!r}, {BIG[0][1]})
except OSError:
    font = ImageFont.load_default()
image = Image.new("1", (128, 64))
ImageDraw.Draw(image).text((8, 20), "ROBINSON", font=font, fill=1)
ssd1306(noop()).display(image)
"""
"""The anchor of the table's start: a bare luma + Pillow frame, in a process of its own
(luma's SSD1306 driver, the title's font, one frame to a serial that sends nowhere)."""


def _cpu_of(command: list[str], runs: int = 5) -> float:
    """The CPU of ``command`` as a process (the median of ``runs``), measured on the
    machine it runs on."""
    return statistics.median(_child_cpu(command) for _ in range(runs))


def _child_cpu(command: list[str], **env: str) -> float:
    """The CPU of ``command`` run once as a process of its own (``env`` over this one's)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, env={**os.environ, **env}, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def _peak_rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def sim_figures(bench: Bench, games: int) -> None:
    """(g) the simulator's kernel against a plain reading of the rules (anchor.py), the
    same games, CPU time in interleaved pairs: a ratio this machine's load cancels out
    of; and ``Play`` against the same anchor, for what the kernel replaced."""
    from firmware.tools.anchor import play_plainly
    from firmware.tools.sim import kernel_batch, play_batch, simulate

    seats, rules = (1, 2, 3, 4), HouseRules()

    def cpu(play: Callable[[], object]) -> float:
        began = time.process_time()
        play()
        return time.process_time() - began

    kernel, table = [], []
    for pair in range(3):
        die = random.Random(f"{pair}:0").random
        plain = cpu(lambda: play_plainly(seats, 1, rules, games, die))  # noqa: B023
        kernel.append(plain / cpu(lambda: kernel_batch(seats, 1, rules, games,
                                                       (pair, 0))))  # noqa: B023
        table.append(plain / cpu(lambda: play_batch(seats, 1, rules, games,
                                                    (pair, 0))))  # noqa: B023
    ratio = statistics.median(kernel)
    from robinson_core import compiled

    bench.add(f"(g) sim kernel ({compiled.which()}) vs a plain reading of the rules, same "
              "games (median of 3 pairs)", f"{ratio:.2f}x", ">= 3x", ratio >= 3, kind="ratio")
    bench.add("(g) the table's Play vs the plain reading, same games",
              f"{statistics.median(table):.2f}x", kind="ratio")
    whole_process_figures(bench, games * 2)
    cores = os.cpu_count() or 1
    for jobs in sorted({1, cores}):
        _, seconds = simulate(seats, 1, rules, games * jobs, jobs=jobs)
        bench.add(f"(g) robinson sim, 4 players, {jobs} job(s)",
                  f"{games * jobs / seconds:,.0f} games/s", kind="wall")


PLAIN_SIM = Path(__file__).resolve().parents[2] / "tools" / "plain_sim.py"


def whole_process_figures(bench: Bench, games: int) -> None:
    """(g) ``robinson sim`` as a whole process (start-up, its imports and all) against
    tools/plain_sim.py playing as many games plainly, CPU of each child in interleaved
    runs (median of 3): with the kernel mypyc compiled (where it was built) and pure."""
    from robinson_core import compiled

    if not PLAIN_SIM.is_file():
        bench.add("(g) robinson sim, whole process, vs tools/plain_sim.py", "not here",
                  kind="ratio")  # (a bundle carries no tools/)
        return
    sim = [str(Path(sys.executable).with_name("robinson")), "sim", "--games", str(games),
           "--players", "4"]
    plain = [sys.executable, str(PLAIN_SIM), "--games", str(games)]
    built = compiled.which() == "compiled"
    fast: list[float] = []
    slow: list[float] = []
    for _ in range(3):
        reference = _child_cpu(plain)
        if built:
            fast.append(reference / _child_cpu(sim))
        slow.append(reference / _child_cpu(sim, ROBINSON_KERNEL="pure"))
    pure = statistics.median(slow)
    target = ">= 4x" if games >= 20_000 else ""  # (fewer: start-up is most of it)
    if built:
        ratio = statistics.median(fast)
        bench.add(f"(g) robinson sim, whole process, {games:,} games, vs tools/plain_sim.py: "
                  "mypyc's kernel (pure)", f"{ratio:.2f}x ({pure:.2f}x)", target,
                  ratio >= 4 if target else None, kind="ratio")
    else:
        bench.add(f"(g) robinson sim, whole process, {games:,} games, vs tools/plain_sim.py: "
                  "the pure kernel (no compiled one here)", f"{pure:.2f}x",
                  target and f"{target} (compiled)", False if target else None, kind="ratio")


def odds_figures(bench: Bench) -> None:
    """(m) a decision's odds as the table weighs them: ROLLOUTS games an option, from a
    decision early in a game of four (the longest to play out), CPU (the table's worker
    thread does the same, through the kernel mypyc compiled where it was built), and the
    pure kernel's beside it."""
    from firmware.shell.die import rollouts
    from robinson_core import compiled
    from robinson_core.kernel import ROLLOUTS
    from robinson_core.kernel import odds as pure_odds

    game = Game((1, 2, 3, 4))
    for face in (4, 4, 6, 2, 1, 3, 1, 6, 3, 4):  # seat 2 reaches 7 and must decide
        game = game.play(Roll(face))
    assert game.state.pending is Pending.TREE
    spent: dict[str, list[float]] = {"table": [], "pure": []}
    for seed in range(5):
        for kind, odds in (("table", compiled.odds), ("pure", pure_odds)):
            started = time.process_time()
            odds(game.state, ROLLOUTS, rollouts(seed).random)
            spent[kind].append((time.process_time() - started) * 1000)
    median, pure = (statistics.median(spent[kind]) for kind in ("table", "pure"))
    bench.add(f"(m) a decision's odds, {ROLLOUTS:,} games an option (median of 5): "
              f"the table's kernel, {compiled.which()} (pure)", f"{median:.0f} ms ({pure:.0f})",
              "<= 35 ms", median <= 35, kind="CPU")


def replay_figures(bench: Bench, actions: int) -> None:
    """(h) ``robinson replay`` of a long script, in its own process: time and peak memory."""
    robinson = Path(sys.executable).with_name("robinson")
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "script.txt"
        # Both players reach 7 and stay there: the only way a game lasts that long.
        script.write_text("6 6 1 1 " + " ".join(["stay"] * (actions - 4)), encoding="utf-8")
        child = subprocess.Popen([str(robinson), "replay", "--players", "2", "--json",
                                  "--script-file", str(script)], stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own CPU and peak memory
        child.returncode = os.waitstatus_to_exitcode(status)
        assert child.returncode == 0
    seconds = usage.ru_utime + usage.ru_stime
    bench.add(f"(h) replay --script-file, {actions:,} actions, the process",
              f"{seconds:.2f} s", kind="CPU")
    bench.add(f"(h) replay of {actions:,} actions, peak RSS", f"{usage.ru_maxrss / 1024:.1f} MB",
              kind="memory")


def long_game_figures(bench: Bench, presses: int) -> None:
    """(i) a press of a 2,000-action game (the most a save holds) against one of a game
    just begun: the rule's step, the audit (the last step only) and the save, on a real
    database. The cost must not grow with the game."""
    from robinson_core import Choice, Roll
    from robinson_core.game import MAX_ACTIONS

    begun = Game((1, 2)).play(Roll(6)).play(Roll(6)).play(Roll(1)).play(Roll(1))
    long = begun
    while len(long.actions) < MAX_ACTIONS - presses:  # both stay in the tree on 7
        long = long.play(Choice.STAY)
    medians = []
    for game in (begun, long):
        with tempfile.TemporaryDirectory() as folder:
            store = Store(Path(folder), pref_keys=PREF_KEYS)
            store.save(game)
            spent = []
            for _ in range(presses):
                started = time.process_time()
                game = game.play(Choice.STAY)
                assert game.audit() is None
                store.save(game)
                spent.append((time.process_time() - started) * 1000)
            store.close()
        medians.append(statistics.median(spent))
    bench.add("(i) a press (step, audit, save), game begun", f"{medians[0]:.2f} ms",
              kind="CPU")
    bench.add(f"(i) a press at {MAX_ACTIONS:,} actions, against one begun",
              f"{medians[1]:.2f} ms = {medians[1] / medians[0]:.2f}x", "<= 1.3x",
              medians[1] <= 1.3 * medians[0], kind="ratio")


def recall_figures(bench: Bench, times: int) -> None:
    """(n) the menu's recall beside ten 2,000-action games put away: what the shell does
    for it (the store's summaries; with no game in play, the newest replayed as well for
    its last turns), against the replay of all ten it did before. CPU, median."""
    from robinson_core import Choice, Roll
    from robinson_core.game import MAX_ACTIONS

    long = Game((1, 2)).play(Roll(6)).play(Roll(6)).play(Roll(1)).play(Roll(1))
    while len(long.actions) < MAX_ACTIONS:  # both stay in the tree on 7
        long = long.play(Choice.STAY)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder), pref_keys=PREF_KEYS)
        for _ in range(10):
            store.save(long)
            store.put_away(long, None)
        assert len(store.recent(10)) == 10
        ways: dict[str, Callable[[], object]] = {
                "recent": lambda: store.recent(10),
                "newest": lambda: store.finished(1),
                "replayed": lambda: store.finished(10)}
        spent: dict[str, list[float]] = {way: [] for way in ways}
        for _ in range(times):
            for way, read in ways.items():
                started = time.process_time()
                read()
                spent[way].append((time.process_time() - started) * 1000)
        store.close()
    ms = {way: statistics.median(times) for way, times in spent.items()}
    bench.add(f"(n) recall: ten {MAX_ACTIONS:,}-action games put away, listed",
              f"{ms['recent']:.2f} ms (replayed: {ms['replayed']:.0f} ms)", "<= 10 ms",
              ms["recent"] <= 10, kind="CPU")
    bench.add("(n) recall with no game in play: the newest replayed for its last turns",
              f"{ms['recent'] + ms['newest']:.1f} ms", kind="CPU")


def voice_figures(bench: Bench, utterances: int, demo_seconds: float) -> None:
    """(j) the spoken banker: a result's text handed over -> its first sample reaching the
    player (espeak-ng's start and first sound), the CPU an utterance takes (espeak-ng,
    aplay and the pump), and the largest peak RSS among them; then the table's own peak
    RSS while a demo speaks every result."""
    from firmware.runtime.speaker import Speaker, Utterance
    from firmware.speech.said import Spoken

    if shutil.which("espeak-ng") is None or shutil.which("aplay") is None:
        bench.add("(j) voice", "espeak-ng or aplay missing: not measured", kind="count")
        return
    game, texts = Game((1, 2, 3)), []
    for face in (3, 5, 6, 2, 4, 1, 6, 5, 3, 4) * 10:
        pending = game.state.pending is Pending.ROLL
        game = game.play(Roll(face) if pending else game.state.legal_actions()[0])
        if game.state.status is not Status.PLAYING:
            game = Game((1, 2, 3))
        texts.append(Spoken("en").result(game))
    speaker = Speaker(device="null")  # ALSA's null device: no card needed, no pacing
    waits, cpus = [], []
    try:
        for text in texts[:utterances]:
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            own = time.process_time()
            speaker.say(Utterance(text, "en"))
            assert speaker.idle(30.0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
                        + time.process_time() - own)
            asked, first, _ = speaker.said[-1]
            if first is not None:
                waits.append((first - asked) * 1000)
    finally:
        speaker.close()
    if waits:
        bench.add("(j) voice: text handed over -> first sample into aplay's pipe (not yet the "
                  "card; median / the most)",
                  f"{statistics.median(waits):.1f} / {max(waits):.1f} ms", "<= 250 ms",
                  max(waits) <= 250, kind="wall")
    bench.add("(j) voice: an utterance (espeak-ng, aplay, pump; median)",
              f"{statistics.median(cpus) * 1000:.0f} ms", kind="CPU")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    bench.add("(j) voice: largest peak RSS of espeak-ng or aplay", f"{peak / 1024:.1f} MB",
              kind="memory")
    robinson = Path(sys.executable).with_name("robinson")
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "config.toml"
        config.write_text('[voice]\nenabled = true\ndevice = "null"\n', encoding="utf-8")
        app = subprocess.Popen([str(robinson), "table", "--demo", "--seed", "1", "--config",
                                str(config), "--state-dir", str(Path(folder) / "state")],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        try:
            time.sleep(demo_seconds)  # a demo's rolls, each result said
            rss = _peak_rss_kib(app.pid)
        finally:
            app.send_signal(signal.SIGTERM)
            app.wait(timeout=20)
    bench.add("(j) peak RSS of the table, a demo speaking", f"{rss / 1024:.1f} MB", "<= 60 MB",
              rss / 1024 <= 60, kind="memory")


def save_figures(bench: Bench, saves: int) -> None:
    """(k) the wall time of a press's save on this machine's disk: the commit, the
    checkpoint that leaves the -wal empty, and the ledger's fdatasync (wall: the disk's
    syncs are the most of it, and a shared machine's disk is noisy)."""
    from robinson_core import Choice, Roll

    game = Game((1, 2)).play(Roll(6)).play(Roll(6)).play(Roll(1)).play(Roll(1))
    with tempfile.TemporaryDirectory(dir=Path.home()) as folder:
        store = Store(Path(folder), pref_keys=PREF_KEYS)
        store.save(game)
        spent = []
        for _ in range(saves):
            game = game.play(Choice.STAY)
            started = time.perf_counter()
            store.save(game)
            spent.append((time.perf_counter() - started) * 1000)
        wal = (Path(folder) / "robinson.db-wal").stat().st_size
        store.close()
    bench.add("(k) a save (commit, checkpoint, ledger's fdatasync), median",
              f"{statistics.median(spent):.2f} ms", kind="wall")
    bench.add("(k) the -wal after a save", f"{wal:,} B", "0 B", wal == 0, kind="count")
    put_away_figures(bench, max(5, saves // 4))


def put_away_figures(bench: Bench, times: int) -> None:
    """(k) a put-away beside 100 finished games, with the spare's copy (once a game) and
    without it: what the spare costs (wall, as the save)."""
    from firmware.saves import spare

    rng, won = random.Random(5), Game((1, 2, 3))
    while won.state.legal_actions():  # a whole game: the rows a put-away keeps
        won = won.play(rng.choice(won.state.legal_actions()))
    with tempfile.TemporaryDirectory(dir=Path.home()) as folder:
        store = Store(Path(folder), pref_keys=PREF_KEYS)
        for _ in range(100):
            store.save(won)
            store.put_away(won, None)
        keep = spare.keep
        spent: dict[bool, list[float]] = {True: [], False: []}
        for n in range(2 * times):
            copies = n % 2 == 0
            spare.keep = keep if copies else (lambda db, directory: None)
            store.save(won)
            started = time.perf_counter()
            store.put_away(won, None)
            spent[copies].append((time.perf_counter() - started) * 1000)
        spare.keep = keep
        store.close()
    bench.add("(k) a put-away beside 100 games, the spare's copy included",
              f"{statistics.median(spent[True]):.2f} ms (without it "
              f"{statistics.median(spent[False]):.2f})", kind="wall")


def idle_figures(bench: Bench, seconds: float) -> None:
    """(l) the emulated table left alone at its title for ``seconds``: its wake-ups (every
    thread's voluntary context switches) and CPU (from /proc: Linux only)."""
    from firmware.seam.wire import socket_path

    robinson = Path(sys.executable).with_name("robinson")
    if not Path("/proc/self/task").is_dir():
        return

    def wakes(pid: int) -> int:
        total = 0
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                for line in (task / "status").read_text().splitlines():
                    if line.startswith("voluntary_ctxt_switches:"):
                        total += int(line.split()[1])
        return total

    def ticks(pid: int) -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return int(fields[11]) + int(fields[12])  # utime, stime

    with tempfile.TemporaryDirectory() as folder:
        app = subprocess.Popen([str(robinson), "table", "--state-dir",
                                str(Path(folder) / "state")], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:  # stdin held open, never written: nobody presses
            _until(lambda: socket_path(Path(folder) / "state").exists(), 20)  # started,
            time.sleep(1.0)  # and its title drawn: then nothing is to do
            woke, spent = wakes(app.pid), ticks(app.pid)
            time.sleep(seconds)
            woke, spent = wakes(app.pid) - woke, ticks(app.pid) - spent
        finally:
            app.send_signal(signal.SIGTERM)
            app.wait(timeout=20)
    per_second = woke / seconds
    bench.add(f"(l) idle: wake-ups a second, the table at its title for {seconds:.0f} s",
              f"{per_second:.1f} (CPU {spent / os.sysconf('SC_CLK_TCK') * 1000:.0f} ms)",
              "< 1", per_second < 1, kind="count")


def web_figures(bench: Bench, presses: int, clients: int = 10) -> None:
    """(o) the companion page: ``robinson web``'s memory idle and with ``clients`` live
    SSE clients, a press's way to them (the key written to the event read), and the
    table's CPU a press without the page and with it (the table's process, /proc)."""
    import importlib.util

    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec("uvicorn") is None:
        bench.add("(o) the companion page", "not measured: no web extra installed", kind="count")
        return
    from firmware.seam.wire import socket_path

    robinson = Path(sys.executable).with_name("robinson")

    def new_table(state: Path) -> subprocess.Popen[bytes]:
        """A table of its own with a new game of six just begun: each phase below presses
        through the first ``presses`` rolls of a game, never past its end (the first
        phase once ran a game to its end, and the second measured presses over a won
        game's screen, which change nothing)."""
        table = subprocess.Popen([str(robinson), "table", "--emulate", "--no-animation",
                                  "--seats", "1,2,3,4,5,6", "--state-dir", str(state)],
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        assert table.stdin is not None
        _until(lambda: socket_path(state).exists(), 20)
        time.sleep(1.5)
        table.stdin.write(b"hh")  # a new game: six players
        table.stdin.flush()
        time.sleep(1.5)
        return table

    def stop(table: subprocess.Popen[bytes]) -> None:
        assert table.stdin is not None
        table.stdin.write(b"q")
        table.stdin.close()
        table.wait(timeout=20)

    def press_cpu(table: subprocess.Popen[bytes],
                  follower: _Follower | None) -> tuple[float, list[float]]:
        """The table's CPU a press (ms), and each press's way to ``follower``."""
        assert table.stdin is not None
        spent = _cpu_seconds(table.pid)
        ways = []
        for _ in range(presses):
            before, pressed = (follower.version if follower else 0), time.monotonic()
            table.stdin.write(b" ")
            table.stdin.flush()
            if follower is not None:
                got = follower.after(before, 5.0)
                if got is not None:
                    ways.append((got - pressed) * 1000)
            time.sleep(max(0.0, 0.25 - (time.monotonic() - pressed)))
        return (_cpu_seconds(table.pid) - spent) * 1000 / presses, ways

    with tempfile.TemporaryDirectory() as folder:
        table = new_table(Path(folder) / "alone")
        try:
            alone, _ = press_cpu(table, None)
        finally:
            stop(table)
        state = Path(folder) / "followed"
        table = new_table(state)
        web: subprocess.Popen[bytes] | None = None
        followers: list[_Follower] = []
        try:
            port = _free_port()
            web = subprocess.Popen([str(robinson), "web", "--state-dir", str(state), "--port",
                                    str(port)], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
            _until(lambda: _get(port, "/api/now") == 200, 20)
            time.sleep(2.0)
            idle_rss = _rss_kib(web.pid)
            followers = [_Follower(port) for _ in range(clients)]
            _until(lambda: all(f.version for f in followers), 20)
            followed, ways = press_cpu(table, followers[0])
            busy_rss = _peak_rss_kib(web.pid)
            web_cpu = _cpu_seconds(web.pid)
        finally:
            for follower in followers:
                follower.close()
            if web is not None:
                web.send_signal(signal.SIGTERM)
                web.wait(timeout=20)
            stop(table)
    bench.add("(o) the page's RSS, idle (following the table)", f"{idle_rss / 1024:.1f} MB",
              "<= 50 MB", idle_rss / 1024 <= 50, kind="memory")
    bench.add(f"(o) the page's peak RSS, {clients} live clients", f"{busy_rss / 1024:.1f} MB",
              "<= 50 MB", busy_rss / 1024 <= 50, kind="memory")
    # A press over a screen it does not change (the first, while the game starts) shows
    # nothing new: the next event is the panel turning a page, seconds later. Counted.
    changed = sorted(way for way in ways if way < 1000)
    if changed:
        tail = changed[int(0.9 * (len(changed) - 1))]
        bench.add(f"(o) key -> SSE event at a client (an 80 ms press in it), median of "
                  f"{len(changed)} ({presses - len(changed)} changed nothing within 1 s)",
                  f"{statistics.median(changed):.0f} ms (90 %: {tail:.0f})", "<= 300 ms",
                  statistics.median(changed) <= 300, kind="wall")
    bench.add(f"(o) the table's CPU a press without the page / with it and {clients} clients",
              f"{alone:.2f} / {followed:.2f} ms = {followed / alone:.2f}x", "<= 1.5x",
              followed <= 1.5 * alone, kind="ratio")
    bench.add(f"(o) the page's own CPU over those {presses} presses", f"{web_cpu:.2f} s",
              kind="CPU")


class _Follower:
    """One live client of the page: an SSE stream read in a thread of its own (stdlib
    only: the bench runs where the test tools are not installed)."""

    def __init__(self, port: int) -> None:
        import http.client
        import threading

        self.version = 0
        self.seen: list[tuple[float, int]] = []
        self._changed = threading.Condition()
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self._connection.request("GET", "/events")
        self._response = self._connection.getresponse()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        import json

        with contextlib.suppress(Exception):  # closed under it at the end: that is all
            while line := self._response.readline():
                if line.startswith(b"data: "):
                    version = int(json.loads(line[6:])["version"])
                    with self._changed:
                        self.version = version
                        self.seen.append((time.monotonic(), version))
                        self._changed.notify_all()

    def after(self, version: int, timeout: float) -> float | None:
        """When the first event past ``version`` came (None: not within ``timeout``)."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > version, timeout)
            return next((t for t, v in self.seen if v > version), None)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._connection.sock.shutdown(socket.SHUT_RDWR)
        self._connection.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(port: int, path: str) -> int:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    except OSError:
        return 0
    finally:
        connection.close()


def _until(check: Callable[[], bool], within: float) -> None:
    end = time.monotonic() + within
    while not check():
        if time.monotonic() > end:
            raise TimeoutError("the bench's table or page did not come up")
        time.sleep(0.05)


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


PANEL_TURNS = 10  # turns on each panel class, quick or not: its rows are the docs' too
BEGIN, END = "<!-- robinson bench: begin -->", "<!-- robinson bench: end -->"


def run(quick: bool = False) -> str:
    bench = Bench()
    voice_figures(bench, 5 if quick else 40, 6.0 if quick else 8.0)
    long_game_figures(bench, 20 if quick else 100)
    recall_figures(bench, 3 if quick else 15)
    save_figures(bench, 20 if quick else 200)
    press_path(15 if quick else 120, bench)
    process_figures(bench, 2.0 if quick else 10.0)
    idle_figures(bench, 2.0 if quick else 60.0)
    sim_figures(bench, 1000 if quick else 10_000)
    odds_figures(bench)
    replay_figures(bench, 10_000 if quick else 100_000)
    web_figures(bench, 10 if quick else 60)  # presses: well within a game of six
    kinds = "\n".join(f"  {kind:<6}  {meaning}" for kind, meaning in KINDS.items())
    return (bench.table() + f"\n\nKinds:\n{kinds}\n\nPanel classes (the same {PANEL_TURNS} "
            "turns on each panel's own driver):\n" + panel_classes(PANEL_TURNS))


def machine() -> str:
    """This machine, in a line: its CPU, its cores, the Python that ran the bench."""
    model = "an unnamed CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith(("model name", "Model")):
                model = line.partition(":")[2].strip()
                break
    return (f"{model}, {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
            f"{time.strftime('%Y-%m-%d')}")


def write_markdown(path: Path, text: str) -> None:
    """Put this run's tables between the bench's markers in ``path`` (a file of the
    docs), with the machine that measured them; raises ValueError without the markers."""
    doc = path.read_text(encoding="utf-8")
    head, begin, rest = doc.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not (begin and end):
        raise ValueError(f"{path} has no {BEGIN} ... {END} block to write the tables in")
    block = (f"{BEGIN}\nWritten by `robinson bench --markdown {path}` on {machine()}."
             f"\n\n```\n{text}\n```\n{END}")
    path.write_text(head + block + tail, encoding="utf-8")
