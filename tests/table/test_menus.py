"""The menu and the phones' list (``firmware.table.menus``, and the setting rows of
``firmware.table.menu``), rule by rule, on the machine alone."""

from __future__ import annotations

import dataclasses

import pytest

from firmware.display import screens
from firmware.display.screen import Screen
from firmware.display.words import Words
from firmware.saves.faults import Fault
from firmware.speech.said import Spoken
from firmware.table import messages as msg
from firmware.table.menu import MENU, SETTINGS, Row, phone_labels, retuned, spoken
from firmware.table.messages import Press, TimerKind
from firmware.table.prefs import Phone, Prefs, brightness_step
from firmware.table.state import Mode, Notice, Waiting
from firmware.table.view import menu_labels, view, words

from .steps import (
    FRESH,
    MOVED,
    PHONE_A,
    PHONE_B,
    PHONE_C,
    VOICE_OFF,
    Machine,
    Old,
    abandon_screen,
    draws,
    kept,
    listed,
    menu_at,
    of,
    playing,
    row_of,
    said,
    started,
    three_phones,
    to_row,
)

# -- the menu --------------------------------------------------------------------------


def test_the_menu_opens_at_its_first_row_and_a_short_press_goes_round() -> None:
    table = playing(MOVED)
    effects = table.press(Press.MENU)
    assert table.state.mode is Mode.MENU and row_of(table) == 0
    labels = menu_labels(table.state)
    assert draws(effects) == [msg.Draw(screens.menu_screen(table.w, labels, 0))]
    rows = []
    for _ in range(len(MENU)):
        effects = table.press()
        rows.append(row_of(table))
        assert draws(effects) == [msg.Draw(screens.menu_screen(table.w, labels, row_of(table)))]
    assert rows == [*range(1, len(MENU)), 0]
    table.press()
    table.press(Press.MENU)  # the menu press again: back to the game
    assert table.state.mode is Mode.PLAY


def test_the_menu_on_the_title_stops_the_way_to_setup() -> None:
    table = started()
    effects = table.press(Press.MENU)
    assert msg.Cancel(TimerKind.BOOT) in effects and TimerKind.BOOT not in table.state.armed


def test_menu_back_returns_to_the_game_and_without_one_to_setup() -> None:
    table = playing(MOVED)
    menu_at(table, Row.BACK)
    assert table.state.mode is Mode.PLAY
    table = started()
    menu_at(table, Row.BACK)
    assert table.state.mode is Mode.SETUP


def test_menu_back_from_setup_stays_in_setup() -> None:
    """Issue 26: Menu -> Back during setup crashed the old table."""
    table = started(seats=(1, 2, 3))
    table.fire(TimerKind.BOOT)
    assert table.state.mode is Mode.SETUP
    before = table.screen
    menu_at(table, Row.BACK)
    assert table.state.mode is Mode.SETUP and table.screen == before


def test_back_after_a_new_game_stays_in_setup_never_resumes_the_game_put_away() -> None:
    table = playing(MOVED)
    menu_at(table, Row.NEW)
    table.press(Press.LONG)  # yes: put it away
    assert table.state.mode is Mode.SETUP
    effects = menu_at(table, Row.BACK)
    assert table.state.mode is Mode.SETUP and table.state.game is None
    assert not of(msg.Save, effects) and not of(msg.BeginGame, effects)
    table.press(Press.LONG)  # the new game begins: nothing of the old one in it
    assert table.state.game is not None and table.state.game.actions == ()


# -- the setting rows ------------------------------------------------------------------


def test_each_setting_row_says_its_own_word_with_the_voice_on() -> None:
    """What a long press on a setting row says (``menu.spoken``): a switch its own word,
    on or off as it is now; the voice's rows "voice on", and nothing once it is off."""
    on, off = Prefs(voice=True, story=True, odds=False), Prefs(voice=False)
    said = {row: (spoken(setting, on), spoken(setting, off)) for row, setting in SETTINGS.items()}
    assert said == {Row.LANGUAGE: ("", ""), Row.BRIGHTNESS: ("", ""),
                    Row.VOICE: ("voice_on", ""), Row.VOLUME: ("voice_on", ""),
                    Row.SPEED: ("voice_on", ""), Row.STORY: ("story_on", "story_off"),
                    Row.ODDS: ("odds_off", "odds_off")}




