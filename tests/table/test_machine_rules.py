"""The root step's rules (``firmware.table.machine``), one a test, on the machine alone:
what starting and stopping do, a timer or an answer that comes when it is not due, the
button held, seats switched, settings from outside, a decision's odds.

Each room's own rules are in its own file (``test_play``, ``test_menus``, ``test_phones``,
``test_panel``, ``test_writes``), each said once with its exact effects, so a change to
any of them fails a test that names it; ``test_machine.py`` checks promises over random
play."""

from __future__ import annotations

import dataclasses

import pytest

from firmware.config.settings import Config
from firmware.display import screens
from firmware.saves.faults import Fault
from firmware.speech.said import Spoken
from firmware.table import machine as m
from firmware.table import messages as msg
from firmware.table.menu import Row
from firmware.table.messages import Press, TimerKind
from firmware.table.prefs import Prefs
from firmware.table.state import Fixed, Mode, Saver
from firmware.table.view import view
from robinson_core import CHOICES, Choice, Pending

from .steps import (
    MOVED,
    ODDS_ON,
    Machine,
    T,
    _in_every_mode,
    draws,
    kept,
    menu_at,
    of,
    one_page,
    pending,
    playing,
    started,
)

# -- start -----------------------------------------------------------------------------


@pytest.mark.parametrize("saved,expected", [("1", 1), ("255", 255), ("77", 77)])
def test_a_saved_brightness_from_1_to_255_is_set_at_start(saved: str, expected: int) -> None:
    table = Machine()
    effects = table(msg.Start(None, prefs=(("contrast", saved),), contrast=200), msg.Wired((1, 2)))
    assert of(msg.Contrast, effects) == [msg.Contrast(expected)]
    assert table.state.prefs.contrast == expected


@pytest.mark.parametrize("saved", ["0", "256", "bright", ""])
def test_a_saved_brightness_out_of_range_is_ignored(saved: str) -> None:
    table = Machine()
    effects = table(msg.Start(None, prefs=(("contrast", saved),), contrast=200), msg.Wired((1, 2)))
    assert of(msg.Contrast, effects) == []
    assert table.state.prefs.contrast == 200


@pytest.mark.parametrize("asked,saved,expected", [
    (None, "fi", "fi"), (None, "xx", "en"), ("ja", "fi", "ja"), (None, "", "en")])
def test_the_language_is_the_command_lines_then_the_saved_then_the_configs(
        asked: str | None, saved: str, expected: str) -> None:
    table = Machine(lang=asked)
    table(msg.Start(None, prefs=(("language", saved),)), msg.Wired((1, 2)))
    assert table.state.prefs.language == expected


def test_before_start_the_table_speaks_the_asked_language_or_the_configs() -> None:
    assert m.initial(Fixed(Config(language="hr"), one_page)).prefs.language == "hr"
    assert m.initial(Fixed(Config(language="hr"), one_page, lang="ja")).prefs.language == "ja"


def test_start_arms_the_screen_saver_and_the_burn_in_shift() -> None:
    effects = Machine()(msg.Start(None), msg.Wired((1, 2)))
    afters = of(msg.After, effects)
    assert msg.After(TimerKind.DIM, T.dim_after) in afters
    assert msg.After(TimerKind.BLANK, T.blank_after) in afters
    assert msg.After(TimerKind.SHIFT, T.shift_every) in afters


def test_a_button_down_at_start_waits_to_be_let_go() -> None:
    table = Machine()
    effects = table(msg.Start(None), msg.Wired((1, 2), stuck=True))
    assert table.state.mode is Mode.STUCK
    assert draws(effects) == [  # the title first (drawn before the pins are open), then
        msg.Draw(screens.title_screen(table.w, False)),  # what the pins found
        msg.Draw(screens.message_screen("ROBINSON", table.w("release_button")))]
    assert TimerKind.BOOT not in table.state.armed  # no setup under a held button
    assert table(msg.Held(Press.MENU)) == []  # no hint while stuck
    table.press(Press.MENU)
    assert table.state.mode is Mode.STUCK  # nor a menu
    table(msg.Unstuck())
    assert table.state.mode is Mode.TITLE
    assert table(msg.Unstuck()) == []  # let go again: nothing


def test_a_fault_at_start_is_said_on_the_title_and_the_game_plays_on() -> None:
    table = Machine(faces=[3])
    effects = table(msg.Start(MOVED, fault=Fault.DISK_FULL), msg.Wired(MOVED.seats))
    said = table.w("save_failed", reason=table.w("fault_disk_full"))
    assert said in " ".join(draws(effects)[-1].screen.body)
    table.press()
    assert table.state.mode is Mode.PLAY and table.state.game == MOVED
    assert table.screen.badge == table.w("unsaved_badge")  # from the first screen on
    table.disk_ok = False
    effects = table.press()  # refused as at start: said on the title, not again
    assert table.state.writes.unsaved and not [e for e in effects if isinstance(e, msg.Log)]
    assert TimerKind.RETRY in table.state.armed and TimerKind.SAVE_FAILED not in table.state.armed


