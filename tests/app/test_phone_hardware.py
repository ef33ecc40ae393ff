"""The hardware from a paired phone: the panel (tried with a test pattern for 15 s, kept by
a press or the phone, else the one before is back), the amplifier and the pins (kept, the
table starts again), each change checked by the config file's own checks, kept in the
state folder and laid over the config at every start."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.boot_settings import amplifier_to_switch, settle
from firmware.config.file import load
from firmware.config.phone import PHONE_FILE, PHONE_KEYS, changed, layered
from firmware.config.settings import Config
from firmware.emulate.bus import PageMemory, PanelBus
from firmware.errors import ConfigError
from firmware.saves.hardware import keep, kept
from firmware.seam.intents import wanted
from firmware.table.messages import KeepAsked, Rewire
from firmware.table.prefs import Prefs
from firmware.table.state import TRIAL_FOR, Mode
from firmware.web.words import WORDS

from ..companion import Table, Web, ask, change, paired, seam_view, wait_for
from ..rig import Rig

# -- one home for the checks: a phone's change is refused as the config file is -------------

REFUSED: list[tuple[dict[str, object], str, str]] = [
    ({"pins.seats": [2, 5]}, "[pins]\nseats = [2, 5]\n",
     "pins.seats[1] GPIO 2 is taken by I2C SDA"),
    ({"voice.i2s_amplifier": True}, "[voice]\ni2s_amplifier = true\n",
     "GPIO 19 is taken by I2S LRCLK"),
    ({"display.display": "ssd1306", "display.width": 96, "display.height": 16},
     '[display]\ndisplay = "ssd1306"\nwidth = 96\nheight = 16\n',
     "display.width/height must be one of 128x64, 128x32 for ssd1306"),
    ({"display.display": "st7789"}, '[display]\ndisplay = "st7789"\ninterface = "i2c"\n',
     "display.interface must be one of spi for st7789"),
    ({"display.rotate": 4}, "[display]\nrotate = 4\n",
     "display.rotate must be a whole number from 0 to 3"),
    ({"pins.button": 40}, "[pins]\nbutton = 40\n", "pins.button must be a BCM GPIO number"),
]


@pytest.mark.parametrize(("changes", "file", "said"), REFUSED)
def test_a_phones_change_is_refused_in_the_config_files_own_words(
        tmp_path: Path, changes: dict[str, object], file: str, said: str) -> None:
    with pytest.raises(ConfigError) as phone:
        changed(Config(), changes)
    path = tmp_path / "config.toml"
    path.write_text(file)
    with pytest.raises(ConfigError) as config:
        load(path)
    assert said in str(phone.value) and said in str(config.value), (phone.value, config.value)
    assert "\n" not in str(phone.value)
    answer = wanted({"intent": "hardware", "changes": changes}, Prefs(), Config())
    assert isinstance(answer, str) and said in answer and not answer.startswith("phone:")


def test_only_the_phones_keys_and_a_new_panel_gets_its_usual_size() -> None:
    with pytest.raises(ConfigError, match="not a setting a phone may change"):
        changed(Config(), {"web.port": 8080})
    with pytest.raises(ConfigError, match="not a setting a phone may change"):
        changed(Config(), {"display.interface": "spi"})
    assert changed(Config(), {"display.display": "sh1107"}).display.size == (128, 128)
    answer = wanted({"intent": "hardware", "changes": {"display.display": "sh1107"}}, Prefs(),
                    Config())
    assert isinstance(answer, Rewire)
    # the size it made is kept with it: the settings kept are the ones tried
    assert dict(answer.changes) == {"display.display": "sh1107", "display.width": 128,
                                    "display.height": 128}
    junks: tuple[object, ...] = (None, [], {}, "sh1106", {k: 1 for k in (*PHONE_KEYS, "x")})
    for junk in junks:
        said = wanted({"intent": "hardware", "changes": junk}, Prefs(), Config())
        assert isinstance(said, str) and "hardware is an object of settings" in said


# -- kept in the state folder, laid over the config at every start -----------------------------


def test_kept_settings_merge_and_are_laid_over_the_config_at_start(tmp_path: Path) -> None:
    keep(tmp_path, {"display.display": "sh1106", "display.width": 128, "display.height": 64})
    keep(tmp_path, {"display.rotate": 2, "pins.seats": [5, 6, 13]})
    assert (tmp_path / PHONE_FILE).stat().st_mode & 0o777 == 0o600
    assert kept(tmp_path) == {"display.display": "sh1106", "display.width": 128,
                              "display.height": 64, "display.rotate": 2, "pins.seats": [5, 6, 13]}
    config, wrong = layered(Config(), tmp_path / PHONE_FILE)
    assert wrong == ""
    assert (config.display.display, config.display.rotate, config.pins.seats) == (
        "sh1106", 2, (5, 6, 13))
    assert layered(Config(), tmp_path / "none.toml") == (Config(), "")


@pytest.mark.parametrize(("text", "said"), [
    (b"\xff\xfe junk", "not the phone's settings"),
    (b"display.rotate = ", "not the phone's settings"),
    (b"a" + b".a" * 50 + b" = 1\n", "nested more than 8 deep"),
    (b"pins.button = 1" + b"0" * 60 + b"\n", "a number in it is far too long"),
    (b"web.port = 8080\n", "not a setting a phone may change"),
    (b"pins.seats = [2, 5]\n", "GPIO 2 is taken by I2C SDA"),
])
def test_a_kept_file_the_config_cannot_take_stands_aside_in_one_line(
        tmp_path: Path, text: bytes, said: str) -> None:
    (tmp_path / PHONE_FILE).write_bytes(text)
    config, wrong = layered(Config(), tmp_path / PHONE_FILE)
    assert config == Config() and said in wrong and "\n" not in wrong, wrong


def test_a_fifo_where_the_kept_file_goes_neither_hangs_the_start_nor_is_taken(
        tmp_path: Path) -> None:
    """Read as the config file is read (not waiting on a FIFO: a start held until systemd's
    timeout, again and again), and refused in one line."""
    os.mkfifo(tmp_path / PHONE_FILE)
    config, wrong = layered(Config(), tmp_path / PHONE_FILE)
    assert config == Config() and "not the phone's settings (not a file" in wrong, wrong
    assert kept(tmp_path) == {}


def test_a_newer_settings_file_on_the_card_sets_the_phones_aside(tmp_path: Path) -> None:
    card, target, refused = tmp_path / "robinson-table.toml", tmp_path / "config.toml", \
        tmp_path / "refused"
    phone = tmp_path / PHONE_FILE
    card.write_text('language = "en"\n')
    keep(tmp_path, {"display.rotate": 2})
    settle(card, target, refused, phone)  # taken: the config was none before
    assert not phone.exists()
    keep(tmp_path, {"display.rotate": 2})
    outcome, said = settle(card, target, refused, phone)  # the same file again: unchanged
    assert outcome is not None and not outcome.changed and phone.exists(), said
    card.write_text('language = "fi"\n')
    outcome, said = settle(card, target, refused, phone)
    assert outcome is not None and outcome.changed and not phone.exists()
    assert "set aside" in said


def test_the_amplifier_a_phone_switched_asks_for_the_install(tmp_path: Path) -> None:
    config, phone, boot = tmp_path / "config.toml", tmp_path / PHONE_FILE, tmp_path / "config.txt"
    config.write_text("[pins]\nseats = [5, 6, 13, 16]\n")
    boot.write_text("[all]\n")
    assert not amplifier_to_switch(config, phone, boot)
    keep(tmp_path, {"voice.i2s_amplifier": True})
    assert amplifier_to_switch(config, phone, boot)
    boot.write_text("[all]\ndtoverlay=max98357a,no-sdmode\n")
    assert not amplifier_to_switch(config, phone, boot)
    keep(tmp_path, {"voice.i2s_amplifier": False})
    assert amplifier_to_switch(config, phone, boot)


# -- the table: a new panel on trial, as a screen's new resolution is ----------------------------


def _ask(rig: Rig, changes: dict[str, object]) -> None:
    state = rig.table.state
    asked = wanted({"intent": "hardware", "changes": changes}, state.prefs, state.fixed.config)
    assert isinstance(asked, Rewire), asked
    rig.table.take(asked)
    rig.run()


def _chip(rig: Rig) -> str:
    """The controller on the panel's wires now."""
    memory = rig.bus.memory
    assert isinstance(memory, PageMemory)
    return memory.chip