def test_a_change_of_settings_asks_the_devices_for_what_changed_and_only_that() -> None:
    """From the menu or a phone (``menu.retuned``): the panel's contrast, the voice's
    loudness and pace, and a voice switched off hushed; a voice switched on asks nothing."""
    quiet = Prefs(voice=False)
    assert retuned(quiet, quiet.but(language="fi", story=True, odds=True)) == ()
    assert retuned(quiet, quiet.but(contrast=48)) == (msg.Contrast(48),)
    assert retuned(quiet, quiet.but(volume=70)) == (msg.Voicing(70, quiet.speed),)
    assert retuned(quiet, quiet.but(speed=200)) == (msg.Voicing(quiet.volume, 200),)
    assert retuned(quiet, quiet.but(voice=True)) == ()
    assert retuned(quiet.but(voice=True), quiet) == (msg.Hush(),)
    assert retuned(quiet.but(voice=True), quiet.but(contrast=8, speed=140)) == (
        msg.Contrast(8), msg.Voicing(quiet.volume, 140), msg.Hush())


def test_menu_language_goes_round_the_languages_and_is_kept() -> None:
    table = playing(MOVED)
    seen = []
    for _ in range(4):
        effects = menu_at(table, Row.LANGUAGE)
        seen.append(table.state.prefs.language)
        assert kept(effects) == [{"language": table.state.prefs.language, "contrast": "255",
                                  **VOICE_OFF, "names": "{}", "owed": "",
                                  "phones": ""}]
        assert draws(effects)[-1].screen == screens.menu_screen(
            table.w, menu_labels(table.state), MENU.index(Row.LANGUAGE))
        table.press(Press.MENU)
    assert seen == ["hr", "fi", "ja", "en"]


def test_menu_brightness_steps_down_then_back_to_the_brightest() -> None:
    table = playing(MOVED)
    levels = []
    for _ in range(4):
        effects = menu_at(table, Row.BRIGHTNESS)
        (contrast,) = of(msg.Contrast, effects)
        levels.append(contrast.level)
        assert draws(effects)[-1].screen == screens.menu_screen(  # its new level shown
            table.w, menu_labels(table.state), MENU.index(Row.BRIGHTNESS))
        assert kept(effects) == [{"language": "en", "contrast": str(contrast.level),
                                  **VOICE_OFF, "names": "{}", "owed": "",
                                  "phones": ""}]
        table.press(Press.MENU)
    assert levels == [128, 48, 8, 255]


@pytest.mark.parametrize("contrast,step", [(255, 0), (200, 0), (128, 1), (100, 1), (48, 2),
                                           (30, 2), (8, 3), (1, 3)])
def test_brightness_is_the_nearest_step(contrast: int, step: int) -> None:
    assert brightness_step(contrast) == step


def test_the_menu_names_the_brightness_step() -> None:
    table = started()
    labels = menu_labels(table.state)
    assert labels[MENU.index(Row.BRIGHTNESS)] == table.w("menu_brightness", level="4/4")
    state = dataclasses.replace(table.state,
                                prefs=table.state.prefs.but(contrast=8, language="fi"))
    assert menu_labels(state)[MENU.index(Row.BRIGHTNESS)] == words(state)(
        "menu_brightness", level="1/4")
    assert menu_labels(state)[MENU.index(Row.LANGUAGE)] == words(state)(
        "menu_language", language="Suomi")


def test_the_menus_voice_row_hushes_when_turned_off_and_says_so_when_turned_on() -> None:

    table = playing(MOVED, voice=True)
    effects = menu_at(table, Row.VOICE)
    assert table.state.prefs.voice is False
    assert of(msg.Hush, effects) == [msg.Hush()] and said(effects) == []
    assert kept(effects)[-1]["voice"] == "off"
    table.press(Press.MENU)
    effects = menu_at(table, Row.VOICE)
    assert table.state.prefs.voice is True
    assert of(msg.Hush, effects) == [] and said(effects) == [Spoken("en").switched("voice_on")]
    assert kept(effects)[-1]["voice"] == "on"


def test_the_menus_story_row_goes_on_and_off_and_says_which_with_the_voice_on() -> None:

    table = playing(MOVED, voice=True)
    heard, stories, saved = [], [], []
    for _ in range(2):
        effects = menu_at(table, Row.STORY)
        heard += said(effects)
        stories.append(table.state.prefs.story)
        saved.append(kept(effects)[-1]["story"])
        table.press(Press.MENU)
    assert stories == [True, False] and saved == ["on", "off"]
    assert heard == [Spoken("en").switched("story_on"), Spoken("en").switched("story_off")]
    quiet = playing(MOVED)  # with the voice off, nothing is said at all
    assert said(menu_at(quiet, Row.STORY)) == [] and quiet.state.prefs.story is True