def test_a_kept_volume_or_speed_out_of_what_the_config_allows_is_the_configs() -> None:
    defaults = Prefs(volume=70, speed=140)
    edges = {"volume": "10", "speed": "300"}
    assert Prefs.from_strings(edges, defaults)[0] == defaults.but(volume=10, speed=300)
    for volume, speed in (("9", "79"), ("101", "301"), ("loud", ""), ("-5", "1e3")):
        kept, _ = Prefs.from_strings({"volume": volume, "speed": speed}, defaults)
        assert (kept.volume, kept.speed) == (70, 140), (volume, speed)


# -- stop ------------------------------------------------------------------------------


def test_switching_off_stops_every_timer_and_says_so() -> None:
    table = playing(MOVED)
    table.fire(TimerKind.DIM)  # dimmed: switching off wakes it to say so
    effects = table(msg.Stop())
    assert effects == [msg.CancelAll(), msg.Wake(),
                       msg.Draw(screens.message_screen("ROBINSON", table.w("switched_off"))),
                       msg.Contrast(m.HALT_CONTRAST), msg.Light(None, (1, 2))]
    assert m.HALT_CONTRAST == 1  # the least: the frame may stay lit for days after a halt
    assert table.state.armed == frozenset() and table.state.panel.saver is Saver.AWAKE


def test_switching_off_hushes_a_voice_that_speaks_and_no_other() -> None:
    speaking = playing(MOVED, voice=True)
    assert msg.Hush() in speaking(msg.Stop())
    assert msg.Hush() not in playing(MOVED)(msg.Stop())  # a table that does not speak: nothing


def test_once_switched_off_no_press_or_hold_changes_the_frame() -> None:
    table = playing(MOVED)
    table(msg.Stop())
    off = table.state
    for kind in Press:
        assert draws(table(msg.Down(), msg.Held(Press.LONG), msg.Held(Press.MENU))) == [], kind
        assert draws(table.press(kind)) == [] and table.state.mode is Mode.OFF, kind
    assert table.screen == view(off)


# -- what a timer or an answer does only when it is due --------------------------------


def test_a_timer_not_armed_does_nothing() -> None:
    table = started()
    before = table.state
    assert table.fire(TimerKind.PAGE) == [] and table.state == before


def test_a_face_or_a_recall_not_asked_for_does_nothing() -> None:
    table = playing(MOVED, faces=[4])
    table.press()
    before = table.state
    assert table(msg.Face(6)) == [] and table.state == before  # one roll, one face
    assert table(msg.Recalled(())) == [] and table.state == before


# -- the button held -------------------------------------------------------------------


def test_holding_for_a_long_press_says_what_letting_go_will_do() -> None:
    game = pending(Pending.TREE)
    table = playing(game)
    effects = table(msg.Down(), msg.Held(Press.LONG))
    other = table.w.option(Pending.TREE, Choice.STAY)
    hint = table.w("let_go_long", action=other)
    assert draws(effects) == [msg.Draw(dataclasses.replace(table.screen, footer=hint))]
    effects = table(msg.Held(Press.MENU))
    assert draws(effects)[0].screen.footer == table.w("let_go_menu")
    effects = table.press(Press.MENU)  # let go: the menu, its own footer
    assert draws(effects) == [msg.Draw(table.screen)]
    assert table.screen.footer == table.w("menu_keys")
    assert table.state.panel.hint is None and table.state.mode is Mode.MENU


# -- seats switched --------------------------------------------------------------------


def test_a_seat_switched_during_play_is_refused_for_a_while() -> None:
    table = playing(MOVED)
    under = table.screen
    effects = table(msg.SeatsChanged(3, True, (1, 2, 3)))
    assert draws(effects) == [msg.Draw(screens.message_screen(
        table.w("notice"), table.w("seats_locked", seat=3)))]
    assert msg.After(TimerKind.FLASH, 4.0) in effects
    assert table.state.game == MOVED
    assert draws(table.fire(TimerKind.FLASH)) == [msg.Draw(under)]


def test_a_seat_switched_on_the_title_changes_nothing_shown() -> None:
    table = started(MOVED)
    assert draws(table(msg.SeatsChanged(3, True, (1, 2, 3)))) == []
    assert table.state.seats == (1, 2, 3)


# -- settings from outside, in every mode ----------------------------------------------