def _address(rig: Rig) -> int:
    bus = rig.bus
    assert isinstance(bus, PanelBus)
    return bus.address


def _edges_lit(rig: Rig) -> int:
    """How many of the panel's edge pixels are lit (the test pattern lights them all)."""
    image = rig.bus.image().convert("L")
    width, height = image.size
    edge = {(x, y) for x in range(width) for y in (0, height - 1)} | \
        {(x, y) for y in range(height) for x in (0, width - 1)}
    return sum(1 for xy in edge if image.getpixel(xy))


def _edges(rig: Rig) -> int:
    width, height = rig.bus.image().size
    return 2 * (width + height) - 4


@pytest.fixture
def rig() -> Iterator[Rig]:
    folder = Path(tempfile.mkdtemp(prefix="rh-"))
    made = Rig(folder / "state", seats_on=(1, 2), restart=lambda: restarts.append(1))
    made.wait(3.0)  # the title goes on to setup by itself
    assert made.table.mode is Mode.SETUP
    yield made
    made.close()
    shutil.rmtree(folder, ignore_errors=True)


restarts: list[int] = []


def test_a_new_panel_is_tried_with_a_test_pattern_and_is_undone_after_15_s(rig: Rig) -> None:

    assert TRIAL_FOR == 15  # the README's figure, and the page's in every language:
    assert all(str(TRIAL_FOR) in words["on_trial"] for words in WORDS.values())
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert f"within\n**{TRIAL_FOR} s** the panel before is back" in readme
    before = rig.bus
    assert _chip(rig) == "ssd1306"
    _ask(rig, {"display.display": "sh1106", "display.rotate": 2})
    trial = rig.bus
    assert trial is not before and _chip(rig) == "sh1106"  # a new driver, new wires
    assert rig.table.state.trial is not None
    assert _edges_lit(rig) == _edges(rig)  # the test pattern: every edge pixel lit
    screen = rig.table.screen
    assert screen.body == ("sh1106 128x64", "0x3C 180°") and "15 s" in screen.footer
    rig.wait(TRIAL_FOR - 0.5)
    assert rig.bus is trial and rig.table.state.trial is not None
    rig.wait(1.0)
    back = rig.bus
    assert back is not trial and _chip(rig) == "ssd1306"  # the panel before, as it was
    assert rig.table.state.trial is None
    assert rig.table.state.fixed.config.display.display == "ssd1306"
    flash = rig.table.state.panel.flash
    assert flash is not None and flash.key == "hardware_back"
    assert not (rig.store.directory / PHONE_FILE).exists()
    assert rig.showing(rig.table.screen, rig.table.page)  # said on the panel that is back
    rig.wait(5.0)
    assert rig.table.mode is Mode.SETUP and rig.showing(rig.table.screen, rig.table.page)