def test_the_voices_volume_and_speed_step_round_in_the_menu_and_are_kept() -> None:
    table = playing(MOVED, voice=True)
    volumes: list[int] = []
    speeds: list[int] = []
    for row, seen in ((Row.VOLUME, volumes), (Row.SPEED, speeds)):
        for _ in range(3):
            effects = menu_at(table, row)
            (voicing,) = of(msg.Voicing, effects)
            prefs = table.state.prefs
            assert voicing == msg.Voicing(prefs.volume, prefs.speed)
            seen.append(prefs.volume if row is Row.VOLUME else prefs.speed)
            assert kept(effects)[-1]["volume"] == str(prefs.volume)
            assert kept(effects)[-1]["speed"] == str(prefs.speed)
            assert of(msg.Say, effects)  # heard as it now sounds
            assert draws(effects)[-1].screen == screens.menu_screen(
                table.w, menu_labels(table.state), MENU.index(row))
            table.press(Press.MENU)
    assert volumes == [70, 40, 100] and speeds == [220, 150, 185]
    # Kept, and in force at the next start: the speaker is told before anything is said.
    again = Machine()
    saved = tuple(Prefs(volume=40, speed=200).as_strings().items())
    effects = again(msg.Start(MOVED, prefs=saved), msg.Wired(MOVED.seats))
    assert of(msg.Voicing, effects) == [msg.Voicing(40, 220)]
    assert again.state.prefs.volume == 40
    plain = Machine()(msg.Start(MOVED), msg.Wired(MOVED.seats))
    assert of(msg.Voicing, plain) == []  # the config's own
    labels = menu_labels(again.state)
    assert labels[MENU.index(Row.VOLUME)] == again.w("menu_volume", level="40 %")
    assert labels[MENU.index(Row.SPEED)] == again.w("menu_speed", level=again.w("speed_fast"))
    assert again.state.prefs.speed == 220  # 200 was fast before the voice was made quicker


# -- standings, recall, about ----------------------------------------------------------


def test_menu_standings_shows_them_and_any_press_returns_to_the_menu() -> None:
    table = playing(MOVED)
    effects = menu_at(table, Row.STANDINGS)
    assert table.state.mode is Mode.INFO
    assert draws(effects) == [msg.Draw(screens.standings_screen(table.w, MOVED.state))]
    table.press()
    assert table.state.mode is Mode.MENU and MENU[row_of(table)] is Row.STANDINGS


def test_menu_standings_without_a_game_stays_in_the_menu() -> None:
    table = started()
    assert draws(menu_at(table, Row.STANDINGS)) == []
    assert table.state.mode is Mode.MENU


def test_menu_recall_asks_the_store_and_shows_what_it_gives() -> None:
    table = playing(MOVED)
    effects = menu_at(table, Row.RECALL)
    # A game in play with actions: its own last turns; the games put away in brief only.
    assert of(msg.NeedRecall, effects) == [msg.NeedRecall(last=False)]
    assert table.state.waiting is Waiting.RECALL  # the menu stays until the store answers
    finished = (Old(),)
    effects = table(msg.Recalled(finished))
    assert draws(effects) == [msg.Draw(screens.recall_screen(table.w, MOVED, finished))]
    assert table(msg.Recalled(finished)) == []  # not asked for: nothing


def test_recall_without_a_game_in_play_shows_the_newest_put_away() -> None:
    table = started()
    assert of(msg.NeedRecall, menu_at(table, Row.RECALL)) == [msg.NeedRecall(last=True)]
    finished = (Old("won", winner=1), Old())
    effects = table(msg.Recalled(finished, MOVED))
    assert draws(effects) == [msg.Draw(screens.recall_screen(table.w, MOVED, finished))]
    table = started(FRESH)
    assert of(msg.NeedRecall, menu_at(table, Row.RECALL)) == [msg.NeedRecall(last=True)]
    assert draws(table(msg.Recalled(()))) == [msg.Draw(screens.recall_screen(table.w, None, ()))]


def test_about_opens_without_a_game_the_standings_do_not() -> None:
    table = started()
    table.fire(TimerKind.BOOT)
    assert table.state.game is None
    menu_at(table, Row.ABOUT)
    assert table.state.mode is Mode.INFO


