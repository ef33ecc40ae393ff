"""The virtual Pi: the product as a Pi runs it, on a real kernel with real systemd.

Two QEMU guests, side by side, boot Debian's kernel with systemd as PID 1, the
kernel's simulated GPIO chip (gpio-sim) and an I2C panel (i2c-stub at 0x3C), install
the product with its own install.sh and run the unit as shipped. The harness inside
(tests/virtual_pi/guest/harness.py) presses buttons through gpio-sim, cuts the
state disk's power with dm-flakey, hangs the loop, reboots without sync; these
tests judge what it saw, decoding the panel from the kernel's SMBus trace with the
same panel model as every other test. Where it cannot run (not root, a Pi, no
QEMU to be had) it is skipped with one loud line; ROBINSON_VPI=0 skips it too.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero.tones import Tone
from PIL import Image

from firmware.display.render import render
from firmware.display.screens import result_screen
from firmware.display.words import Words
from firmware.runtime.tunes import NOTE, Tune
from firmware.saves.store import Store
from firmware.table.state import TRIAL_FOR
from robinson_core import Game, Pending

from . import host_packages
from .conftest import SAY
from .rig import FONTS
from .virtual_pi import vm

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "reference" / "screens"
LONG = os.environ.get("ROBINSON_LONG") == "1"
CUTS = 200 if LONG else 8
"""Power cuts in the tier, shared by its two guests (vm.table_share). 20 until
2026-12-06, when the tier took 12:39 with its images built (the guide allows 8 warm);
16 until the tier still took 8:34-8:49 warm, 12 until it took 8:21 (a cut costs the
table's guest 8-9 s, the cuts' guest 18): a cut is one more draw of the same random
timing on a real kernel's page cache; a kill at every write-side system call of each
flow is the host's campaign (tests/saves/test_kill_points.py)."""
WATCHDOG_SEC, RESTART_SEC = 10, 5
# The long tier: the table's guest on arm64 too (ROBINSON_VPI_LONG=1 ./test.sh -k virtual_pi)
TABLES = ["x86", *(["arm64"] if os.environ.get("ROBINSON_VPI_LONG") == "1" else [])]


@pytest.fixture(scope="module")
def guests(tmp_path_factory: pytest.TempPathFactory) -> dict[str, vm.Run]:
    why = "ROBINSON_VPI=0" if os.environ.get("ROBINSON_VPI") == "0" else vm.unavailable()
    if why:
        SAY.append(f"!!! VIRTUAL PI SKIPPED: {why} !!!")
        pytest.skip(f"virtual Pi skipped: {why}")
    reuse = os.environ.get("ROBINSON_VPI_REUSE")  # judge a finished run again (debugging)
    if reuse:
        return {part: vm.finished(Path(reuse) / part) for part in vm.PARTS}
    return vm.boot(tmp_path_factory.mktemp("vpi"), cuts=CUTS)


def _stopped(run: vm.Run) -> None:
    if "error" in run.facts or "done" not in run.facts:
        console = (run.folder / "console.txt").read_text(errors="replace")[-3000:]
        pytest.fail(f"the harness stopped: {run.facts.get('error')}\n{console}")


@pytest.fixture(scope="module")
def arm64(tmp_path_factory: pytest.TempPathFactory) -> vm.Run:
    """The long tier's guest: the table's part on 64-bit Arm, a Pi 5 by its device tree."""
    reuse = os.environ.get("ROBINSON_VPI_REUSE")
    if reuse:
        return vm.finished(Path(reuse) / "arm64" / "table")
    why = vm.unavailable() or host_packages.ensure(*vm.ARM64_PACKAGES)
    if why:
        SAY.append(f"!!! VIRTUAL PI, ARM64 SKIPPED: {why} !!!")
        pytest.skip(f"arm64 guest skipped: {why}")
    return vm.boot_arm64(tmp_path_factory.mktemp("vpi") / "arm64", cuts=CUTS)


@pytest.fixture(scope="module", params=TABLES)
def vpi(request: pytest.FixtureRequest) -> vm.Run:
    """The table's guest: a game, the watchdog, failures, a reboot without sync (x86; and
    arm64 in the long tier)."""
    run: vm.Run = request.getfixturevalue("guests")["table"] if request.param == "x86" \
        else request.getfixturevalue("arm64")
    _stopped(run)
    return run


@pytest.fixture(scope="module")
def cutting(guests: dict[str, vm.Run]) -> vm.Run:
    """The power cuts' guest, run beside the table's."""
    _stopped(guests["cuts"])
    return guests["cuts"]


@pytest.fixture(scope="module")
def panel(vpi: vm.Run) -> vm.PanelLog:
    return vm.decode(vpi.results / "trace-1.txt")


def reference(name: str) -> Image.Image:
    return Image.open(REFERENCE / f"{name}.png").convert("1")


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.convert("1").tobytes() == b.convert("1").tobytes()


def saved_game(folder: Path) -> Game | None:
    """The game the table would resume from this copy of its state directory; a cut
    must never look like damage (nothing set aside, no problem reported)."""
    loaded = Store(folder).load()
    assert loaded.problem is None, (folder, loaded.problem)
    return loaded.game


def test_the_service_runs_the_table_from_boot(vpi: vm.Run) -> None:
    assert vpi.facts["boot_state"] == "active"
    assert vpi.facts["reboot_state"] == "active"
    assert int(vpi.facts["reboot_active_monotonic_us"]) > 0


def test_install_sh_as_shipped_then_again_changes_nothing(vpi: vm.Run) -> None:
    """The image's product was installed by install.sh (in its chroot); run again on
    the booted guest, under systemd, it finds nothing to change and restarts nothing."""
    assert vpi.facts["install"]["status"] == 0
    again = (vpi.results / "install.txt").read_text()
    assert "(0 changes)" in again and "restarted" not in again, again


def test_the_unit_is_hardened_in_the_guest_too(vpi: vm.Run) -> None:
    line = vpi.facts["security"][0]
    exposure = float(line.split("level for robinson-table.service: ")[1].split()[0])
    assert exposure <= 1.0, line  # issue 59: both units stay at 1.0 or under (0.6 here)