def test_a_press_keeps_the_panel_on_trial_and_only_that(rig: Rig) -> None:
    _ask(rig, {"display.display": "ssd1309"})
    before = rig.table.state
    rig.short(read=False)  # in setup, a press would choose the next to start: not this one
    after = rig.table.state
    assert after.trial is None and after.mode is before.mode is Mode.SETUP
    assert (after.seats, after.first, after.game) == (before.seats, before.first, before.game)
    assert kept(rig.store.directory) == {"display.display": "ssd1309", "display.width": 128,
                                         "display.height": 64}
    rig.wait(TRIAL_FOR * 2)
    assert _chip(rig) == "ssd1309"  # kept: no going back
    assert rig.table.state.fixed.config.display.display == "ssd1309"
    assert rig.showing(rig.table.screen, rig.table.page)


def test_the_phone_keeps_it_too_and_a_second_try_replaces_the_first(rig: Rig) -> None:
    _ask(rig, {"display.display": "sh1106"})
    _ask(rig, {"display.i2c_address": 0x3D})  # over the panel in force, not the one tried
    assert _chip(rig) == "ssd1306" and _address(rig) == 0x3D
    rig.wait(TRIAL_FOR - 1)
    rig.table.take(KeepAsked())
    rig.run()
    assert kept(rig.store.directory) == {"display.i2c_address": 0x3D}
    rig.wait(TRIAL_FOR)
    assert _address(rig) == 0x3D and rig.showing(rig.table.screen, rig.table.page)


