"""What the machine's phones room does (``firmware.table.phones``), rule by rule: a
phone's new panel on trial, its other settings kept, a pairing code asked for, a phone
paired. The page and the seam around it are tested in tests/page/ and tests/app/."""

from __future__ import annotations

import firmware.config.phone
from firmware.table import machine as m
from firmware.table import messages as msg
from firmware.table import paired
from firmware.table.menu import Row
from firmware.table.messages import Press, TimerKind
from firmware.table.prefs import PHONES_MOST, Phone
from firmware.table.state import Mode, Waiting
from firmware.table.view import view

from .steps import (
    CONFIG,
    MOVED,
    PHONE_A,
    PHONE_B,
    PHONE_C,
    Machine,
    kept,
    menu_at,
    of,
    playing,
)

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


def test_a_new_panel_wakes_the_table_draws_whole_and_a_second_starts_its_time_anew() -> None:
    """A phone's new panel on a dimmed table: awake, the saver's timers from now, the
    view drawn whole on the new device (it holds nothing of ours), the page from its
    start; another new panel during the trial starts the 15 s again."""
    table = playing(MOVED, measure=lambda screen: (2, 1))
    table.fire(TimerKind.DIM)
    table.fire(TimerKind.PAGE)
    effects = table(NEW_PANEL)
    assert msg.Wake() in effects and table.state.panel.saver.name == "AWAKE"
    assert msg.After(TimerKind.DIM, CONFIG.timings.dim_after) in effects
    assert msg.After(TimerKind.BLANK, CONFIG.timings.blank_after) in effects
    assert len(of(msg.Draw, effects)) == 1
    effects = table(NEW_PANEL)  # again, while on trial: the same pattern, drawn anew
    assert effects.index(msg.Cancel(TimerKind.TRIAL)) < effects.index(
        msg.After(TimerKind.TRIAL, 15))
    assert len(of(msg.Draw, effects)) == 1
    table(MOVED_BUTTON)  # the trial ends unsaid: its timer with it, the screen from page 1
    assert TimerKind.TRIAL not in table.state.armed and table.state.panel.page == 0


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
    stuck(msg.Start(None), msg.Wired((1, 2), stuck=True))
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


def test_a_wrong_code_is_logged_and_pairing_shows_paired_for_three_seconds() -> None:
    table = playing(MOVED, measure=lambda screen: (2, 1))  # a result of two pages
    table(msg.Address("http://robinson.local/"), msg.PairAsked(), msg.Code("123456", "t"))
    table.fire(TimerKind.PAGE)  # page 2 turned to under the code
    assert table.state.panel.page == 1
    effects = table(msg.Paired("654321", PHONE_A))
    assert of(msg.Log, effects) == [
        msg.Log("warning", "a phone offered a pairing code the panel does not show")]
    effects = table(msg.Paired("123456", PHONE_A))
    assert notice(table) == "phone_paired" and msg.After(TimerKind.FLASH, 3.0) in effects
    assert table.state.panel.page == 0  # the code gone: the screen from its first page


def test_a_phone_paired_again_is_kept_once() -> None:
    table = playing(MOVED)
    table(msg.Address("http://robinson.local/"))
    for _ in range(2):
        table(msg.PairAsked(), msg.Code("123456", "token"), msg.Paired("123456", PHONE_A))
    assert table.state.prefs.digests == (PHONE_A,)


# -- who pairs, and the phones kept (``firmware.table.paired``) ---------------------

SHOWN = msg.Code("123456", "tok3n")
DAY = 20000


def test_a_phone_pairs_with_the_code_shown_or_its_token_and_nothing_else() -> None:
    assert paired.proof("123456", PHONE_A, SHOWN, owner="", phones=()) == "code"
    assert paired.proof("tok3n", PHONE_A, SHOWN, owner="", phones=()) == "code"
    assert paired.proof("654321", PHONE_A, SHOWN, owner="", phones=()) is None
    assert paired.proof("123456", PHONE_A, None, owner="", phones=()) is None  # none shown
    assert paired.proof("123456", "A" * 64, SHOWN, owner="", phones=()) is None  # not hex
    assert paired.proof("123456", PHONE_A[:63], SHOWN, owner="", phones=()) is None