def test_the_page_is_served_to_the_host_by_its_socket_unit(vpi: vm.Run) -> None:
    """The companion page as shipped: install.sh put its units in place, the socket
    listens on port 80 and starts the page's service at the first visit (as the table's
    user), which the host made through QEMU's port forward, as a phone would; the page
    has the table's game as it stood, and refuses a change from an unpaired phone."""
    web = vpi.facts["web"]
    assert web["before"]["socket"]["ActiveState"] == "active", web
    assert web["before"]["service"]["ActiveState"] == "inactive", web  # until a visit
    assert web["after"]["ActiveState"] == "active", web
    assert web["uid"] == web["robinson_uid"] != "0", web
    visit = web["visit"]
    assert visit is not None, web
    now = visit["now"]
    assert now["status"] == 200, visit
    game = vpi.json("after_rolls")  # robinson state --json, read in the guest
    assert now["body"]["status"] == "playing" and now["body"]["game"] is not None, now
    assert now["body"]["game"]["actions"] >= len(game["actions"]) >= 10, (now, game)
    assert "private" not in now["body"]
    for name in ("page", "rules"):
        assert visit[name]["status"] == 200 and visit[name]["csp"], visit[name]
    assert 'class="board"' in visit["page"]["body"]
    assert visit["names"]["status"] == 401, visit["names"]
    assert visit["event"]["status"] == "playing" and visit["event"]["has_board"], visit
    line = web["security"][0]
    exposure = float(line.split("level for robinson-web.service: ")[1].split()[0])
    print(f"\nthe page in the guest: first visit {now['seconds']} s (its start, socket-"
          f"activated, under TCG); systemd-analyze security: {exposure}")
    assert exposure <= 1.0, line  # issue 59: both units stay at 1.0 or under (1.0 here)


def test_the_title_on_the_kernels_i2c_bus_is_the_reference_screen(
        vpi: vm.Run, panel: vm.PanelLog) -> None:
    title = reference("en-title")  # "A game is in progress", as after every restart
    assert same(panel.snapshots["after watchdog"], title)
    after_reboot = vm.decode(vpi.results / "trace-2.txt")
    # The die is the guest's own: the game may have been won among the power cuts' rolls
    # (once in about a dozen runs), and the title then says the last game is over.
    over = vpi.json("after_reboot")["status"] != "playing"
    assert same(after_reboot.snapshots["after reboot"],
                reference("en-title_over") if over else title), over


def test_presses_through_gpio_sim_play_the_game_the_panel_shows(vpi: vm.Run,
                                                                 panel: vm.PanelLog) -> None:
    state = vpi.json("after_rolls")
    actions = state["actions"]
    assert isinstance(actions, list)
    rolls = [a for a in actions if a.isdigit()]
    assert len(rolls) == 10, actions  # one roll a press ("roll"/"again" roll at once)
    game = _game(state)
    shown = panel.snapshots["ten rolls"]
    screen = result_screen(Words("en"), game)
    pages = [render(screen, FONTS, page) for page in range(4)]
    assert any(same(shown, page) for page in pages), "the panel is not the saved game's result"


def _game(state: dict[str, Any]) -> Game:
    from firmware.cli import build_parser
    from firmware.commands.game import replay_game

    args = build_parser().parse_args(["replay", *state["replay_args"]])
    return replay_game(args.seats, args.first, args.rule, args.script or "")


def test_a_hung_loop_is_restarted_by_the_watchdog_with_its_game(vpi: vm.Run) -> None:
    seconds = float(vpi.facts["watchdog_restart_seconds"])
    assert seconds <= WATCHDOG_SEC + RESTART_SEC + 20, seconds  # + the guest's start-up
    assert vpi.json("after_watchdog")["actions"] == vpi.json("before_watchdog")["actions"]


def test_power_cuts_lose_no_saved_action(vpi: vm.Run, cutting: vm.Run) -> None:
    """After each cut the disk holds the game as it was when its last result was on the
    panel, plus at most the press in flight: never less, never another game. The cuts
    are shared between the two guests."""
    compared, among_games = 0, 0
    for guest in (vpi, cutting):
        log = json.loads((guest.results / "cuts.json").read_text())
        assert len(log) == guest.facts["cuts"], guest.folder
        for entry in log:
            shown = saved_game(guest.results / f"cut-{entry['cut']:03d}-shown")
            game = saved_game(guest.results / f"cut-{entry['cut']:03d}")
            assert game is not None and shown is not None, entry
            assert len(shown.actions) == entry["shown"], entry
            assert game.actions[:len(shown.actions)] == shown.actions, entry  # nothing lost
            # Nothing invented: the press in flight adds one action, or two where it
            # answered a decision by rolling ("roll" on 7, "again" on 20: the choice,
            # then the roll).
            rolls_at_once = shown.state.pending in (Pending.TREE, Pending.AGAIN)
            most = (2 if rolls_at_once else 1) if entry["in_flight"] else 0
            assert 0 <= len(game.actions) - len(shown.actions) <= most, entry
            assert (game.seats, game.first, game.rules) == (shown.seats, shown.first,
                                                            shown.rules)
            compared += 1
            among_games += entry["shown"] > 0
    assert compared == CUTS
    assert among_games >= CUTS * 0.9  # cuts among real games


def test_both_guests_run_this_checkouts_product(vpi: vm.Run, cutting: vm.Run) -> None:
    """The table's image holds the checkout's product (install.sh with the checkout finds
    nothing to change); the cuts' guest installed it from the bundle at its first boot:
    the same modules in both venvs, and the checkout's."""
    assert "(0 changes)" in (vpi.results / "install.txt").read_text()
    digest = hashlib.sha256()
    for path in sorted(p for package in ("firmware", "robinson_core")
                       for p in (ROOT / package).rglob("*.py")):
        digest.update(f"{path.relative_to(ROOT)}\n".encode() + path.read_bytes())
    assert vpi.facts["product"] == cutting.facts["product"] == digest.hexdigest()