def test_new_pins_are_kept_and_the_table_starts_again_to_take_them(rig: Rig) -> None:
    restarts.clear()
    _ask(rig, {"pins.seats": [5, 6, 13], "pins.use_buzzer": True})
    assert restarts == [1] and rig.table.state.trial is None
    assert kept(rig.store.directory) == {"pins.seats": [5, 6, 13], "pins.use_buzzer": True}
    assert rig.table.state.panel.flash is not None
    assert rig.table.state.panel.flash.key == "hardware_restart"
    assert rig.showing(rig.table.screen, rig.table.page)  # said on the panel before it goes


def test_a_disk_that_refuses_the_kept_file_leaves_the_table_playing(rig: Rig) -> None:
    (rig.store.directory / f".{PHONE_FILE}.new").mkdir()  # where the new file would go
    _ask(rig, {"display.display": "sh1106"})
    rig.short(read=False)
    assert rig.table.state.trial is None and not (rig.store.directory / PHONE_FILE).exists()
    rig.wait(5.0)
    rig.short(read=False)  # and the table plays on: setup's press chooses who starts
    assert rig.table.mode is Mode.SETUP and rig.showing(rig.table.screen, rig.table.page)


# -- the phone: paired, it switches the panel's driver; unpaired it cannot ------------------------


@pytest.fixture
def folder() -> Iterator[Path]:
    made = Path(tempfile.mkdtemp(prefix="rp-"))
    yield made / "state"
    shutil.rmtree(made, ignore_errors=True)


def test_a_paired_phone_switches_the_panel_driver_and_keeps_it(folder: Path) -> None:
    table = Table(folder, "1,2")
    web = Web(folder)
    try:
        with web.client() as stranger:
            refused = stranger.post("/api/hardware", json={"changes": {"display.rotate": 2}})
            assert refused.status_code == 401
        with paired(web, folder) as (client, token):
            page = client.get("/settings").text
            assert 'name="display.display"' in page and "GPIO17" in page  # the header drawn
            assert '">ROLL</td><td>GPIO17</td>' in page  # what takes GPIO 17
            bad = change(client, token, "hardware", {"changes": {"pins.seats": [2, 5]}})
            assert bad.status_code == 400 and "GPIO 2 is taken by I2C SDA" in bad.json()["said"]
            tried = change(client, token, "hardware", {"changes": {"display.display": "sh1106"}})
            assert tried.status_code == 200, tried.text  # on trial: said so, in full
            assert tried.json() == {"ok": True, "said": WORDS["en"]["on_trial"], "trial": True}
            view = wait_for(lambda: (v := seam_view(folder))["hardware"]["trial"] and v, 10,
                            "the panel on trial")
            assert view["hardware"]["trial"]["display.display"] == "sh1106"
            assert view["hardware"]["settings"]["display.display"] == "ssd1306"
            kept_now = change(client, token, "keep", {})
            assert kept_now.status_code == 200, kept_now.text
            view = wait_for(lambda: (v := seam_view(folder))["hardware"]["trial"] is None and v,
                            10, "the panel kept")
            assert view["hardware"]["settings"]["display.display"] == "sh1106"
        assert kept(folder) == {"display.display": "sh1106", "display.width": 128,
                                "display.height": 64}
    finally:
        web.stop()
        assert table.stop() == 0
    # the next start drives the panel the phone kept
    again = Table(folder, "1,2")
    try:
        view = seam_view(folder)
        assert view["hardware"]["settings"]["display.display"] == "sh1106"
    finally:
        again.stop()