def test_the_owner_code_pairs_only_while_no_phone_is_paired() -> None:
    one = (Phone(PHONE_B),)
    assert paired.proof("0123456789", PHONE_A, None, "0123456789", ()) == "owner"
    assert paired.proof("0123456789", PHONE_A, None, "0123456789", one) is None
    assert paired.proof("0123456788", PHONE_A, None, "0123456789", ()) is None
    assert paired.proof("", PHONE_A, None, "", ()) is None  # spent: no code at all
    assert paired.proof("0123456789", PHONE_A, msg.Code("0123456789", "t"), "0123456789",
                         ()) == "owner"  # the owner's, whatever the panel shows


def test_a_phone_paired_is_the_newest_once_and_sixteen_are_kept_at_most() -> None:
    assert PHONES_MOST == 16  # the README's figure
    old = (Phone(PHONE_A, "x/y", DAY - 40, DAY - 40), Phone(PHONE_B, "", DAY - 5, DAY - 5))
    assert paired.joined(old, PHONE_C, "Chrome/Android", DAY) == (
        Phone(PHONE_B, "", DAY - 5, DAY - 5), Phone(PHONE_C, "Chrome/Android", DAY, DAY))
    again = paired.joined(old, PHONE_B, "Safari/iPhone", DAY)  # paired again: once, newest
    assert again == (Phone(PHONE_B, "Safari/iPhone", DAY, DAY),)  # (A: 40 days unused)
    many = tuple(Phone(f"{n:064x}", "", DAY, DAY) for n in range(16))
    assert paired.joined(many, PHONE_A, "", DAY) == (*many[1:], Phone(PHONE_A, "", DAY, DAY))


def test_a_use_is_never_older_and_phones_unused_over_30_days_are_forgotten() -> None:
    phones = (Phone(PHONE_A, "", DAY, DAY), Phone(PHONE_B, "", DAY, DAY + 10))
    assert paired.used(phones, PHONE_B, DAY + 30) == (
        Phone(PHONE_A, "", DAY, DAY), Phone(PHONE_B, "", DAY, DAY + 30))  # 30 days: kept
    assert paired.used(phones, PHONE_B, DAY + 31) == (Phone(PHONE_B, "", DAY, DAY + 31),)
    assert paired.used(phones, PHONE_B, DAY + 5) == phones  # a clock behind: nothing older
    assert paired.used((Phone(PHONE_A),), PHONE_B, DAY) == (Phone(PHONE_A),)  # no day yet
    assert paired.forgotten(phones, PHONE_A) == phones[1:]
    assert paired.forgotten(phones, PHONE_C) == phones


# -- pairing at the table --------------------------------------------------------------


def test_a_phone_pairs_with_the_code_on_the_panel_once_and_only_while_it_shows() -> None:
    table = playing(MOVED)
    effects = table(msg.PairAsked())  # no page has said where it is: nothing to pair with
    assert of(msg.NeedCode, effects) == [] and table.state.panel.flash is not None
    assert table.state.panel.flash.key == "no_web"
    table.press()  # ends the message, and only that
    table(msg.Address("http://robinson.local/"))
    effects = table(msg.PairAsked())
    assert of(msg.NeedCode, effects) == [msg.NeedCode()] and table.state.waiting is Waiting.CODE
    effects = table(msg.Code("123456", "tok3n"))
    assert table.state.pairing == msg.Code("123456", "tok3n")
    assert msg.After(TimerKind.PAIR, m.PAIR_FOR) in effects
    assert "123 456" in "".join(view(table.state).body)  # on the panel, as typed
    table(msg.Paired("654321", PHONE_A))  # not the code shown
    assert table.state.prefs.digests == () and table.state.pairing is not None
    effects = table(msg.Paired("123456", PHONE_A))
    assert table.state.prefs.digests == (PHONE_A,) and table.state.pairing is None
    assert kept(effects)[-1]["phones"] == f"{PHONE_A}:0:0:"  # saved with the settings
    table(msg.Paired("123456", PHONE_B))  # used up
    assert table.state.prefs.digests == (PHONE_A,)
    table(msg.PairAsked())
    table(msg.Code("777777", "other"))
    table.fire(TimerKind.PAIR)  # two minutes on: gone, and no use
    assert table.state.pairing is None
    table(msg.Paired("777777", PHONE_B))
    assert table.state.prefs.digests == (PHONE_A,)