def test_a_flashed_card_with_the_bundle_comes_up_by_itself(cutting: vm.Run) -> None:
    """The trixie guest's disk is a card as Imager writes one, the bundle and its two lines
    of user-data copied on, nothing of the product in its root: cloud-init (NoCloud, from
    the boot partition) runs the bundle's first boot, which installs and starts the table
    with nothing run by the harness, the simulator's kernel compiled for its Python; the
    panel writes, three presses are three saved actions, a phone pairs with the owner code
    off the card (once), the watchdog is on."""
    first = cutting.facts["first_boot"]
    cloud = first["cloud_init"]
    assert cloud["datasource"] == "nocloud" and cloud["status"] == "done", cloud
    assert first["install_result"] == "success" and first["install_status"] == "0", first
    assert first["bundle"] and first["first_frame_s"] is not None, first
    assert first["first_frame_s"] <= first["table_up_s"], first
    assert first["saved_after_presses"] == [1, 2, 3], first
    assert first["watchdog"] == "RuntimeWatchdogUSec=15s", first
    owner = first["owner"]
    assert {key: owner[key] for key in ("wrong", "paired", "change", "second_phone", "spent")} \
        == {"wrong": 403, "paired": 200, "change": 200, "second_phone": 403, "spent": True}, owner
    # the paired phone switched the panel's driver (the SH1106's start-up on the bus) and
    # did not keep it: the SSD1306's again TRIAL_FOR later, by the guest's own clock
    assert owner["panel_tried"] == 200 and owner["kept"] is False, owner
    assert owner["sh1106_after_s"] is not None and owner["back_after_s"] is not None, owner
    assert TRIAL_FOR - 0.5 <= owner["back_after_s"] <= TRIAL_FOR * 3, owner
    log = (cutting.results / "first-boot-install.log").read_text()
    assert "installed robinson_table-" in log and "the owner code for the first phone" in log
    # the simulator's kernel the bundle compiled for this guest's Python and platform
    # (tools/pi_kernel.py: for a Pi, aarch64; tests/core/test_pi_kernel.py runs those)
    assert "the simulator's kernel compiled for cp313 x86_64" in log, log
    assert first["kernel"] == "compiled", first
    SAY.append(f"first boot from a card: power-on to first frame {first['first_frame_s']} s, "
               f"the install {first['install_s']} s (one TCG vCPU, niced); a phone's panel "
               f"driver on the bus {owner['sh1106_after_s']} s after it asked, the one "
               f"before back {owner['back_after_s']} s later, unkept")


def test_the_cards_settings_file_is_taken_at_the_next_boot_and_a_broken_one_is_not(
        cutting: vm.Run) -> None:
    """The owner edits robinson-table.toml on the card: at the next power-on it is the
    config. Then a broken line: the next power-on keeps the last good settings, and says
    which line, beside the file, to the table (its title) and in the unit's result."""
    taken, refused = cutting.facts["settings_taken"], cutting.facts["settings_refused"]
    line = cutting.facts["broken_line"]
    assert taken["language"] == ["fi"] and taken["refused"] is None, taken
    assert taken["report"] == "robinson-table.toml taken: the table runs with it", taken
    assert taken["unit"] == "success" and taken["table"] == "active", taken
    assert refused["language"] == ["fi"], refused  # the last good settings
    assert refused["report"].startswith(
        f"robinson-table.toml NOT taken, line {line} is wrong: display.i2c_address"), refused
    assert refused["refused"].startswith(f"{line}\tdisplay.i2c_address"), refused
    assert refused["unit"] == "exit-code" and refused["table"] == "active", refused
    assert refused["title_told"] and f"(line {line})" in refused["title_told"][-1], refused


def test_the_guests_are_the_pis_owners_have(vpi: vm.Run, cutting: vm.Run) -> None:
    """Raspberry Pi OS 12 (bookworm) and 13 (trixie), each as its Pi runs it; on trixie
    the table runs on Debian's Pillow, as it must on 32-bit Pi OS."""
    table, cuts = vpi.facts["system"], cutting.facts["system"]
    assert (table["debian"], table["python"]) == ("bookworm", "3.11"), table
    assert table["kernel"].startswith("6.1."), table
    if vpi.settings.get("identity") == "device tree":  # the long tier's arm64 Pi 5
        assert table["machine"] == "aarch64" and table["cpuinfo_revision"] == [], table
        assert table["device_tree_model"] == "Raspberry Pi 5 Model B Rev 1.0", table
    else:
        assert table["machine"] == "x86_64" and table["cpuinfo_revision"] == ["a02082"]
    assert cuts["cpuinfo_revision"] == ["c04170"], cuts
    assert (cuts["debian"], cuts["python"]) == ("trixie", "3.13"), cuts
    assert cuts["kernel"].startswith("6.12.") and int(cuts["systemd"]) >= 257, cuts
    assert cuts["pillow_from"].startswith("/usr/lib/python3/dist-packages/PIL/"), cuts
    assert table["pillow_from"].startswith("/opt/robinson-table/venv/"), table


def test_the_service_finds_the_headers_gpio_chip_by_its_label(vpi: vm.Run,
                                                              cutting: vm.Run) -> None:
    """A Pi 3's one bank (pinctrl-bcm2835) is gpiochip0; a Pi 5's header bank (the RP1's,
    pinctrl-rp1) comes after the SoC's own, so it is gpiochip1 here (gpiochip2 on arm64,
    where -M virt has a GPIO controller of its own first): the table reads the chips'
    labels through the GPIO ioctl, under the unit, and takes the header's."""
    line = "INFO robinson.devices: GPIO: the header is {}"
    for guest in (vpi, cutting):
        assert guest.facts["header_chip"] == [line.format(guest.facts["header_bank_chip"])]
    assert vpi.facts["header_bank_chip"] == ("gpiochip0" if vpi.settings["board"] == "pi3"
                                             else "gpiochip2")
    assert cutting.facts["header_bank_chip"] == "gpiochip1"


def held_lines(gpioinfo: str) -> dict[str, set[int]]:
    """Which lines of each chip a program holds, from gpioinfo (libgpiod 1 or 2)."""
    held: dict[str, set[int]] = {}
    chip = ""
    for row in gpioinfo.splitlines():
        named = re.match(r"(gpiochip\d+)", row)
        if named:
            chip = named.group(1)
            held.setdefault(chip, set())
            continue
        line = re.match(r"\s+line\s+(\d+):", row)
        if line and ("consumer=" in row or "[used]" in row):
            held[chip].add(int(line.group(1)))
    return held


def test_an_spi_panel_is_waited_for_and_driven_under_the_unit(cutting: vm.Run) -> None:
    """SPI0 came up seconds after the boot's hardware: the unit waited for
    /dev/spidev0.0 (no failed start), drives it as the service user (its frames reach
    the SPI core), and the panel's D/C and reset lines (24, 25, through rpi-lgpio) are
    on the header's chip, the Pi 5's gpiochip1, not the decoy before it."""
    spi = cutting.facts["spi"]
    assert spi["state"] == "active" and spi["restarts"] == 0, spi
    assert 0 < spi["device_us"] <= spi["table_started_us"], spi
    assert spi["messages_on_restart"] > 0 and spi["journal_errors"] == [], spi
    assert spi["mode"] == "0o660", spi  # install.sh's udev rule: the spi group's
    held = held_lines((cutting.results / "gpioinfo.txt").read_text())
    assert {24, 25} <= held["gpiochip1"], held
    assert held["gpiochip0"] == set(), held  # the decoy: nothing of ours


def test_the_service_runs_with_the_units_timer_slack(vpi: vm.Run) -> None:
    """lgpio's 0.5 ms poll is gathered into fewer wake-ups (the unit says why)."""
    assert vpi.facts["timer_slack_ns"] == 10_000_000