def test_menu_about_says_the_version_the_folder_the_panel_and_missing_fonts() -> None:
    table = playing(MOVED, version="1.2.3", saves="/var/lib/robinson-table",
                    fonts_missing=("fonts-noto-cjk",))
    effects = menu_at(table, Row.ABOUT)
    w = table.w
    assert table.state.mode is Mode.INFO
    assert draws(effects) == [msg.Draw(Screen(
        title=w("menu_about"),
        body=(w("about_version", version="1.2.3"),
              w("about_saves", path="/var/lib/robinson-table"), "ssd1306 i2c",
              w("about_fonts", packages=("fonts-noto-cjk",))),
        footer=w("keys_back")))]


# -- a new game, bring back ------------------------------------------------------------


def test_menu_new_game_asks_then_puts_this_one_away() -> None:
    table = playing(MOVED)
    effects = menu_at(table, Row.NEW)
    assert of(msg.PutAway, effects) == [] and draws(effects) == [msg.Draw(abandon_screen(table))]
    table.press()  # no: back to the menu, on the same row
    assert table.state.mode is Mode.MENU and MENU[row_of(table)] is Row.NEW
    effects = table.press(Press.LONG)
    assert table.state.mode is Mode.ABANDON
    effects = table.press(Press.LONG)
    assert of(msg.PutAway, effects) == [msg.PutAway(MOVED)]
    assert table.state.mode is Mode.SETUP and table.state.game is None
    assert kept(effects) == []  # nothing kept changes (a face owed to it stays owed)


def test_menu_bring_back_puts_the_last_game_put_away_back_in_play() -> None:
    table = started()
    effects = menu_at(table, Row.BRING_BACK)
    assert of(msg.BringBack, effects) == [msg.BringBack()]
    effects = table(msg.Brought(MOVED))
    assert table.state.game == MOVED and table.state.mode is Mode.PLAY
    assert kept(effects) == []
    assert msg.After(TimerKind.FLASH, 3.0) in effects
    assert draws(effects)[-1] == msg.Draw(screens.message_screen(table.w("notice"),
                                                               table.w("brought_back")))
    assert table(msg.Brought(FRESH)) == []  # not asked for: nothing


@pytest.mark.parametrize("fault,key", [(None, "nothing_to_bring_back"), (Fault.DISK_FULL, "")])
def test_menu_bring_back_with_nothing_there_or_a_refusing_disk_says_so(fault: Fault | None,
                                                                    key: str) -> None:
    table = playing(MOVED)
    menu_at(table, Row.BRING_BACK)
    effects = table(msg.Brought(None, fault))
    said = table.w(key) if key else table.w("save_failed", reason=table.w("fault_disk_full"))
    assert draws(effects) == [msg.Draw(screens.message_screen(table.w("notice"), said))]
    assert msg.After(TimerKind.FLASH, 3.0) in effects
    assert table.state.game == MOVED


def test_bring_back_waits_while_a_change_is_not_on_disk() -> None:
    """The store's bring back puts away the game in play as the disk holds it: while a
    roll is not on disk, it would be lost. The menu says the disk refuses instead."""
    table = playing(MOVED, animate=False, faces=[3])
    table.disk_ok = False
    table.press()
    menu_at(table, Row.BRING_BACK)
    effects = table.press(Press.LONG)
    assert not [e for e in effects if isinstance(e, msg.BringBack)]
    assert table.state.waiting is None and table.state.panel.flash == Notice.of(
        "save_failed", reason=Fault.DISK_FULL)


def test_a_game_brought_back_and_an_undo_are_said() -> None:

    table = started(voice=True)
    menu_at(table, Row.BRING_BACK)
    assert said(table(msg.Brought(MOVED))) == [Spoken("en").resumed(MOVED)]
    table.fire(TimerKind.FLASH)
    menu_at(table, Row.UNDO)
    effects = table.press(Press.LONG)
    assert table.state.game == MOVED.undo()
    assert said(effects) == [Spoken("en").turn(MOVED.undo().state)]


# -- repeat ----------------------------------------------------------------------------


def test_the_menus_repeat_shows_the_last_result_from_page_one_and_says_it_again() -> None:

    table = playing(MOVED, voice=True)
    effects = menu_at(table, Row.REPEAT)
    assert table.state.mode is Mode.PLAY and table.state.panel.page == 0
    assert draws(effects) == [msg.Draw(screens.result_screen(table.w, MOVED))]
    assert of(msg.Say, effects) == [msg.Say(Spoken("en").result(MOVED), "en")]
    quiet = playing(MOVED)  # the voice off: shown again, not said
    effects = menu_at(quiet, Row.REPEAT)
    assert draws(effects) == [msg.Draw(screens.result_screen(quiet.w, MOVED))]
    assert of(msg.Say, effects) == []
    fresh = started(FRESH)  # nothing played yet: nothing to repeat, the menu stays
    assert draws(menu_at(fresh, Row.REPEAT)) == [] and fresh.state.mode is Mode.MENU


