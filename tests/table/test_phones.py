"""What the machine's phones room does (``firmware.table.phones``), rule by rule: a
phone's new panel on trial, its other settings kept, a pairing code asked for, a phone
paired. The page and the seam around it are tested in tests/page/ and tests/app/."""

from __future__ import annotations

import firmware.config.phone
from firmware.table import messages as msg
from firmware.table.messages import TimerKind
from firmware.table.state import Mode

from .test_machine_rules import CONFIG, MOVED, PHONE_A, Machine, of, playing

SH1106 = firmware.config.phone.changed(CONFIG, {"display.display": "sh1106"})
NEW_PANEL = msg.Rewire((("display.display", "sh1106"),), SH1106)
MOVED_BUTTON = msg.Rewire((("pins.button", 16),),
                          firmware.config.phone.changed(CONFIG, {"pins.button": 16}))


def notice(table: Machine) -> str:
    flash = table.state.panel.flash
    return flash.key if flash is not None else ""


def test_a_new_panel_is_tried_for_fifteen_seconds_then_the_one_before_is_back() -> None:
    table = playing(MOVED)
    effects = table(NEW_PANEL)
    assert table.state.trial is not None
    assert of(msg.UsePanel, effects) == [msg.UsePanel(SH1106.display)]
    assert msg.After(TimerKind.TRIAL, 15) in effects and TimerKind.TRIAL in table.state.armed
    effects = table.fire(TimerKind.TRIAL)  # not kept
    assert table.state.trial is None and notice(table) == "hardware_back"
    assert of(msg.UsePanel, effects) == [msg.UsePanel(CONFIG.display)]
    assert of(msg.KeepHardware, effects) == []


def test_a_panel_on_trial_kept_cancels_its_timer_and_needs_no_restart() -> None:
    table = playing(MOVED)
    table(NEW_PANEL)
    effects = table(msg.KeepAsked())
    assert msg.Cancel(TimerKind.TRIAL) in effects and TimerKind.TRIAL not in table.state.armed
    assert of(msg.KeepHardware, effects) == [msg.KeepHardware(NEW_PANEL.changes)]
    assert of(msg.Restart, effects) == [] and notice(table) == "hardware_kept"
    assert table.state.trial is None and table.state.fixed.config.display == SH1106.display


def test_new_pins_are_kept_at_once_and_the_table_starts_again() -> None:
    table = playing(MOVED)
    effects = table(MOVED_BUTTON)
    assert of(msg.KeepHardware, effects) == [msg.KeepHardware(MOVED_BUTTON.changes)]
    assert of(msg.Restart, effects) == [msg.Restart()] and notice(table) == "hardware_restart"


def test_other_settings_while_a_panel_is_on_trial_end_the_trial_unsaid() -> None:
    table = playing(MOVED)
    table(NEW_PANEL)
    effects = table(MOVED_BUTTON)
    assert table.state.trial is None
    assert of(msg.UsePanel, effects) == [msg.UsePanel(CONFIG.display)]  # the one in force
    assert of(msg.KeepHardware, effects) == [msg.KeepHardware(MOVED_BUTTON.changes)]
    assert notice(table) == "hardware_restart"  # not "hardware_back"


def test_no_phone_settings_while_the_button_is_stuck_or_the_table_is_off() -> None:
    stuck = Machine()
    stuck(msg.Start(None, (1, 2), stuck=True))
    assert stuck.state.mode is Mode.STUCK
    assert stuck(NEW_PANEL) == [] and stuck(msg.PairAsked()) == []
    assert stuck.state.trial is None and stuck.state.waiting is None


def test_a_code_is_asked_for_only_with_the_page_there_to_take_it() -> None:
    table = playing(MOVED)
    effects = table(msg.PairAsked())  # no page: said, for four seconds
    assert notice(table) == "no_web" and msg.After(TimerKind.FLASH, 4.0) in effects
    assert of(msg.NeedCode, effects) == []
    table.fire(TimerKind.FLASH)
    table(msg.Address("http://robinson.local/"))
    effects = table(msg.PairAsked())
    assert of(msg.NeedCode, effects) == [msg.NeedCode()]


def test_a_phone_paired_again_is_kept_once() -> None:
    table = playing(MOVED)
    table(msg.Address("http://robinson.local/"))
    for _ in range(2):
        table(msg.PairAsked(), msg.Code("123456", "token"), msg.Paired("123456", PHONE_A))
    assert table.state.prefs.digests == (PHONE_A,)