def test_the_service_works_in_a_runtime_folder_not_beside_its_saves(vpi: vm.Run) -> None:
    """Issue 39: the working directory was the state folder, so a relative file name (an
    ALSA device writing to a file) landed beside the database. lgpio's FIFO goes there."""
    assert vpi.facts["working_directory"] == "/run/robinson-table"


def test_lgpios_threads_take_a_tones_slack_only_where_a_buzzer_plays(vpi: vm.Run) -> None:
    """Without a buzzer every thread keeps the unit's 10 ms; with one, lgpio's threads
    started when the chip is opened (PWM and alerts in C, and its Python module's
    notification thread, started on import) have 1 us, the loop and the rest 10 ms."""
    slack = vpi.facts["thread_slack_ns"]
    quiet, buzzing = slack["no buzzer"], slack["buzzer"]
    assert quiet["main"] == 10_000_000 and set(quiet["others"]) == {10_000_000}, quiet
    assert buzzing["main"] == 10_000_000, buzzing
    assert set(buzzing["others"]) == {1_000, 10_000_000}, buzzing
    assert buzzing["others"].count(1_000) in (2, 3), buzzing


def test_a_reboot_without_sync_comes_back_with_the_game(vpi: vm.Run) -> None:
    shown = saved_game(vpi.results / "reboot-shown")
    game = saved_game(vpi.results / "after-reboot")
    assert game is not None and shown is not None
    assert game.actions[:len(shown.actions)] == shown.actions
    assert len(game.actions) == int(vpi.facts["reboot_shown"])
    assert vpi.json("after_reboot")["actions"] == [a.token for a in game.actions]


def test_no_panel_or_no_gpio_chip_is_a_failure_with_a_journal_line(vpi: vm.Run) -> None:
    """Status 3 (a part missing: the unit tries again) and one journal line; a panel
    wired after more failed starts than the five in five minutes the unit once gave up
    after lights up at the next try."""
    no_panel, no_gpio = vpi.facts["no_panel"], vpi.facts["no_gpio"]
    assert no_panel["start_status"] != 0 and no_panel["exit_status"] == "3", no_panel
    assert any("no I2C bus" in line or "no panel answers" in line
               for line in no_panel["journal"]), no_panel
    assert no_panel["restarts"] >= 6 and no_panel["state_while_away"] != "failed", no_panel
    assert no_panel["active_after_seconds"] < 30 and no_panel["writes_drawn"] > 0, no_panel
    assert no_gpio["start_status"] != 0 and no_gpio["exit_status"] == "3", no_gpio
    assert any("GPIO" in line for line in no_gpio["journal"]), no_gpio


def test_the_selftest_runs_as_the_service_user(vpi: vm.Run) -> None:
    assert vpi.facts["selftest"]["status"] == 0, vpi.facts["selftest"]


def test_install_sh_mends_a_venv_left_by_a_python_upgrade(cutting: vm.Run) -> None:
    """Trixie's python under a venv bookworm's made: the service cannot start; install.sh
    again makes the venv anew, says why, and the table runs."""
    upgrade = cutting.facts["python_upgrade"]
    assert upgrade["system_python"] == "3.13" and upgrade["broken_start"] != 0, upgrade
    assert upgrade["install"] == 0 and upgrade["state"] == "active", upgrade
    said = (cutting.results / "upgrade-install.txt").read_text()
    assert "removed /opt/robinson-table/venv: made by python 3.11, the system's is 3.13" \
        in said, said
    assert "restarted robinson-table.service" in said, said


def test_uninstall_keeps_the_saved_games(vpi: vm.Run) -> None:
    assert vpi.facts["uninstall"] == {"status": 0, "saves_kept": True}


@dataclass
class Heard:
    """One tune as the kernel's trace of the buzzer's line has it."""

    tune: Tune
    rates: list[float]   # each note's frequency as the line was driven: its edges a second
    notes: list[float]   # each note's pitch (Hz): the strongest frequency of its part
    purity: list[float]  # the share of each note's power within 5 % of that pitch
    seconds: float       # first edge to last

    @property
    def offs(self) -> list[float]:
        """How far each note is from the tune's, as a share (0.02: 2 % off), read twice, by
        its spectrum's pitch and by its rate, and taken at the nearer: a vCPU set aside
        delays edges in bursts (the spectrum smears, the count holds), and lgpio sometimes
        drops a few (the count falls short, the spectrum holds: a roll of a 2026-12-06
        run, 2,090 Hz by its pitch and 1,982 by its edges). A note programmed wrong is
        wrong both ways; a note the host starved may be too (a CI roll beside the host's
        tests: 2,240 Hz by its pitch, a buzz of 1 % purity, 1,860 by its edges)."""
        return [min(abs(pitch / float(Tone(note).frequency) - 1),
                    abs(rate / float(Tone(note).frequency) - 1))
                for pitch, rate, note in zip(self.notes, self.rates, self.tune.value,
                                             strict=True)]

    @property
    def off(self) -> float:
        """The worst note's (offs): what chooses which tune a burst is."""
        return max(self.offs)


def rate(edges: list[tuple[float, int]]) -> float:
    """How often a stretch of the line goes round, from its count of edges over its time:
    the PWM's frequency as lgpio set it. A vCPU set aside delays edges and lgpio then
    catches up (a C7 a guest played: 30 of 665 edges late by up to 4 ms, 137 caught up
    within 100 us), so the count over the time holds where the spectrum's pitch does not."""
    if len(edges) < 3:
        return 0.0
    return (len(edges) - 1) / 2 / (edges[-1][0] - edges[0][0])


def spectrum(edges: list[tuple[float, int]], rate: int = 200_000) -> tuple[float, float]:
    """The pitch of a stretch of the buzzer's line (its levels from each edge on, sampled)
    and the share of its power around that pitch: a clean square wave's is 81 %
    (8 / pi^2); a tone whose edges come in bursts, a buzz, has little."""
    begin, end = edges[0][0], edges[-1][0]
    levels = np.zeros(int((end - begin) * rate) + 1)
    for (at, level), (until, _) in itertools.pairwise(edges):
        levels[int((at - begin) * rate):int((until - begin) * rate)] = level
    levels -= levels.mean()
    if not levels.any():  # the line held at one level: a silence, no pitch
        return 0.0, 0.0
    power = np.abs(np.fft.rfft(levels * np.hanning(len(levels)))) ** 2
    freqs = np.fft.rfftfreq(len(levels), 1 / rate)
    audible = (freqs > 500) & (freqs < 8000)  # the tunes span C6 to C8: 1-4 kHz
    pitch = float(freqs[audible][np.argmax(power[audible])])
    near = (freqs > pitch * 0.95) & (freqs < pitch * 1.05)
    return pitch, float(power[near].sum() / power[freqs > 20].sum())