# -- the phones list -------------------------------------------------------------------


def test_two_phones_of_a_kind_are_numbered_in_the_order_they_paired() -> None:
    kinds = ("Chrome/Android", "Safari/iPhone", "Chrome/Android", "Firefox/Linux")
    rows = phone_labels(Words("en"), [Phone(f"{n:064x}", kind) for n, kind in enumerate(kinds)])
    assert rows == ["Linux Firefox", "Android Chrome 2", "iPhone Safari", "Android Chrome 1",
                    "Forget all", "Back to the menu"]




def test_the_menu_lists_the_phones_newest_first_and_forgets_the_one_chosen() -> None:
    """Issue 59: the panel's menu forgot every phone at once. Its Phones row says how many
    are paired and lists them (what each is and the day it was last used), newest first,
    then Forget all and Back; a long press forgets the phone under the cursor and stays
    in the list; the message that says so hides the list, so the press that ends it
    forgets nothing more."""
    table = three_phones()
    to_row(table, Row.PHONES)
    assert menu_labels(table.state)[MENU.index(Row.PHONES)] == "Phones paired: 3"
    table.press(Press.LONG)
    assert listed(table) == (["▶ Phone", "  iPhone Safari",
                              "  Android Chrome"], 0)
    assert view(table.state).footer == table.w("phones_keys")
    table.press()  # down to B
    effects = table.press(Press.LONG)
    assert table.state.prefs.digests == (PHONE_A, PHONE_C)
    assert kept(effects)[-1]["phones"] == (f"{PHONE_A}:20000:20000:Chrome/Android "
                                           f"{PHONE_C}:20002:20002:")
    assert table.state.panel.flash == Notice.of("phone_forgotten")
    effects = table.press(Press.LONG)  # ends the message, and only that
    assert table.state.panel.flash is None and table.state.prefs.digests == (PHONE_A, PHONE_C)
    assert listed(table) == (["  Phone", "▶ Android Chrome", "  Forget all"], 1)
    table.press()
    table.press()  # Back
    assert listed(table)[0][-1] == "▶ Back to the menu"
    assert view(table.state).footer == table.w("menu_keys")
    table.press(Press.LONG)
    assert table.state.mode is Mode.MENU and MENU[row_of(table)] is Row.PHONES
    assert table.state.prefs.digests == (PHONE_A, PHONE_C)
    table.press(Press.LONG)  # the list again: the last phone forgotten, back to the menu
    table.press(Press.LONG)
    table.press()
    table.press(Press.LONG)
    assert table.state.prefs.digests == ()
    assert table.state.mode is Mode.MENU and MENU[row_of(table)] is Row.PHONES
    assert menu_labels(table.state)[MENU.index(Row.PHONES)] == "Phones paired: 0"
    table.press(Press.LONG)  # the message away; in the menu the press acts too: none to list
    assert table.state.mode is Mode.MENU and table.state.panel.flash == Notice.of("phones_none")


def test_the_first_row_forgets_the_newest_phone_and_forget_all_every_phone() -> None:
    table = three_phones()
    to_row(table, Row.PHONES)
    table.press(Press.LONG)
    table.press(Press.LONG)  # the first row: the newest
    assert table.state.prefs.digests == (PHONE_A, PHONE_B)
    table.press()  # the message away
    for _ in range(2):
        table.press()
    assert listed(table)[0][-2:] == ["▶ Forget all", "  Back to the menu"]
    effects = table.press(Press.LONG)
    assert table.state.prefs.digests == () and kept(effects)[-1]["phones"] == ""
    assert table.state.panel.flash == Notice.of("phones_forgotten")
    assert table.state.mode is Mode.MENU and MENU[row_of(table)] is Row.PHONES


def test_a_phone_forgotten_from_the_page_while_the_list_shows_moves_the_cursor_up() -> None:
    """The page forgets the phone under the panel's cursor (the last but the rows after
    it): the cursor stays on a row that is there, and a long press does what it shows."""
    table = three_phones()
    to_row(table, Row.PHONES)
    table.press(Press.LONG)
    for _ in range(4):
        table.press()  # Back, the last row
    table(msg.ForgetPhone(PHONE_A), msg.ForgetPhone(PHONE_B))
    assert listed(table) == (["  Phone", "  Forget all", "▶ Back to the menu"], 2)
    table.press(Press.LONG)
    assert table.state.mode is Mode.MENU and table.state.prefs.digests == (PHONE_C,)