def test_a_phone_unused_for_30_days_is_forgotten_and_one_phone_may_be_forgotten() -> None:
    """Issue 59: a phone paired once stayed paired for ever. Each phone keeps what it is
    and the days it paired and was last used (the page tells its first use of a day); one
    unused for more than 30 days is forgotten at another's use or pairing, never by a
    clock behind; the page's list forgets one phone."""
    from firmware.table.prefs import PHONE_DAYS, Phone

    assert PHONE_DAYS == 30  # the README's figure
    table = playing(MOVED)
    table(msg.Address("http://robinson.local/"), msg.PairAsked(), msg.Code("111111", "t1"))
    effects = table(msg.Paired("111111", PHONE_A, "Chrome/Android", 20000))
    assert table.state.prefs.phones == (Phone(PHONE_A, "Chrome/Android", 20000, 20000),)
    assert kept(effects)[-1]["phones"] == f"{PHONE_A}:20000:20000:Chrome/Android"
    table.press()  # the "paired" message away
    table(msg.PairAsked(), msg.Code("222222", "t2"), msg.Paired("222222", PHONE_B, "Safari/iPhone",
                                                          20010))
    table(msg.PhoneUsed(PHONE_B, 20030))  # A unused for 30 days: kept
    assert table.state.prefs.digests == (PHONE_A, PHONE_B)
    effects = table(msg.PhoneUsed(PHONE_B, 20031))  # 31: forgotten, and saved so
    assert table.state.prefs.phones == (Phone(PHONE_B, "Safari/iPhone", 20010, 20031),)
    assert kept(effects)[-1]["phones"] == f"{PHONE_B}:20010:20031:Safari/iPhone"
    assert kept(table(msg.PhoneUsed(PHONE_B, 20020))) == []  # a clock behind: nothing
    assert table.state.prefs.phones[0].used == 20031  # saved, no use made older
    assert kept(table(msg.PhoneUsed(PHONE_A, 20032))) == []  # a phone forgotten stays so
    assert table.state.prefs.digests == (PHONE_B,)
    effects = table(msg.ForgetPhone(PHONE_B))
    assert table.state.prefs.phones == () and kept(effects)[-1]["phones"] == ""


def test_the_owner_code_pairs_the_first_phone_only() -> None:
    """The first boot's owner code, with no code on the panel (the panel may be dark):
    it pairs a phone while none is paired, once; then it is spent (the shell deletes it)."""
    table = playing(MOVED, owner="0123456789")
    table(msg.Paired("0123456788", PHONE_A))  # not it
    assert table.state.prefs.digests == ()
    effects = table(msg.Paired("0123456789", PHONE_A))
    assert table.state.prefs.digests == (PHONE_A,) and table.state.fixed.owner == ""
    assert of(msg.OwnerCodeUsed, effects) == [msg.OwnerCodeUsed()]
    assert kept(effects)[-1]["phones"] == f"{PHONE_A}:0:0:"
    table(msg.Paired("0123456789", PHONE_B))  # spent
    assert table.state.prefs.digests == (PHONE_A,)
    later = Machine(owner="0123456789")  # a phone paired already, kept
    later(msg.Start(MOVED, prefs=(("phones", PHONE_A),)), msg.Wired(MOVED.seats))
    assert later.state.prefs.digests == (PHONE_A,)
    assert of(msg.OwnerCodeUsed, later(msg.Paired("0123456789", PHONE_B))) == []
    assert later.state.prefs.digests == (PHONE_A,)


def test_a_press_while_a_phones_code_shows_takes_it_away_and_rolls() -> None:
    """Anyone on the network may ask for a code (issue 59: a stranger's, asked again and
    again, covered the game and ate every press): a press takes it away and does what it
    would have done. A code the panel's own menu asked for is only taken away."""
    table = playing(MOVED, faces=[6])
    table(msg.Address("http://robinson.local/"), msg.PairAsked(), msg.Code("123456", "t"))
    assert table.state.pairing is not None
    effects = table.press()
    assert table.state.pairing is None and len(of(msg.NeedFace, effects)) == 1  # it rolled
    table = playing(MOVED)
    table(msg.Address("http://robinson.local/"))
    menu_at(table, Row.PHONE)
    table.press(Press.LONG)
    table(msg.Code("123456", "t"))
    assert table.state.pairing is not None and table.state.mode is Mode.MENU
    row = table.state.now
    effects = table.press()
    assert table.state.pairing is None and table.state.now == row and not of(msg.NeedFace,
                                                                              effects)