def gpio_lines(trace: Path) -> dict[str, list[tuple[float, int]]]:
    """Every GPIO line's level changes in the kernel's trace: (time, level) by line. A set
    to the level the line already has is no change (a CI run's buzzer line was set low
    three times over at a tune's end: a "note" of no edge, and no power to share)."""
    levels: dict[str, list[tuple[float, int]]] = {}
    for line in trace.read_text(encoding="utf-8", errors="replace").splitlines():
        found = re.search(r"\s(\d+\.\d+): gpio_value: (\d+) set ([01])", line)
        if found:
            changes = levels.setdefault(found.group(2), [])
            if not changes or changes[-1][1] != int(found.group(3)):
                changes.append((float(found.group(1)), int(found.group(3))))
    return levels


def tunes_heard(trace: Path) -> list[Heard]:
    """The buzzer's tunes, from every level change of the GPIO lines (the buzzer's line is
    the one that changes most)."""
    levels = gpio_lines(trace)
    return tunes(max(levels.values(), key=len)) if levels else []


def tunes(edges: list[tuple[float, int]]) -> list[Heard]:
    """The tunes on one line's edges. A tune is a burst of edges (tunes are a rest apart).
    Which tune: the one whose notes its parts' rates match best, each note an equal part
    of the burst in time; its length does not choose (a tune held 3x as long is the same
    tune, late). Each note's pitch is also the strongest frequency of its part: what the
    ear hears as its pitch."""
    bursts: list[list[tuple[float, int]]] = [[edges[0]]]
    for a, b in itertools.pairwise(edges):
        if b[0] - a[0] > NOTE / 2:
            bursts.append([])
        bursts[-1].append(b)
    return [min((heard_as(burst, tune) for tune in Tune), key=lambda h: h.off)
            for burst in bursts if len(burst) > 2]  # not the line set low at start


def heard_as(burst: list[tuple[float, int]], tune: Tune) -> Heard:
    """A burst of edges read as ``tune``: its notes equal parts of it in time."""
    begin, seconds = burst[0][0], burst[-1][0] - burst[0][0]
    count = len(tune.value)
    parts: list[list[tuple[float, int]]] = [[] for _ in range(count)]
    for edge in burst:
        parts[min(count - 1, int((edge[0] - begin) / seconds * count))].append(edge)
    found = [spectrum(part) if len(part) > 2 else (0.0, 0.0) for part in parts]
    return Heard(tune, [rate(part) for part in parts], [pitch for pitch, _ in found],
                 [share for _, share in found], seconds)


def square_wave(frequency: float, seconds: float, begin: float = 0.0,
                ) -> list[tuple[float, int]]:
    half = 1 / frequency / 2
    return [(begin + n * half, 1 - n % 2) for n in range(int(seconds / half))]


def test_the_judge_of_the_tunes_hears_a_c7_as_the_guest_plays_it_and_a_buzz_as_none() -> None:
    """The judge of the buzzer's tunes, on edges made here: a C7 as lgpio plays it is a
    C7 and a C6 a C6; a C7 as the table's guest played it under TCG (its edges late by up
    to 4 ms and caught up after) is still a C7; with every edge held to the next
    millisecond (a coarse slack: a buzz of bursts) it is no C7 at all, and nearly none
    of its power is at any pitch."""
    c7 = Tone("C7").frequency
    played = tunes(square_wave(c7, NOTE))
    assert [(h.tune, len(h.notes)) for h in played] == [(Tune.ROLL, 1)]
    assert abs(played[0].notes[0] / c7 - 1) < 0.01 and played[0].purity[0] > 0.5
    assert tunes(square_wave(Tone("C6").frequency, NOTE))[0].notes[0] < c7 / 1.9  # a C6
    # A C7 as the table's guest played it (the tenth roll of a run on 2026-12-03,
    # microseconds and levels from the kernel's trace): 665 edges, 30 of them late by up
    # to 4 ms, 137 caught up after them within 100 us.
    guest = json.loads((REFERENCE.parent / "c7-as-a-guest-played-it.json").read_text())
    jittered = tunes([(at / 1e6, level) for at, level in guest])
    assert len(guest) == 665
    assert len(jittered) == 1 and abs(jittered[0].notes[0] / c7 - 1) < 0.02, jittered
    slack = 0.001  # edges held back to the next millisecond: a buzz, not a C7
    buzzing = [(round(at / slack + 0.5) * slack + n * 1e-6, level)
               for n, (at, level) in enumerate(square_wave(c7, NOTE))]
    buzz = tunes(buzzing)
    assert len(buzz) == 1 and abs(buzz[0].notes[0] / c7 - 1) > 0.05, buzz
    assert buzz[0].purity[0] < 0.05, buzz


def test_the_judge_reads_each_note_by_its_pitch_and_its_rate_and_a_wrong_note_as_wrong(
        ) -> None:
    """The readings the buzzer's test asserts, on edges made here: the C7 the guest
    played is 0.2 % off by its pitch and 1.7 % by its rate (2,128 edges a second); one
    with a run of its edges dropped is off by its rate and true by its pitch, so still a
    C7; a win whose notes were each held 1.3x as long is still a win, each note true; a
    C6 where a roll's C7 is played is off both ways; a tune ten times its length is
    within LATE_MOST, eleven times past it."""
    c7 = Tone("C7").frequency
    guest = json.loads((REFERENCE.parent / "c7-as-a-guest-played-it.json").read_text())
    (jittered,) = tunes([(at / 1e6, level) for at, level in guest])
    assert jittered.tune is Tune.ROLL and jittered.off < 0.005, jittered
    assert 0.015 < jittered.rates[0] / c7 - 1 < 0.02, jittered
    wave = square_wave(c7, NOTE)
    dropped = wave[:200] + [(at + 20 / c7, level) for at, level in wave[240:]]
    (short,) = tunes(dropped)
    assert short.tune is Tune.ROLL and short.rates[0] / c7 - 1 < -0.05, short
    assert short.off <= RATE_OFF_MOST, short
    win, at = [], 10.0
    for note in Tune.WIN.value:
        win += square_wave(Tone(note).frequency, NOTE * 1.3, begin=at)
        at += NOTE * 1.3
    (late,) = tunes(win)
    assert late.tune is Tune.WIN and late.off < 0.01, late
    assert late.seconds / (NOTE * 4) == pytest.approx(1.3, abs=0.01)
    (wrong,) = tunes(square_wave(Tone("C6").frequency, NOTE))
    assert wrong.tune is not Tune.ROLL, wrong  # a C6 is no roll's note...
    assert Heard(Tune.ROLL, wrong.rates[:1], wrong.notes[:1], wrong.purity[:1],
                 wrong.seconds).off > 0.45  # ... by its pitch nor its rate
    for held, within in ((LATE_MOST, True), (LATE_MOST * 1.1, False)):
        (roll,) = tunes(square_wave(c7, NOTE * held))
        assert roll.tune is Tune.ROLL
        assert (roll.seconds / NOTE <= LATE_MOST) is within, roll.seconds


