"""The Pi path, on this machine: board detection, never a silent emulation, the panel's
bus opened with care, SIGHUP, lgpio's FIFO, the package ranges. The virtual Pi
(tests/test_virtual_pi.py) runs the same on a real kernel with real systemd."""

from __future__ import annotations

import atexit
import configparser
import errno
import gc
import itertools
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from firmware.config.settings import Display
from firmware.devices import PanelMissing, real_device
from firmware.display.panel import Panel
from firmware.display.panels import Interface

ROOT = Path(__file__).resolve().parents[2]
ROBINSON = Path(sys.executable).with_name("robinson")
UNIT = ROOT / "systemd" / "robinson-table.service"


def table(*args: str, env: dict[str, str] | None = None,
          timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ROBINSON, "table", *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=timeout, check=False,
                          env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", **(env or {})})


# -- never silently emulated -------------------------------------------------------------


def test_a_service_that_finds_no_pi_says_so_and_fails(tmp_path: Path) -> None:
    run = table("--state-dir", str(tmp_path), env={"INVOCATION_ID": "0123"})
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert run.stderr.count("\n") == 1 and "no Raspberry Pi found (under systemd)" in run.stderr
    assert "--hardware emulate" in run.stderr


def test_piped_off_a_pi_auto_emulates_and_prints_each_page_as_text(tmp_path: Path) -> None:
    """The README's pipe example with its output piped too (| tee log, a script): the
    keys come from stdin, each page the panel shows goes to stdout as text, once."""
    run = subprocess.run([ROBINSON, "table", "--state-dir", str(tmp_path), "--seats", "1,2"],
                         input="h h    q", capture_output=True, text=True, timeout=60,
                         check=False, env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"})
    assert run.returncode == 0, run.stderr
    pages = run.stdout.split("\n\n")
    assert pages[0] == "┌ ROBINSON\n│ Setting up…"
    assert "┌ New game   [1/2]\n│ Youngest starts:\n│ Player 1\n" in run.stdout
    assert "┌ Player 1 rolls…" in pages or "┌ Player 2 rolls…" in pages
    assert all(a != b for a, b in itertools.pairwise(pages))  # a page once, not per frame


def test_hardware_pi_on_no_pi_is_one_line(tmp_path: Path) -> None:
    run = table("--hardware", "pi", "--state-dir", str(tmp_path))
    assert run.returncode == 2 and "no Raspberry Pi found (--hardware pi)" in run.stderr


def test_hardware_emulate_runs_anywhere(tmp_path: Path) -> None:
    run = table("--hardware", "emulate", "--state-dir", str(tmp_path))
    assert run.returncode == 0, run.stderr  # stdin at its end: quits, the game saved


def test_the_unit_leaves_gpiozero_the_files_that_name_the_board() -> None:
    text = UNIT.read_text()
    settings = [line.split("#")[0].strip() for line in text.splitlines()]
    assert "ProtectProc=invisible" in settings and not any(
        s.startswith("ProcSubset=") for s in settings)
    assert "--hardware pi" in text


def _unshare_root() -> bool:
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.skipif(not _unshare_root(), reason="needs root and mount namespaces")
def test_the_board_is_read_from_cpuinfo_as_gpiozero_reads_it(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nHardware\t: BCM2835\nRevision\t: a02082\n")
    script = (f"mount --bind {cpuinfo} /proc/cpuinfo && {sys.executable} -c "
              "'from firmware.revision import pi_revision; print(hex(pi_revision()))'")
    run = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True,
                         text=True, check=False, cwd=ROOT)
    assert run.stdout.strip() == "0xa02082", run.stderr


# -- SPI under the unit -------------------------------------------------------------------


def test_the_unit_allows_the_spi_major_by_its_real_name() -> None:
    # spidev registers its character major as "spi" (linux drivers/spi/spidev.c:
    # register_chrdev(SPIDEV_MAJOR, "spi", ...)); char-spidev matches nothing.
    text = UNIT.read_text()
    assert "DeviceAllow=char-spi rw" in text and "char-spidev" not in text
    assert "dev-i2c" not in "\n".join(line for line in text.splitlines()
                                      if not line.startswith("#"))


def test_an_spi_panel_whose_rpi_gpio_will_not_start_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """luma turns RPi.GPIO's RuntimeError into 'GPIO access not available' and drops the
    reason (the virtual Pi met it: rpi-lgpio reads the board's revision from the device
    tree only). A stand-in RPi.GPIO that fails as rpi-lgpio does off a Pi: the line
    says what it said."""
    package = tmp_path / "RPi"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "GPIO.py").write_text(
        "raise RuntimeError('This module can only be run on a Raspberry Pi!')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PanelMissing) as said:
        real_device(Display(interface=Interface.SPI))
    assert str(said.value) == (
        "GPIO access not available: RPi.GPIO says 'This module can only be run on a "
        "Raspberry Pi!' (it is python3-rpi-lgpio; sudo ./install.sh installs it)")


# -- the panel's bus, opened with care --------------------------------------------


class FakeBus:
    """smbus2's SMBus as a panel on a wire would answer, holding a real file open."""

    opened: ClassVar[list[FakeBus]] = []

    def __init__(self, port: int, *, answers: bool = True, full_i2c: bool = True,
                 writes_fail: bool = False) -> None:
        self.fd: int | None = os.open("/dev/null", os.O_RDONLY)
        self.answers, self.writes_fail = answers, writes_fail
        self.funcs = 0x0FFF000F if full_i2c else 0x0FFF0008  # no I2C_FUNC_I2C (bit 0)
        self.blocks: list[int] = []
        FakeBus.opened.append(self)

    def write_quick(self, address: int) -> None:
        if not self.answers:
            raise OSError(errno.ENXIO, "No such device or address")

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        if self.writes_fail:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.blocks.append(len(data))

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def exit_hooks() -> int:
    return atexit._ncallbacks()  # CPython's own count


@pytest.mark.parametrize("kind", ["no bus", "no answer", "answers, then fails"])
def test_a_missing_panel_leaves_no_file_and_no_exit_hook_behind(kind: str) -> None:
    display = Display(i2c_port=1)

    def open_bus(port: int) -> FakeBus:
        if kind == "no bus":
            raise FileNotFoundError(errno.ENOENT, "No such file", f"/dev/i2c-{port}")
        return FakeBus(port, answers=kind != "no answer", full_i2c=False, writes_fail=True)

    gc.collect()  # an earlier test's garbage closes its files now, not while this counts
    before_files, before_hooks = open_files(), exit_hooks()
    panel = Panel(lambda: real_device(display, open_bus), scheduler=None)
    from PIL import Image
    for _ in range(300):
        panel.show(Image.new("1", (128, 64), 1))
        panel.retry()
    assert panel.faults == 601 and not panel.healthy
    # None left open (a file a retry would be 300): no more than before. Not "as many":
    # a CI run counted one fewer after, a file of another test's closed meanwhile.
    assert open_files() <= before_files and exit_hooks() == before_hooks


def test_no_bus_and_no_answer_are_one_line_saying_what_to_check() -> None:
    def no_bus(port: int) -> FakeBus:
        raise FileNotFoundError(errno.ENOENT, "No such file", f"/dev/i2c-{port}")

    with pytest.raises(PanelMissing, match=r"no I2C bus /dev/i2c-1: is I2C enabled"):
        real_device(Display(), no_bus)
    with pytest.raises(PanelMissing, match=r"no panel answers at 0x3c on /dev/i2c-1"):
        real_device(Display(), lambda port: FakeBus(port, answers=False))


def test_an_adapter_without_full_i2c_gets_smbus_block_writes() -> None:
    FakeBus.opened.clear()
    device = real_device(Display(), lambda port: FakeBus(port, full_i2c=False))
    bus = FakeBus.opened[-1]
    from PIL import Image
    device.display(Image.new("1", (128, 64), 1))
    assert bus.blocks and max(bus.blocks) == 32 and sum(bus.blocks) > 1024
    device.cleanup()
    assert bus.fd is None  # the panel's close closes the bus we opened


def test_a_panel_that_stays_away_is_retried_ever_more_slowly_and_quietly(
        caplog: pytest.LogCaptureFixture) -> None:
    from firmware.runtime.loop import Loop, ManualClock, advance

    clock = ManualClock()
    loop = Loop(clock)

    def gone() -> object:
        raise PanelMissing("no panel answers at 0x3c on /dev/i2c-1")

    from PIL import Image
    panel = Panel(gone, clock=clock, scheduler=loop)  # type: ignore[arg-type]
    panel.show(Image.new("1", (128, 64)))
    advance(loop, clock, 3600.0)
    # 1, 2, 4, 8, 16, then every 30 s: about 120 tries in an hour, not 3,600.
    assert 115 <= panel.faults <= 125, panel.faults
    warnings = [r for r in caplog.records if r.name == "robinson.panel"]
    assert 3 < len(warnings) <= 3 + 60, len(warnings)  # the first three, then one a minute


# -- SIGHUP -------------------------------------------------------------------------------


def test_sighup_ends_the_table_with_a_status_systemd_restarts(tmp_path: Path) -> None:
    notify = tmp_path / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.settimeout(30)
    app = subprocess.Popen([ROBINSON, "table", "--hardware", "emulate", "--state-dir",
                            str(tmp_path / "s")], stdin=subprocess.PIPE,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           env={"PATH": "/usr/bin:/bin", "NOTIFY_SOCKET": str(notify),
                                "HOME": str(tmp_path)})
    try:
        assert listener.recv(64) == b"READY=1"
        app.send_signal(signal.SIGHUP)
        assert app.wait(timeout=20) == 129
    finally:
        app.kill()
        app.wait()
        listener.close()
        if app.stdin:
            app.stdin.close()
        if app.stderr:
            app.stderr.close()


# -- lgpio's FIFO ------------------------------------------------------------------------


def test_lgpio_is_told_a_directory_it_can_write(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    from firmware import startup
    from firmware.config.settings import Config

    seen: list[str | None] = []
    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.setattr(startup, "build", lambda config, on_frame, pins_later: seen.append(
        os.environ.get("LG_WD")))
    os.chdir(tmp_path)
    tmp_path.chmod(0o500)  # the working directory is not writable, as / is for robinson
    try:
        startup.rigging(Config(), emulated=False)
    finally:
        tmp_path.chmod(0o700)
        os.chdir(ROOT)
    assert seen and seen[0] is not None and os.access(seen[0], os.W_OK)


# -- what the package asks for --------------------------------------------------------------


def test_nothing_the_pi_installs_with_pip_needs_a_compiler() -> None:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    pi = cfg["options.extras_require"]["pi"]
    assert "RPi.GPIO" not in pi and "lgpio" not in pi and "spidev" not in pi


def test_the_version_ranges_are_floors_and_caps_that_this_install_meets() -> None:
    from importlib.metadata import version

    from pip._vendor.packaging.requirements import Requirement

    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    wanted = [Requirement(line) for line in
              cfg["options"]["install_requires"].strip().splitlines()]
    wanted += [Requirement(cfg["options.extras_require"]["lcd"].strip())]
    names = {r.name.lower(): r for r in wanted}
    assert str(names["pillow"].specifier) in ("<14,>=10.4", ">=10.4,<14")
    assert "<4" in str(names["luma.oled"].specifier) and "<3" in str(names["luma.core"].specifier)
    assert str(names["luma.lcd"].specifier) in ("<3,>=2.13", ">=2.13,<3")
    checked = 0
    for requirement in wanted:
        assert requirement.specifier.contains(version(requirement.name), prereleases=True), \
            requirement
        checked += 1
    assert checked == len(wanted) >= 6