def test_pins_a_phone_chose_that_cannot_be_had_are_set_aside_for_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A phone's pins that another program holds would stop every start (systemd's restarts
    included) where no phone can reach the table to undo them: the start that finds them
    busy (after its title, as the pins are opened) says so on the panel and in its one
    line, sets the phone's file aside, and the next runs with the config's."""
    from firmware import app, pins
    from firmware.cli import build_parser
    from firmware.errors import HardwareError

    real = pins.open_pins

    def held(config: Config, *args: Any) -> Any:  # GPIO 27: another program's, as if
        if config.pins.button == 27:
            raise HardwareError("GPIO 27 is in use by another program")
        return real(config, *args)

    monkeypatch.setattr(pins, "open_pins", held)
    state = tmp_path / "state"
    state.mkdir()
    keep(state, {"pins.button": 27})
    args = build_parser().parse_args(["table", "--emulate", "--state-dir", str(state)])
    with pytest.raises(HardwareError) as raised:
        app.run_table(args)
    said = str(raised.value)
    shown = " ".join(line[2:] for line in capsys.readouterr().out.splitlines()
                     if line.startswith("│ "))  # the pages' rows, as text (piped)
    assert shown.index("Setting up") < shown.index("A pin will not open: see the journal")
    assert "GPIO 27 is in use" in said and f"{PHONE_FILE}.not-taken" in said, said
    assert not (state / PHONE_FILE).exists()
    assert (state / f"{PHONE_FILE}.not-taken").read_text().count("pins.button = 27") == 1
    assert layered(Config(), state / PHONE_FILE) == (Config(), "")  # the next start: plain
    # a file that cannot be set aside (a folder of that name in its way) is named instead
    (state / f"{PHONE_FILE}.not-taken").unlink()
    (state / f"{PHONE_FILE}.not-taken" / "x").mkdir(parents=True)
    keep(state, {"pins.button": 27})
    with pytest.raises(HardwareError) as raised:
        app.run_table(args)
    said = str(raised.value)
    assert "could not be set aside" in said and f"remove {state / PHONE_FILE}" in said, said


def test_an_emulated_table_starts_again_with_a_phones_new_pins(folder: Path) -> None:
    """Emulated, there is no systemd to start the table again: it does so itself, in the
    same process, with the phone's pins laid over the config."""
    table = Table(folder, "1,2")
    try:
        answer = ask(table, {"intent": "hardware", "changes": {"pins.seats": [5, 6, 13]}})
        assert answer["ok"] is True, answer
        wait_for(lambda: "starting again: a phone's new pins" in table.said(), 20,
                 "the first run's end")  # its views had the new pins already: kept
        view = wait_for(lambda: (v := _view_or_none(folder)) and v["hardware"]["settings"][
            "pins.seats"] == [5, 6, 13] and v, 20, "the table back with the new pins")
        assert view["mode"] in ("title", "setup")
        assert table.process.poll() is None  # the same process, started again
    finally:
        assert table.stop() == 0


def _view_or_none(folder: Path) -> dict[str, Any] | None:
    try:
        return dict(seam_view(folder, timeout=2.0))
    except (OSError, AssertionError):
        return None


def test_a_stop_while_the_table_starts_again_is_not_lost(folder: Path) -> None:
    """SIGTERM that comes as the table starts again (between its two runs, where the first
    run's handlers once took it and stopped a loop already stopping) ends the process."""
    import signal

    table = Table(folder, "1,2")
    answer = ask(table, {"intent": "hardware", "changes": {"pins.seats": [5, 6, 13]}})
    assert answer["ok"] is True, answer
    table.process.send_signal(signal.SIGTERM)  # the restart is under way
    assert table.stop() == 0  # within 15 s, or it fails saying so