def test_the_judge_reads_a_line_set_to_the_level_it_has_as_no_edge(tmp_path: Path) -> None:
    """A CI run's trace ended a C7 with the buzzer's line set low three times over, 8 and
    10 ms apart: the judge then took them for a note of its own, with no power to share
    (a division by nothing). Sets that change nothing are no edges: the C7 is one note,
    heard true, and a stretch held at one level has no pitch."""
    c7 = Tone("C7").frequency
    wave = square_wave(c7, NOTE, begin=70.0)
    end = wave[-1][0]
    sets = [*wave, (end + 0.0001, 0), (end + 0.0083, 0), (end + 0.0178, 0)]
    trace = tmp_path / "lines.txt"
    trace.write_text("".join(f"  lgpio-1  [000] d..1 {at:.6f}: gpio_value: 18 set {level}\n"
                             for at, level in sets), encoding="utf-8")
    line = gpio_lines(trace)["18"]
    assert len(line) == len(wave) + (wave[-1][1] == 1)  # each change once, the last low
    heard = tunes_heard(trace)
    assert [(h.tune, len(h.notes)) for h in heard] == [(Tune.ROLL, 1)], heard
    assert abs(heard[0].notes[0] / c7 - 1) < 0.01
    assert spectrum([(1.0, 0), (1.01, 0), (1.02, 0)]) == (0.0, 0.0)


LATE_MOST = 10.0
"""How many times its length a burst of the buzzer's may take before the buzzer is stuck,
not late: a backstop, not a target. A roll's 0.15 s beep took 0.132-0.196 s in healthy
runs; on 2026-12-06 a fresh clone on a host slowed by a third (the same random play
took 44 s, 32 s the run before; the soak 44 s, 33 s) heard one burst of 0.463 s, 3.09x, at the right
pitch (2,089 Hz) beside its ten rolls of 0.135-0.159 s, and failed the 3x this bound
was then. A note that never stops runs into the next tune's, seconds later. The
tunes' lengths are a figure, printed at the end of the run."""

RATE_OFF_MOST = 0.05
"""How far a note, by its pitch or by its rate (Heard.offs), may be from its frequency and
count as in tune: exact, as a Pi's PWM drives it, to a few percent under emulation
(0.3 % at worst for the ten rolls of a quiet 2026-12-06 run; the C7 in tests/reference,
a guest's under TCG, 0.2 % by its pitch and 1.7 % by its rate)."""

IN_TUNE_LEAST = 0.5
"""The share of the game's notes that must be in tune, more than which a buzzer with a
wrong frequency never reaches (none in tune), and less than which no run has come
near: 10 of 10 on a quiet host; 8 of 10 by the spectrum alone, and 9 by the nearer of
the two readings, in a 2026-12-06 fresh clone whose host ran its own tests on both
cores beside the ten rolls."""


def test_the_buzzer_plays_each_tune_true_under_the_unit(vpi: vm.Run) -> None:
    """Every tune the game played, as the kernel saw the buzzer's line: a tune a roll, most
    of the notes in tune (by their pitch or their edges a second: Heard.offs; a wrong
    frequency has none, a silence no tune), no tune held past LATE_MOST
    times its length. What the guest's load decides, how long a tune took and how many
    notes were in tune (a vCPU set aside plays a note's edges late, in bursts: a buzz
    under emulation of a note a Pi plays clean), are figures; the timer slack that would
    buzz every note on a Pi is tested exactly, above
    (test_lgpios_threads_take_a_tones_slack_only_where_a_buzzer_plays)."""
    heard = tunes_heard(vpi.results / "lines-1.txt")
    # A tune a roll, whichever the square's: the service's die is the real one, and a
    # roll onto a death square plays the death tune instead of the roll's (one run of
    # 2026-12-06 did, in its tenth roll: 9 roll tunes and a death tune, heard in two
    # bursts under emulation, failed a count of roll tunes alone).
    assert len(heard) >= 10, [(h.tune.name, h.seconds) for h in heard]
    for h in heard:
        assert 1 / LATE_MOST <= h.seconds / (NOTE * len(h.tune.value)) <= LATE_MOST, h
    if vpi.settings.get("identity") == "device tree":
        # The long tier's arm64 guest: an emulated Arm core on TCG is too slow for a
        # 2 kHz tone edge by edge (every C7 came out at half its pitch, the PWM thread
        # a step behind each edge). Its tunes' count and lengths are judged; their
        # rates are a figure (test_the_figures).
        return
    offs = [off for h in heard for off in h.offs]
    in_tune = sum(off <= RATE_OFF_MOST for off in offs)
    assert len(offs) >= 10
    assert in_tune > IN_TUNE_LEAST * len(offs), (in_tune, len(offs), heard)


def buzzer_figures(vpi: vm.Run) -> dict[str, object]:
    heard = tunes_heard(vpi.results / "lines-1.txt")
    errors = [abs(got / Tone(note).frequency - 1) * 100
              for h in heard for got, note in zip(h.notes, h.tune.value, strict=False)]
    purity = [share for h in heard for share in h.purity]
    rates = [abs(got / Tone(note).frequency - 1) * 100
             for h in heard for got, note in zip(h.rates, h.tune.value, strict=True)]
    offs = [off for h in heard for off in h.offs]
    return {"tunes heard": len(heard),
            "notes in tune by the nearer of pitch and rate (within 5 %)":
                f"{sum(off <= RATE_OFF_MOST for off in offs)} of {len(offs)}",
            "notes' rate (edges a second) off their frequency, worst (%)":
                round(max(rates), 1) if rates else None,
            "notes within 5 % of their pitch": f"{sum(e <= 5 for e in errors)} of {len(errors)}",
            "notes' pitch error, worst (%)": round(max(errors), 1) if errors else None,
            "notes' power at their pitch, range": [round(min(purity), 2), round(max(purity), 2)]
            if purity else None,
            "tunes' length, range (s)": [round(min(h.seconds for h in heard), 3),
                                         round(max(h.seconds for h in heard), 3)]
            if heard else None}


PART_GAP = 0.005  # s: writes further apart are two parts (the panel's REST_AFTER is 10 ms)