def test_settings_from_outside_set_the_brightness_hush_a_voice_turned_off_and_are_kept() -> None:
    table = playing(MOVED, voice=True)
    prefs = table.state.prefs
    assert table(msg.Prefer(prefs)) == []  # nothing new: nothing done, nothing kept again
    effects = table(msg.Prefer(prefs.but(contrast=48)))
    assert of(msg.Contrast, effects) == [msg.Contrast(48)] and of(msg.Hush, effects) == []
    assert kept(effects)[-1]["contrast"] == "48"
    effects = table(msg.Prefer(table.state.prefs.but(story=True)))  # the voice stays on
    assert of(msg.Hush, effects) == [] and of(msg.Contrast, effects) == []
    effects = table(msg.Prefer(table.state.prefs.but(voice=False)))
    assert of(msg.Hush, effects) == [msg.Hush()] and kept(effects)[-1]["voice"] == "off"
    assert of(msg.Hush, table(msg.Prefer(table.state.prefs.but(voice=True)))) == []


def test_names_and_language_changed_from_outside_redraw_every_mode_at_once() -> None:
    compared = 0
    for mode, table in _in_every_mode():
        before = table.screen
        prefs = table.state.prefs.but(language="fi", names=((1, "Aino"), (2, "Eetu")))
        effects = table(msg.Prefer(prefs))
        assert table.w.lang == "fi" and table.w.name(1) == "Aino", mode
        assert draws(effects) == [msg.Draw(table.screen, table.state.panel.page)], mode
        assert table.screen != before, mode
        assert kept(effects)[-1]["language"] == "fi", mode
        compared += 1
    assert compared == 14  # the ten modes, the second play screen, all three info pages, a message


# -- a decision's odds -----------------------------------------------------------------


@pytest.mark.parametrize("kind", [Pending.TREE, Pending.AGAIN, Pending.JUMP, Pending.WRECK])
def test_a_decision_asks_for_its_odds_once_and_shows_them_when_they_come(kind: Pending) -> None:
    """Odds on: a decision on the screen asks the shell to weigh it (once); the answer,
    when it comes, is each option's chance beside its press in the footer (page 1);
    no press waits for it."""
    game = pending(kind)
    table = started(game, game.seats, config=ODDS_ON)
    effects = table.press()  # the game taken up: its decision on the screen
    assert of(msg.NeedOdds, effects) == [msg.NeedOdds(game)]
    before = table.screen
    assert of(msg.NeedOdds, table(msg.TimerFired(TimerKind.DIM))) == []  # asked once only
    effects = table(msg.Odds(game, (41, 38)))
    short, long = CHOICES[kind]
    footer = table.w("keys_choice_odds", short=table.w.option(kind, short), a=41,
                     long=table.w.option(kind, long), b=38)
    assert table.screen == dataclasses.replace(before, footer=footer)
    assert draws(effects) == [msg.Draw(table.screen)] and of(msg.Say, effects) == []


def test_odds_for_a_game_moved_on_are_dropped_and_the_voice_says_the_odds() -> None:
    game = pending(Pending.TREE)
    table = started(game, game.seats, config=ODDS_ON, faces=[3])
    table.press()
    table.state = dataclasses.replace(table.state, prefs=table.state.prefs.but(voice=True))
    effects = table(msg.Odds(game.play(Choice.STAY), (50, 50)))  # another game's: dropped
    assert table.state.odds is None and draws(effects) == [] and of(msg.Say, effects) == []
    effects = table(msg.Odds(game, (7, 93)))
    assert of(msg.Say, effects) == [msg.Say(Spoken("en").odds(game.state, (7, 93)), "en",
                                         after=True)]  # never over the result
    table.press()  # roll from the tree: the odds go with the decision
    assert "%" not in table.screen.footer


def test_no_odds_are_asked_for_while_they_are_off_and_the_menu_switches_them() -> None:
    game = pending(Pending.TREE)
    table = started(game, game.seats)
    assert of(msg.NeedOdds, table.press()) == []
    effects = menu_at(table, Row.ODDS)
    assert table.state.prefs.odds and kept(effects)[-1]["odds"] == "on"
    effects = table.press(Press.MENU) + menu_at(table, Row.BACK)
    assert of(msg.NeedOdds, effects) == [msg.NeedOdds(game)]
    effects = menu_at(table, Row.ODDS)
    assert not table.state.prefs.odds and kept(effects)[-1]["odds"] == "off"
    effects = table(msg.Odds(game, (41, 38)))
    assert table.state.odds is None



def test_odds_switched_off_and_on_again_are_asked_for_anew_from_a_phone_too() -> None:
    """Switching the odds drops those shown and asks again when they are back on, from
    the menu or from a phone's settings (``Moment.prefer``: one home for both)."""
    game = pending(Pending.TREE)
    table = started(game, game.seats, config=ODDS_ON)
    effects = table.press()
    assert of(msg.NeedOdds, effects) == [msg.NeedOdds(game)]
    table(msg.Odds(game, (41, 38)))
    assert table.state.odds == (game, (41, 38))
    table(msg.Prefer(table.state.prefs.but(odds=False)))
    assert table.state.odds is None and table.state.weighing is None
    effects = table(msg.Prefer(table.state.prefs.but(odds=True)))
    assert of(msg.NeedOdds, effects) == [msg.NeedOdds(game)]