def tumble_parts(panel: vm.PanelLog, pressed: float) -> tuple[int, int]:
    """The bytes of a press's first part on the panel, and of the longest part until its
    result (the first part that follows a pause of the tumble's frame and more).

    A part is one call of the panel's writer: its windows go down the pages, so a window
    on a page no lower than the one before begins the next call, however soon it came
    (a rest sent late by a busy loop and the next frame's die came 907 bytes in one)."""
    parts: list[int] = []
    last, page = None, -1
    for at, size, window in zip(panel.writes, panel.sizes, panel.pages, strict=True):
        if at <= pressed:
            continue
        if last is not None and at - last >= 0.3:  # the result: the tumble is over
            break
        if last is None or (window is not None and (at - last > PART_GAP or window <= page)):
            parts.append(0)  # (a call begins with a window: a stalled data write does not)
            page = -1
        if window is not None:
            page = window
        parts[-1] += size
        last = at
    assert parts, pressed
    return parts[0], max(parts[:-1] or parts)


def test_the_figures(vpi: vm.Run, cutting: vm.Run, panel: vm.PanelLog) -> None:
    """Printed for the README: boot to first frame, GPIO edge to panel, press to result."""
    rolled: dict[str, float] = {}  # the press that rolled: the last of each "roll N"
    for at, text in panel.marks:  # (an earlier one showed a page not yet read)
        found = re.fullmatch(r"roll (\d+)(?: \(\d+\))? up", text)
        if found:
            rolled[found.group(1)] = at
    edges, results, firsts, longest = [], [], [], []
    for at in rolled.values():
        after = [w for w in panel.writes if w > at]
        if not after:
            continue
        edges.append(after[0] - at)
        burst = [after[0]]
        for w in after[1:]:
            if w - burst[-1] > 0.5:
                break
            burst.append(w)
        results.append(burst[-1] - at)
        die, most = tumble_parts(panel, at)
        firsts.append(die)
        longest.append(most)
    assert len(edges) == 10
    # From the trace's own bytes: the press's first part (the die alone) and the longest
    # part while the die tumbles, as wire time at I2C's standard 100 kHz. The median of
    # the first parts: what comes first after a press may be a page the panel turned by
    # itself as it came. (A 747-byte redraw before the die was the square's screen that
    # "roll" on 7 drew: tests/shell/test_table.py holds every press, decisions too.)
    assert statistics.median(firsts) * 9 / 100_000 <= 0.015, firsts
    assert max(longest) * 9 / 100_000 <= 0.080, longest
    first = panel.first_write or 0.0
    figures = {
        "image build (s)": round(vpi.build_seconds, 1),
        "run, boot to power-off, the table's guest (s)": round(vpi.seconds, 1),
        "run, boot to power-off, the cuts' guest (s)": round(cutting.seconds, 1),
        "boot to first frame (s)": round(first, 2),
        "GPIO edge to first panel byte, median (ms)": round(statistics.median(edges) * 1000),
        "press to result on the panel, median (ms)": round(statistics.median(results) * 1000),
        "a press's first part on the panel: bytes, median and most; wire at 100 kHz (ms)":
            [statistics.median(firsts), max(firsts),
             round(statistics.median(firsts) * 9 / 100, 1), round(max(firsts) * 9 / 100, 1)],
        "the longest part while the die tumbles: bytes; wire at 100 kHz (ms)":
            [max(longest), round(max(longest) * 9 / 100, 1)],
        "service start to READY (s)": vpi.facts["start_seconds"],
        "the table's CPU at its first frame, its title and READY (ms, its log)":
            vpi.facts["start_cpu_ms"],
        "a decision's odds, 2,000 rollouts an option, the kernel's CPU (s)":
            vpi.facts["odds_seconds"],
        "watchdog restart (s)": vpi.facts["watchdog_restart_seconds"],
        "an idle table's share of the guest's core, without / with the buzzer":
            [vpi.facts["idle_cpu"]["no buzzer"], vpi.facts["idle_cpu"]["buzzer"]],
        # where the time goes: each guest's busy, kernel and idle CPU, and its top units
        "the table's guest's CPU, first power-on (s)": vpi.facts.get("cpu_seconds_1"),
        "the cuts' guest's CPU (s)": cutting.facts.get("cpu_seconds_1"),
    }
    first_frame, title, ready = vpi.facts["start_cpu_ms"]  # the title's name out before
    assert 0 < first_frame < title < ready, vpi.facts["start_cpu_ms"]  # the rest loaded
    weighed = vpi.facts["frameworks"]
    figures["the page's frameworks, their least apps' RSS on a Zero 2 W's 512 MB (MB), "
            "aiohttp, Starlette + uvicorn; the page as shipped, visited"] = [
        round(statistics.median(weighed["rss_kib"][name]) / 1024, 1)
        for name in ("aiohttp", "starlette")] + [round(weighed["page_rss_kib"] / 1024, 1)]
    figures.update(buzzer_figures(vpi))
    (vpi.folder / "figures.json").write_text(json.dumps(figures, indent=1))
    SAY.append("virtual Pi figures: " + json.dumps(figures))


def test_the_pages_framework_is_the_lighter_on_a_zero_class_guest(vpi: vm.Run) -> None:
    """The page is built on Starlette and uvicorn, not aiohttp, by memory
    (docs/architecture.md): weighed where it counts, in the table's guest powered on again
    with a Zero 2 W's 512 MB (a Pi 3's chip with half its memory), after its reboot and
    apart from its timed tunes: each one's least app started once and asked for its
    page; and the page as shipped, visited, within the room that leaves."""
    weighed = vpi.facts["frameworks"]
    rss = weighed["rss_kib"]
    assert sorted(rss) == ["aiohttp", "starlette"] and all(len(v) == 1 for v in rss.values())
    assert 400_000 <= weighed["mem_total_kib"] <= vm.ZERO_MEMORY * 1024, weighed
    aiohttp, starlette = statistics.median(rss["aiohttp"]), statistics.median(rss["starlette"])
    page = weighed["page_rss_kib"]
    print(f"\nthe frameworks in the table's guest ({weighed['mem_total_kib'] // 1024} MB, "
          f"{weighed['mem_available_kib'] // 1024} MB available with the table and the page "
          f"running): the least app's RSS: aiohttp {aiohttp / 1024:.1f} MB, "
          f"Starlette + uvicorn {starlette / 1024:.1f} MB; the page as shipped, visited: "
          f"{page / 1024:.1f} MB")
    assert starlette < aiohttp, rss
    assert weighed["page_visited"] and 0 < page < 80 * 1024, weighed
    assert weighed["mem_available_kib"] >= 128 * 1024, weighed


# -- the spoken banker, heard through ALSA's loopback ---------------------------------------

LOOPBACK_RATE = 22050
SOUND, SILENCE = 1500, 800  # a sample louder than SOUND is speech; a quiet window stays under


def _marks_and_writes(trace: Path) -> tuple[list[tuple[float, str]], list[float]]:
    marks, writes = [], []
    for line in trace.read_text(encoding="utf-8", errors="replace").splitlines():
        if (found := re.search(r"\s(\d+\.\d+): tracing_mark_write: vpi (.*)$", line)):
            marks.append((float(found.group(1)), found.group(2)))
        elif (found := re.search(r"\s(\d+\.\d+): smbus_write:", line)):
            writes.append(float(found.group(1)))
    return marks, writes


def _result_first_byte(writes: list[float], after: float) -> float:
    """The first byte of the result a press brought: after the tumble's frames (0.08 s
    apart), the first burst of writes that the panel then keeps (0.3 s and more)."""
    burst: list[float] = []
    for at in (w for w in writes if w > after):
        if burst and at - burst[-1] >= 0.3:
            return burst[0]
        if burst and at - burst[-1] > 0.05:
            burst = []
        burst.append(at)
    assert burst, f"no panel byte after {after}"
    return burst[0]


@dataclass
class Uttered:
    lang: str
    latency: float | None  # s from the result's first panel byte to its first sound (None:
    seconds: float         # nothing heard before the next press); how long it was said
    peak: int
    window: float          # s from the result to the next press: where its sound was sought


VOICE_LATENCY_MOST = 6.0
"""Seconds from a result's frame to its first sound past which the voice is broken, not
slow: a backstop, not a target. Healthy runs hear it 0.34-0.54 s after the frame (the
README's figure); 2.7 s was seen once, for Japanese, with the host loaded. The latency
is a figure, printed at the end of the run."""


@pytest.fixture(scope="module")
def voice(guests: dict[str, vm.Run]) -> tuple[list[Uttered], float, vm.Run]:
    """What the loopback carried at each result the table's guest rolled with the voice
    on (one a language), and the loudest sample after the result rolled with it off.
    A result's sound is sought from its frame up to the harness's next press: never
    past it, where the next language's result is said (a result not heard was once
    read as an English voice 88 s late: the Croatian one, after the menu's presses)."""
    run = guests["table"]
    _stopped(run)
    marks, writes = _marks_and_writes(run.results / "trace-1.txt")
    sound = np.fromfile(run.results / "voice.raw", dtype="<i2").astype(np.int32)
    start = next((at, int(text.split("=")[1])) for at, text in marks
                 if text.startswith("recording bytes="))
    zero = start[0] - start[1] / 2 / LOOPBACK_RATE  # the trace's clock at the first sample

    def index(at: float) -> int:
        return max(0, int((at - zero) * LOOPBACK_RATE))

    def last_press(label: str) -> float:
        ups = [at for at, text in marks if re.fullmatch(rf"{label}( \(\d\))? up", text)]
        assert ups, (label, marks[-20:])
        return ups[-1]

    def next_press(after: float) -> float:
        return next((at for at, text in marks if at > after and text.endswith(" down")),
                    marks[-1][0])

    heard = []
    for lang in ("en", "hr", "fi", "ja"):
        first = _result_first_byte(writes, last_press(f"voice-{lang}"))
        until = next_press(first)
        loud = np.flatnonzero(np.abs(sound[index(first - 0.2):index(until)]) > SOUND)
        if not loud.size:
            heard.append(Uttered(lang, None, 0.0, 0, until - first))
            continue
        onset = index(first - 0.2) + int(loud[0])
        window = LOOPBACK_RATE * 6 // 10
        end = onset
        while end < sound.size and np.abs(sound[end:end + window]).max(initial=0) > SILENCE:
            end += LOOPBACK_RATE // 20
        heard.append(Uttered(lang, onset / LOOPBACK_RATE + zero - first,
                             (end - onset) / LOOPBACK_RATE,
                             int(np.abs(sound[onset:end]).max(initial=0)), until - first))
    off = _result_first_byte(writes, last_press("voice-off"))
    done = next(at for at, text in marks if text == "voice done")
    quiet_peak = float(np.abs(sound[index(off):index(done)]).max(initial=0))
    return heard, quiet_peak, run


def test_the_spoken_banker_is_heard_in_four_languages_under_the_unit(
        voice: tuple[list[Uttered], float, vm.Run]) -> None:
    """The unit as shipped speaks into ALSA's loopback: each result is heard soon after its
    frame, for as long as its text takes (the text the machine gave the synthesizer,
    made again here from the saved game), never clipped; with the voice switched off
    in the menu the next result is silent. The loopback is the second of two cards,
    named as the MAX98357A's is, and both came after the table started: the config's
    device "auto" found the amplifier's by its name, and the unit let the table open a
    card that was not there when it started."""
    from firmware.speech.said import Spoken
    from tests.display.test_speech import bounds

    heard, quiet_peak, run = voice
    at_start = run.facts["sound_at_table_start"]
    assert at_start["alsa_major"] and "MAX98357A" not in str(at_start["cards"]), at_start
    cards = [line.strip() for line in str(run.facts["voice_cards"]).splitlines()]
    assert cards[0].startswith("0 [Dummy") and cards[2].startswith("1 [MAX98357A"), cards
    assert any("plughw:CARD=MAX98357A,DEV=0" in line for line in run.facts["voice_device"]), \
        run.facts["voice_device"]
    game = _game(run.json("voice"))
    lengths = run.facts["voice_actions"]
    assert isinstance(lengths, list) and len(lengths) == 5
    figures = []
    for result, length in zip(heard, lengths, strict=False):
        at = Game(game.seats, game.first, game.rules)
        for action in game.actions[:length]:
            at = at.play(action)
        text = Spoken(result.lang).result(at)
        least, most = bounds(result.lang, text)
        assert result.latency is not None, (
            f"{result.lang}: nothing heard from its result's frame to the harness's next "
            f"press, {result.window:.1f} s later (the harness heard: "
            f"{run.facts.get('voice_heard', {}).get(result.lang)}); the service said: "
            f"{run.facts.get('voice_journal')}; the text: {text!r}")
        figures.append(f"{result.lang} {result.latency * 1000:.0f} ms, {result.seconds:.1f} s")
        assert -0.02 <= result.latency <= VOICE_LATENCY_MOST, (result, text)
        assert least <= result.seconds <= most, (result, text, least, most)
        assert 3000 < result.peak < 32767, result  # heard, and not clipped
    SAY.append("virtual Pi voice: result frame -> first sound, and its length: "
               + "; ".join(figures))
    assert quiet_peak < SILENCE, quiet_peak  # the voice off: nothing heard
    assert run.facts["voice_recorded_seconds"] > 30
