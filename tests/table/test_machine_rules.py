"""What each input does in each mode, one rule a test, on the machine alone.

``tests/table/test_machine.py`` checks promises over random play; here each rule of the
table is said once with its exact effects ("a long press in setup begins the game",
"the fourth brightness press goes back to the brightest"), so a change to any of them
fails a test that names it. No rig, no clock: microseconds a test.
"""

from __future__ import annotations

import dataclasses
import datetime
import random
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from firmware.config.settings import Config, TableOptions, Timings
from firmware.display import screens
from firmware.display.screen import Screen
from firmware.runtime.tunes import Tune
from firmware.saves.faults import Fault
from firmware.speech.said import Spoken
from firmware.table import machine as m
from firmware.table import messages as msg
from firmware.table.menu import MENU, Row
from firmware.table.messages import Press, TimerKind
from firmware.table.moment import FRAME
from firmware.table.prefs import Owed, Prefs
from firmware.table.state import Animate, Fixed, Menu, Mode, Notice, Saver, Waiting
from firmware.table.view import TUMBLE, brightness_step, menu_labels, view, words
from robinson_core import CHOICES, Choice, Game, HouseRules, Pending, Roll, Square4, Status
from robinson_core import events as ev

CONFIG = Config()
T = CONFIG.timings
VOICE_OFF = {"voice": "off", "story": "off", "odds": "off", "volume": "100",  # a table that
             "speed": "170"}  # does not speak, at the config's loudness and speed


def one_page(screen: Screen) -> tuple[int, int]:
    return 1, 0


class Machine:
    """The machine, with a die that shows ``faces`` and a disk that takes every write
    (or none: ``disk_ok``), answered as the shell answers: after the effects' list."""

    def __init__(self, *, config: Config = CONFIG,
                 measure: Callable[[Screen], tuple[int, int]] = one_page,
                 faces: Iterable[int] = (), **fixed: Any) -> None:
        self.state = m.initial(Fixed(config, measure, **fixed))
        self.faces = list(faces)
        self.disk_ok = True
        self.refusal: Fault | None = Fault.DISK_FULL  # why the disk refuses, when it does

    def __call__(self, *events: msg.Input) -> list[msg.Effect]:
        out: list[msg.Effect] = []
        for event in events:
            for _, state, effects in m.run(self.state, event, self.answer):
                self.state = state
                out += effects
        return out

    def answer(self, effect: msg.Effect) -> msg.Input | None:
        if isinstance(effect, msg.NeedFace):
            return msg.Face(self.faces.pop(0))
        if isinstance(effect, msg.WRITES):
            return msg.Wrote(self.disk_ok, None if self.disk_ok else self.refusal)
        return None

    @property
    def w(self) -> Any:
        return words(self.state)

    @property
    def screen(self) -> Screen:
        """What the panel shows now: the view of the state."""
        return view(self.state)

    def press(self, kind: Press = Press.SHORT) -> list[msg.Effect]:
        return self(msg.Pressed(kind))

    def fire(self, kind: TimerKind) -> list[msg.Effect]:
        return self(msg.TimerFired(kind))


def started(game: Game | None = None, seats: tuple[int, ...] = (1, 2), **kw: Any) -> Machine:
    table = Machine(**kw)
    table(msg.Start(game, seats))
    return table


def playing(game: Game, **kw: Any) -> Machine:
    """A table at ``game``, in play (resumed from the title)."""
    table = started(game, game.seats, **kw)
    table.press()
    assert table.state.mode is Mode.PLAY
    return table


def row_of(table: Machine) -> int:
    """The menu's cursor."""
    assert isinstance(table.state.now, Menu), table.state.now
    return table.state.now.row


def kept(effects: list[msg.Effect]) -> list[dict[str, str]]:
    """The prefs each SavePrefs keeps, as the store keeps them."""
    return [e.prefs.as_strings() for e in effects if isinstance(e, msg.SavePrefs)]


def draws(effects: list[msg.Effect]) -> list[msg.Draw]:
    return [e for e in effects if isinstance(e, msg.Draw)]


def of(kind: type, effects: list[msg.Effect]) -> list[Any]:
    return [e for e in effects if isinstance(e, kind)]


def game_where(found: Callable[[Game], bool], seats: tuple[int, ...] = (1, 2),
               seed: int = 1, rules: HouseRules | None = None) -> Game:
    """The first game of random play (from ``seed``) at which ``found`` holds."""
    rng = random.Random(seed)
    for _ in range(400):
        game = Game(seats, seats[0], rules or HouseRules())
        for _ in range(300):
            if found(game):
                return game
            if game.state.pending is Pending.OVER:
                break
            game = game.play(rng.choice(game.state.legal_actions()))
    raise AssertionError("no game found")


def rolled_into(event: type) -> Game:
    """A game whose last action is a roll that caused ``event``."""
    return game_where(lambda g: bool(g.actions) and isinstance(g.actions[-1], Roll)
                      and any(isinstance(e, event) for e in g.events))


def pending(kind: Pending) -> Game:
    """A game waiting on a decision of ``kind`` by the player who just moved (on 4 under
    house rule square_4 = ask)."""
    return game_where(lambda g: g.state.pending is kind and bool(g.actions)
                      and screens.decider(g.state) == screens.mover(g),
                      rules=HouseRules(square_4=Square4.ASK) if kind is Pending.WRECK else None)


FRESH = Game((1, 2), 1)
MOVED = FRESH.play(Roll(3)).play(Roll(4))
MOVER = MOVED.state.to_move or 0  # who rolls next in MOVED


# -- start, title, stop -----------------------------------------------------------


@pytest.mark.parametrize("saved,expected", [("1", 1), ("255", 255), ("77", 77)])
def test_a_saved_brightness_from_1_to_255_is_set_at_start(saved: str, expected: int) -> None:
    table = Machine()
    effects = table(msg.Start(None, (1, 2), prefs=(("contrast", saved),), contrast=200))
    assert of(msg.Contrast, effects) == [msg.Contrast(expected)]
    assert table.state.prefs.contrast == expected


@pytest.mark.parametrize("saved", ["0", "256", "bright", ""])
def test_a_saved_brightness_out_of_range_is_ignored(saved: str) -> None:
    table = Machine()
    effects = table(msg.Start(None, (1, 2), prefs=(("contrast", saved),), contrast=200))
    assert of(msg.Contrast, effects) == []
    assert table.state.prefs.contrast == 200


@pytest.mark.parametrize("asked,saved,expected", [
    (None, "fi", "fi"), (None, "xx", "en"), ("ja", "fi", "ja"), (None, "", "en")])
def test_the_language_is_the_command_lines_then_the_saved_then_the_configs(
        asked: str | None, saved: str, expected: str) -> None:
    table = Machine(lang=asked)
    table(msg.Start(None, (1, 2), prefs=(("language", saved),)))
    assert table.state.prefs.language == expected


def test_before_start_the_table_speaks_the_asked_language_or_the_configs() -> None:
    assert m.initial(Fixed(Config(language="hr"), one_page)).prefs.language == "hr"
    assert m.initial(Fixed(Config(language="hr"), one_page, lang="ja")).prefs.language == "ja"


def test_start_arms_the_screen_saver_and_the_burn_in_shift() -> None:
    effects = Machine()(msg.Start(None, (1, 2)))
    afters = of(msg.After, effects)
    assert msg.After(TimerKind.DIM, T.dim_after) in afters
    assert msg.After(TimerKind.BLANK, T.blank_after) in afters
    assert msg.After(TimerKind.SHIFT, T.shift_every) in afters


def test_the_title_waits_longer_for_each_note_and_says_each_once() -> None:
    table = Machine(fonts_missing=("fonts-noto-cjk",), seeded=True, badge="DEMO")
    effects = table(msg.Start(None, (1, 2), problem="the checksum does not match"))
    w = table.w
    notes = (w("saves_problem", problem="the checksum does not match"),
             w("about_fonts", packages=("fonts-noto-cjk",)), w("seeded_note"))
    assert draws(effects) == [msg.Draw(screens.title_screen(w, False, notes, "DEMO"))]
    assert of(msg.Log, effects) == [msg.Log("warning", "saved game: the checksum does not match")]
    assert msg.After(TimerKind.BOOT, 2.0 + 2.0 * 3) in effects
    table(msg.Pressed(Press.LONG))  # on to setup, and back to the title from the menu's no
    table.press(Press.MENU)
    table.press(Press.MENU)
    assert table.state.mode is Mode.SETUP  # the notes went with the title they were on


def test_saves_a_reboot_empties_are_said_on_the_title_and_again_when_stuck() -> None:
    for stuck in (False, True):
        table = Machine()
        table(msg.Start(None, (1, 2), volatile="tmpfs", stuck=stuck))
        if stuck:
            table(msg.Unstuck())
        note = table.w("saves_vanish", kind="tmpfs")
        assert table.screen == screens.title_screen(table.w, False, (note,)), stuck
        assert TimerKind.BOOT in table.state.armed


def test_a_refused_settings_file_is_said_on_the_title_with_its_line() -> None:
    """The boot partition's settings file was not taken: the title says which line (or
    the whole file), and the table runs with the last good settings."""
    for line, note in ((7, ("settings_line", {"number": 7})), (0, ("settings_file", {}))):
        table = Machine()
        table(msg.Start(None, (1, 2), settings=line))
        said = table.w(note[0], **note[1])
        assert table.screen == screens.title_screen(table.w, False, (said,)), line
    table = Machine()
    table(msg.Start(None, (1, 2)))
    assert table.screen == screens.title_screen(table.w, False, ())


def test_a_game_taken_up_from_the_title_is_said_after_it_is_shown() -> None:
    from firmware.speech.said import Spoken

    table = started(MOVED, voice=True)
    effects = table.press()
    text = Spoken("en").resumed(MOVED)
    assert of(msg.Say, effects) == [msg.Say(text, "en")]
    assert effects.index(msg.Say(text, "en")) > effects.index(draws(effects)[-1])


def test_with_nothing_to_resume_the_title_goes_on_to_setup_by_itself() -> None:
    table = Machine()  # a game with no action yet: nothing to resume
    effects = table(msg.Start(FRESH, (1, 2)))
    assert draws(effects) == [msg.Draw(screens.title_screen(table.w, False))]
    assert msg.After(TimerKind.BOOT, 2.0) in effects
    effects = table.fire(TimerKind.BOOT)
    assert table.state.mode is Mode.SETUP
    assert msg.Light(1, (1, 2)) in effects


def test_a_game_to_resume_keeps_the_title_until_a_press() -> None:
    table = Machine()
    effects = table(msg.Start(MOVED, (1, 2)))
    assert draws(effects) == [msg.Draw(screens.title_screen(table.w, True))]
    assert TimerKind.BOOT not in table.state.armed
    table.press()  # a short press resumes
    assert table.state.mode is Mode.PLAY and table.state.game == MOVED


def test_a_game_that_has_ended_is_not_called_in_progress_on_the_title() -> None:
    """Switched on after a win: the title says the game is over, a short press shows how
    it ended, a long press begins a new one (no question: nothing is in progress)."""
    won = game_where(lambda g: g.state.status is Status.WON)
    table = Machine()
    effects = table(msg.Start(won, (1, 2)))
    assert draws(effects) == [msg.Draw(screens.title_screen(table.w, True, over=True))]
    assert table.screen.body[0] == table.w("title_over") != table.w("title_resume")
    table.press()
    assert table.state.mode is Mode.PLAY and table.screen == screens.result_screen(
        table.w, won)
    table = started(won)
    effects = table.press(Press.LONG)
    assert of(msg.PutAway, effects) == [msg.PutAway(won)] and table.state.mode is Mode.SETUP


def abandon_screen(table: Machine) -> Screen:
    w = table.w
    return Screen(title=w("abandon_title"), body=(w("abandon_what"),), footer=w("keys_yes_no"))


def test_a_long_press_on_the_title_asks_before_abandoning_the_game() -> None:
    table = started(MOVED)
    effects = table.press(Press.LONG)
    assert of(msg.PutAway, effects) == [] and table.state.mode is Mode.ABANDON
    assert draws(effects) == [msg.Draw(abandon_screen(table))]
    effects = table.press()  # no: the title again, the game kept
    assert of(msg.PutAway, effects) == [] and table.state.mode is Mode.TITLE
    assert draws(effects) == [msg.Draw(screens.title_screen(table.w, True))]
    table.press(Press.LONG)
    effects = table.press(Press.LONG)  # yes
    assert of(msg.PutAway, effects) == [msg.PutAway(MOVED)]
    assert table.state.game is None and table.state.mode is Mode.SETUP


def test_a_game_not_begun_or_over_is_put_away_without_asking() -> None:
    won = game_where(lambda g: g.state.status is Status.WON)
    for game in (FRESH, won):
        table = started(game)
        effects = table.press(Press.LONG)
        assert of(msg.PutAway, effects) == [msg.PutAway(game)]
        assert table.state.mode is Mode.SETUP


def test_a_button_down_at_start_waits_to_be_let_go() -> None:
    table = Machine()
    effects = table(msg.Start(None, (1, 2), stuck=True))
    assert table.state.mode is Mode.STUCK
    assert draws(effects) == [msg.Draw(screens.message_screen("ROBINSON",
                                                            table.w("release_button")))]
    assert table(msg.Held(Press.MENU)) == []  # no hint while stuck
    table.press(Press.MENU)
    assert table.state.mode is Mode.STUCK  # nor a menu
    table(msg.Unstuck())
    assert table.state.mode is Mode.TITLE
    assert table(msg.Unstuck()) == []  # let go again: nothing


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


def test_a_timer_not_armed_does_nothing() -> None:
    table = started()
    before = table.state
    assert table.fire(TimerKind.PAGE) == [] and table.state == before


# -- setup ------------------------------------------------------------------------


def test_setup_shows_the_seats_and_lights_the_first() -> None:
    table = started(seats=(2, 4, 5))
    effects = table.fire(TimerKind.BOOT)
    w = table.w
    assert table.state.first == 2
    assert msg.Light(2, (2, 4, 5)) in effects
    assert draws(effects) == [msg.Draw(screens.setup_screen(w, (2, 4, 5), 2, CONFIG.rules, "",
                                                          wired=len(CONFIG.pins.seats)))]


def test_a_short_press_in_setup_passes_first_to_the_next_seat_round() -> None:
    table = started(seats=(2, 4, 5))
    table.fire(TimerKind.BOOT)
    firsts = []
    for _ in range(4):
        effects = table.press()
        firsts.append(table.state.first)
        assert draws(effects)[-1].screen == screens.setup_screen(  # redrawn with the new first
            table.w, (2, 4, 5), table.state.first, CONFIG.rules, "",
            wired=len(CONFIG.pins.seats))
    assert firsts == [4, 5, 2, 4]


def test_a_short_press_in_setup_shows_the_new_starter_on_the_page_it_draws() -> None:
    """Four long names: the players' line runs over two rows; the starter, what a short
    press changes, is on the page the press draws (it was on page 2, and the panel
    seemed not to take the press), and the sheet's youngest is named."""
    from firmware.display.fonts import Fonts
    from firmware.display.paging import pages

    names = '{"1": "Annabella", "2": "Benedikt", "3": "Cecilija", "4": "Dominika"}'
    table = Machine()
    table(msg.Start(None, (1, 2, 3, 4), prefs=(("names", names),)))
    table.fire(TimerKind.BOOT)
    for starter in ("Benedikt", "Cecilija"):
        (draw,) = draws(table.press())
        first = " ".join(pages(draw.screen, Fonts())[draw.page])
        assert table.w("setup_first", name=starter) in first, first
        assert "Youngest" in table.w("setup_first", name=starter)


@pytest.mark.parametrize("seats", [(3, 6), (1, 2, 3, 4, 5, 6, 7, 8)])
def test_a_long_press_in_setup_begins_the_game(seats: tuple[int, ...]) -> None:
    table = started(seats=seats)
    table.fire(TimerKind.BOOT)
    table.press()
    effects = table.press(Press.LONG)
    game = Game(seats, seats[1], CONFIG.rules)
    assert of(msg.BeginGame, effects) == [msg.BeginGame(game)]
    assert table.state.mode is Mode.PLAY and table.state.game == game
    assert msg.Light(seats[1], seats) in effects


@pytest.mark.parametrize("seats", [(), (4,), tuple(range(1, 10))])
def test_setup_without_two_to_eight_seats_waits(seats: tuple[int, ...]) -> None:
    table = started(seats=seats)
    table.fire(TimerKind.BOOT)
    before = table.state
    assert table.press(Press.LONG) == [] and table.press() == []
    assert table.state == before


def test_a_seat_switched_in_setup_redraws_it_and_keeps_a_first_still_there() -> None:
    table = started(seats=(1, 2))
    table.fire(TimerKind.BOOT)
    table.press()  # seat 2 first
    effects = table(msg.SeatsChanged(3, True, (1, 2, 3)))
    assert table.state.first == 2
    assert draws(effects)[-1].screen == screens.setup_screen(
        table.w, (1, 2, 3), 2, CONFIG.rules, "", wired=len(CONFIG.pins.seats))
    table(msg.SeatsChanged(2, False, (1, 3)))
    assert table.state.first == 1  # the first seat went: the lowest seat starts
    table(msg.SeatsChanged(1, False, (3,)))
    table(msg.SeatsChanged(3, False, ()))
    assert table.state.first is None


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


# -- the screen saver -------------------------------------------------------------


def test_the_panel_dims_then_blanks_and_a_press_only_wakes_it() -> None:
    table = playing(MOVED, faces=[5])
    assert table.fire(TimerKind.DIM) == [msg.Dim()] and table.state.panel.saver is Saver.DIM
    assert table.fire(TimerKind.BLANK) == [msg.Blank()]
    assert table.state.panel.saver is Saver.BLANK
    effects = table(msg.Down())
    assert msg.Wake() in effects and table.state.panel.saver is Saver.AWAKE
    assert msg.After(TimerKind.DIM, T.dim_after) in effects
    assert msg.After(TimerKind.BLANK, T.blank_after) in effects
    assert table(msg.Held(Press.LONG)) == []  # no hint either
    effects = table.press()
    assert effects == [] and table.state.game == MOVED  # the panel, awake, shows it again
    table(msg.Down())
    assert of(msg.NeedFace, table.press()) == [msg.NeedFace()]  # the next press rolls


def test_a_seat_switch_wakes_the_panel() -> None:
    table = started()
    table.fire(TimerKind.DIM)
    effects = table(msg.SeatsChanged(3, True, (1, 2, 3)))
    assert msg.Wake() in effects and table.state.panel.saver is Saver.AWAKE
    assert table.state.panel.void is False
    assert msg.After(TimerKind.DIM, T.dim_after) in effects  # and the idle time starts again


def test_the_picture_shifts_against_burn_in_and_again() -> None:
    table = started()
    assert table.fire(TimerKind.SHIFT) == [msg.Shift(), msg.After(TimerKind.SHIFT, T.shift_every)]


# -- pages ------------------------------------------------------------------------


def test_a_long_screen_pages_by_itself() -> None:
    table = started(MOVED, measure=lambda screen: (3, 2))
    effects = table.press()
    assert msg.After(TimerKind.PAGE, T.page) in effects
    effects = table.fire(TimerKind.PAGE)
    assert effects == [msg.Draw(table.screen, 1), msg.After(TimerKind.PAGE, T.page)]
    assert (table.state.panel.page, table.state.panel.seen) == (1, 1)


def test_a_short_screen_arms_no_page_and_a_new_screen_stops_the_old_paging() -> None:
    pages = {"n": 3}
    table = started(MOVED, measure=lambda screen: (pages["n"], 0))
    table.press()
    assert TimerKind.PAGE in table.state.armed
    pages["n"] = 1
    effects = table.press(Press.MENU)
    assert msg.Cancel(TimerKind.PAGE) in effects
    assert TimerKind.PAGE not in table.state.armed


def test_a_quick_press_shows_the_unread_money_pages_before_rolling() -> None:
    table = started(MOVED, measure=lambda screen: (4, 2), faces=[6])
    table.press()  # resumed: page 0 of the result
    effects = table.press()
    assert effects == [msg.Draw(table.screen, 1), msg.After(TimerKind.PAGE, T.page)]
    assert of(msg.NeedFace, table.press()) == []  # page 2
    assert table.state.panel.seen == 2
    assert of(msg.NeedFace, table.press()) == [msg.NeedFace()]  # all read: the roll


# -- playing ----------------------------------------------------------------------


def test_a_roll_tumbles_saves_then_reveals() -> None:
    table = playing(MOVED, faces=[4])
    effects = table.press()
    rolled = MOVED.play(Roll(4))
    frame = screens.rolling_screen(table.w, MOVER, TUMBLE[0], 0)
    assert effects == [msg.NeedFace(), msg.Draw(frame), msg.Chime(Tune.ROLL), msg.Save(rolled),
                       msg.After(TimerKind.FRAME, FRAME)]
    assert table.state.mode is Mode.ANIMATE and table.state.game == rolled
    frames = 1
    while TimerKind.FRAME in table.state.armed:
        assert len(draws(table.fire(TimerKind.FRAME))) == 1
        frames += 1
    assert frames == round(T.animation / FRAME) == 10
    assert TimerKind.REVEAL in table.state.armed
    effects = table.fire(TimerKind.REVEAL)
    assert table.state.mode is Mode.PLAY
    assert msg.Light(rolled.state.to_move, (1, 2)) in effects
    assert draws(effects)[0].screen == screens.result_screen(table.w, rolled)
    assert msg.After(TimerKind.AUDIT, 0.05) in effects  # the books, once the result is out


def test_the_tumbling_die_shows_each_face_once_before_any_again() -> None:
    assert sorted(TUMBLE) == [1, 2, 3, 4, 5, 6]
    table = playing(MOVED, faces=[4])
    table.press()
    shown = [table.screen]
    while TimerKind.FRAME in table.state.armed:
        table.fire(TimerKind.FRAME)
        shown.append(table.screen)
    w = table.w
    assert shown == [screens.rolling_screen(w, MOVER, TUMBLE[n % 6], 0) for n in range(10)]


@pytest.mark.parametrize("timings,animate,frames", [
    (Timings(animation=0.08), True, 1), (Timings(animation=0.2), True, 2),
    (Timings(animation=0.0), True, 0), (Timings(animation=0.8), False, 0)])
def test_how_long_the_die_tumbles(timings: Timings, animate: bool, frames: int) -> None:
    table = playing(MOVED, config=Config(timings=timings), animate=animate, faces=[2])
    animating = table.state
    effects = table.press()
    assert len(draws(effects)) == 1  # the first frame, or the result at once
    frames_drawn = table.state.now.frames if isinstance(table.state.now, Animate) else 0
    assert frames_drawn == frames and animating.mode is Mode.PLAY
    if frames == 0:  # no tumble: the result at once
        assert table.state.mode is Mode.PLAY and draws(effects)[-1].screen == \
            screens.result_screen(table.w, MOVED.play(Roll(2)))
    elif frames == 1:
        assert msg.After(TimerKind.REVEAL, FRAME) in effects
    else:
        assert msg.After(TimerKind.FRAME, FRAME) in effects


def test_presses_while_the_die_tumbles_never_roll_again() -> None:
    table = playing(MOVED, faces=[4, 5])
    table.press()
    assert draws(table(msg.Down(), msg.Held(Press.LONG))) == []  # no hint while it tumbles
    assert draws(table(msg.Held(Press.MENU))) == []
    assert table.press() == []
    table(msg.Down())  # begun during the tumble, let go after it
    while table.state.mode is Mode.ANIMATE:
        table.fire(next(iter(table.state.armed & {TimerKind.FRAME, TimerKind.REVEAL})))
    assert of(msg.NeedFace, table.press()) == []
    assert of(msg.NeedFace, table.press()) == [msg.NeedFace()]


def test_a_face_or_a_recall_not_asked_for_does_nothing() -> None:
    table = playing(MOVED, faces=[4])
    table.press()
    before = table.state
    assert table(msg.Face(6)) == [] and table.state == before  # one roll, one face
    assert table(msg.Recalled(())) == [] and table.state == before


def test_a_long_press_when_a_roll_is_due_does_nothing() -> None:
    table = playing(MOVED, faces=[1])
    assert of(msg.NeedFace, table.press(Press.LONG)) == []
    assert table.state.game == MOVED


@pytest.mark.parametrize("tune,event", [(Tune.PARROT, ev.Parrot), (Tune.DEATH, ev.Eliminated),
                                        (Tune.WIN, ev.Won)])
def test_a_result_plays_its_tune(tune: Tune, event: type) -> None:
    game = rolled_into(event)
    roll = game.actions[-1]
    assert isinstance(roll, Roll)
    table = playing(game.undo(), animate=False, faces=[roll.face])
    effects = table.press()
    tunes = {ev.Parrot: Tune.PARROT, ev.Eliminated: Tune.DEATH, ev.Won: Tune.WIN}
    said = [msg.Chime(tunes[type(e)]) for e in game.events if type(e) in tunes]
    assert msg.Chime(tune) in said
    assert of(msg.Chime, effects) == [msg.Chime(Tune.ROLL), *said]


@pytest.mark.parametrize("kind", [Pending.TREE, Pending.AGAIN, Pending.JUMP, Pending.WRECK])
@pytest.mark.parametrize("press", [Press.SHORT, Press.LONG])
def test_a_decision_takes_the_first_choice_short_and_the_second_long(
        kind: Pending, press: Press) -> None:
    game = pending(kind)
    table = playing(game, animate=False, faces=[3])
    effects = table.press(press)
    choice = CHOICES[kind][0 if press is Press.SHORT else 1]
    saves = of(msg.Save, effects)
    assert saves[0] == msg.Save(game.play(choice))
    if choice in (Choice.ROLL, Choice.AGAIN):  # one press, one roll
        assert saves[1:] == [msg.Save(game.play(choice).play(Roll(3)))]
    else:
        assert len(saves) == 1 and of(msg.NeedFace, effects) == []
        assert draws(effects)[0].screen == screens.result_screen(table.w, game.play(choice))


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


def test_a_long_press_when_a_roll_is_due_shows_the_standings_and_a_press_goes_back() -> None:
    """Everyone's square and chips one press from the game (four deep in the menu before):
    held, the footer says so; let go, the standings; any press, the game again, nothing
    rolled."""
    table = playing(MOVED)
    effects = table(msg.Down(), msg.Held(Press.LONG))
    assert draws(effects)[-1].screen.footer == table.w("let_go_standings")
    effects = table(msg.Pressed(Press.LONG))
    assert table.state.mode is Mode.INFO and of(msg.NeedFace, effects) == []
    assert draws(effects) == [msg.Draw(screens.standings_screen(table.w, MOVED.state))]
    effects = table.press()
    assert table.state.mode is Mode.PLAY and table.state.game == MOVED
    assert of(msg.NeedFace, effects) == [] and of(msg.Save, effects) == []
    assert draws(effects)[-1].screen == screens.result_screen(table.w, MOVED)


def test_another_players_decision_is_shown_first_then_taken() -> None:
    game = game_where(lambda g: (who := screens.decider(g.state)) is not None
                      and who != screens.mover(g) and bool(g.actions))
    table = playing(game, animate=False, faces=[3])
    assert table.state.ask_next
    assert draws(table(msg.Down(), msg.Held(Press.LONG))) == []  # their choice is not shown yet
    effects = table.press(Press.LONG)
    assert of(msg.Save, effects) == []
    assert draws(effects)[-1].screen == screens.turn_screen(table.w, game.state)
    assert not table.state.ask_next
    assert of(msg.Save, table.press(Press.LONG))[0] == msg.Save(
        game.play(CHOICES[game.state.pending][1]))


def test_after_a_win_a_long_press_sets_up_a_new_game_with_the_seats_switched_now() -> None:
    won = game_where(lambda g: g.state.status is Status.WON)
    table = playing(won)
    assert table.press() == []  # a short press: nothing
    table(msg.SeatsChanged(3, True, (1, 2, 3)))
    table.fire(TimerKind.FLASH)
    effects = table.press(Press.LONG)
    assert of(msg.PutAway, effects) == [msg.PutAway(won)]
    assert table.state.mode is Mode.SETUP and table.state.game is None
    assert draws(effects)[-1].screen == screens.setup_screen(
        table.w, (1, 2, 3), table.state.first, CONFIG.rules, "", wired=len(CONFIG.pins.seats))


def test_a_write_refused_while_the_die_tumbles_is_said_after_the_result_then_the_result_again(
        ) -> None:
    """Issue 37's first defect: the note was painted over by the next tumbling frame, and
    6 s after the result the panel went back to 'Player 1 rolls…'."""
    table = playing(MOVED, faces=[3])
    table.disk_ok = False
    effects = table.press()
    rolled = MOVED.play(Roll(3))
    assert table.state.game == rolled  # the game goes on in memory
    assert msg.Log("error", "cannot save the game: disk full") in effects
    assert TimerKind.SAVE_FAILED not in table.state.armed  # not over the tumbling die
    notice = screens.message_screen(table.w("notice"),
                                    table.w("save_failed", reason=table.w("fault_disk_full")))
    while TimerKind.FRAME in table.state.armed:
        assert notice not in [d.screen for d in draws(table.fire(TimerKind.FRAME))]
    result = unsaved(table, screens.result_screen(table.w, rolled))
    effects = table.fire(TimerKind.REVEAL)
    assert draws(effects) == [msg.Draw(result)]  # the result first, said as not saved
    assert msg.After(TimerKind.SAVE_FAILED, 0.0) in effects
    effects = table.fire(TimerKind.SAVE_FAILED)
    assert draws(effects) == [msg.Draw(notice)] and msg.After(TimerKind.FLASH, 6.0) in effects
    assert table.state.armed.isdisjoint({TimerKind.FRAME, TimerKind.REVEAL, TimerKind.PAGE})
    effects = table.fire(TimerKind.FLASH)  # its whole time, then the result again
    assert draws(effects) == [msg.Draw(result)] and table.state.mode is Mode.PLAY


def test_a_refused_write_is_said_once_not_again_after_the_next_roll() -> None:
    table = playing(MOVED, faces=[3, 4])
    table.disk_ok = False
    table.press()
    while TimerKind.FRAME in table.state.armed:
        table.fire(TimerKind.FRAME)
    table.fire(TimerKind.REVEAL)
    table.fire(TimerKind.SAVE_FAILED)  # said
    table.fire(TimerKind.FLASH)
    table.disk_ok = True
    table.press()  # this one reaches the disk
    while TimerKind.FRAME in table.state.armed:
        table.fire(TimerKind.FRAME)
    table.fire(TimerKind.REVEAL)
    assert TimerKind.SAVE_FAILED not in table.state.armed and table.state.writes.unsaid is None


def test_a_write_refused_with_no_tumble_is_said_once_the_result_is_out() -> None:
    table = playing(MOVED, animate=False, faces=[3])
    table.disk_ok = False
    effects = table.press()
    result = screens.result_screen(table.w, MOVED.play(Roll(3)))
    assert draws(effects) == [msg.Draw(result), msg.Draw(unsaved(table, result))]
    assert msg.After(TimerKind.SAVE_FAILED, 0.0) in effects
    effects = table.fire(TimerKind.SAVE_FAILED)
    assert draws(effects) == [msg.Draw(screens.message_screen(
        table.w("notice"), table.w("save_failed", reason=table.w("fault_disk_full"))))]
    assert draws(table.fire(TimerKind.FLASH)) == [msg.Draw(unsaved(table, result))]


def unsaved(table: Machine, screen: Screen) -> Screen:
    """``screen`` with the badge that says the game is not on disk."""
    return dataclasses.replace(screen, badge=table.w("unsaved_badge"))


def writes(effects: list[msg.Effect]) -> list[msg.Effect]:
    return [e for e in effects if isinstance(e, msg.WRITES)]


def test_a_refused_write_is_tried_again_until_it_passes_the_badge_saying_so() -> None:
    """Issue 39: a refused save was tried again only when a new action came. Now every
    RETRY_EVERY seconds, said once; the badge stands until it passes."""
    table = playing(MOVED, animate=False, faces=[3, 4])
    table.disk_ok = False
    table.press()
    rolled = MOVED.play(Roll(3))
    queue = table.state.writes
    assert queue.unsaved == (msg.Save(rolled),) and queue.failing is Fault.DISK_FULL
    assert TimerKind.RETRY in table.state.armed
    table.fire(TimerKind.SAVE_FAILED)
    table.fire(TimerKind.FLASH)
    effects = table.fire(TimerKind.RETRY)  # still full: tried, not said again
    assert writes(effects) == [msg.Save(rolled)]
    assert not [e for e in effects if isinstance(e, msg.Log)]
    assert msg.After(TimerKind.RETRY, m.RETRY_EVERY) in effects
    assert table.screen.badge == table.w("unsaved_badge")
    table.disk_ok = True
    effects = table.fire(TimerKind.RETRY)
    assert writes(effects) == [msg.Save(rolled)] and table.state.writes.unsaved == ()
    assert msg.Log("info", "saving again: the game is on disk") in effects
    assert table.screen.badge == "" and TimerKind.RETRY not in table.state.armed
    assert draws(effects) == [msg.Draw(screens.result_screen(table.w, rolled))]
    effects = table.press()
    assert writes(effects) == [msg.Save(rolled.play(Roll(4)))]


def test_what_is_played_while_the_disk_refuses_goes_as_one_change_after_it() -> None:
    """The rolls while the disk refuses wait, joined into one save of the game as it
    stands: nothing is written while the first is refused, then the whole at once."""
    table = playing(MOVED, animate=False, faces=[3, 4, 5])
    table.disk_ok = False
    first = writes(table.press())
    assert writes(table.press()) == [] and writes(table.press()) == []
    game = MOVED.play(Roll(3)).play(Roll(4)).play(Roll(5))
    assert first == [msg.Save(MOVED.play(Roll(3)))]
    assert table.state.writes.unsaved == (msg.Save(game),)
    assert table.state.writes.behind == 3
    table.disk_ok = True
    assert writes(table.fire(TimerKind.RETRY)) == [msg.Save(game)]
    assert not table.state.writes.unsaved


def test_a_game_put_away_while_the_disk_refuses_is_put_away_before_the_next_is_saved() -> None:
    """Put away (refused), a new game begun and rolled: one change puts the old game
    away with all it had and the new one in play; never the new game over the old."""
    table = playing(MOVED, animate=False, faces=[2])
    table.disk_ok = False
    menu_at(table, Row.NEW)
    table.press(Press.LONG)  # yes: put away
    assert table.state.writes.unsaved == (msg.PutAway(MOVED),)
    assert table.state.writes.behind == 1  # no action, but the disk would resume MOVED
    table.press(Press.LONG)  # setup: begin
    new = table.state.game
    assert new is not None and table.state.writes.unsaved == (msg.PutAway(MOVED, new),)
    table.press()
    assert table.state.writes.unsaved == (msg.PutAway(MOVED, new.play(Roll(2))),)
    table.disk_ok = True
    assert writes(table.fire(TimerKind.RETRY)) == [msg.PutAway(MOVED, new.play(Roll(2)))]


def test_a_game_begun_that_the_disk_refused_counts_as_unsaved_until_it_is_rolled() -> None:
    """Nothing rolled yet, but the disk holds no game: the stop would say 0 unsaved."""
    table = started(None, (1, 2))
    table.fire(TimerKind.BOOT)  # on to setup
    table.disk_ok = False
    table.press(Press.LONG)  # begin
    new = table.state.game
    assert new is not None and table.state.writes.unsaved == (msg.BeginGame(new),)
    assert table.state.writes.behind == 1


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


def test_switched_off_with_a_refused_save_it_is_tried_once_more_and_the_frame_says() -> None:
    """Issue 39: "Switched off · game saved" was the last frame when it was not."""
    for disk_ok in (False, True):
        table = playing(MOVED, animate=False, faces=[3, 4])
        table.disk_ok = False
        table.press()
        table.press()
        table.disk_ok = disk_ok  # a fault that lasts, or one that ended just before the stop
        effects = table(msg.Stop())
        game = MOVED.play(Roll(3)).play(Roll(4))
        assert writes(effects) == [msg.Save(game)], disk_ok
        body = table.screen.body
        if disk_ok:
            assert body == (table.w("switched_off"),) and not table.state.writes.unsaved
        else:
            assert body == (table.w("switched_off_unsaved", count=2,
                                    reason=table.w("fault_disk_full")),)
            assert msg.Log("error", "switched off, shown actions not on disk: 2 (cannot save "
                                  "the game: disk full)") in effects
        assert TimerKind.RETRY not in table.state.armed


def test_a_failed_audit_is_said_and_stops_the_rolls(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's own check is made to fail here (it never does in play)."""
    monkeypatch.setattr(Game, "audit", lambda self: "the pot is off by 1")
    table = started(MOVED, faces=[2])
    effects = table.press()  # resumed: the books are checked first
    assert msg.Log("error", "audit failed: the pot is off by 1") in effects
    assert draws(effects)[-1] == msg.Draw(screens.message_screen(
        table.w("notice"), table.w("audit_failed", detail="the pot is off by 1")))
    assert msg.After(TimerKind.FLASH, 10.0) in effects
    table.press()  # the result under the message, never on the panel yet
    effects = table.press()  # the same problem: not logged again, and no roll
    assert of(msg.Log, effects) == [] and of(msg.NeedFace, effects) == []
    assert msg.After(TimerKind.FLASH, 4.0) in effects


def test_books_that_balance_again_are_said_no_more(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Game, "audit", lambda self: "chips lost")
    table = started(MOVED, faces=[2], animate=False)
    table.press()
    monkeypatch.setattr(Game, "audit", lambda self: None)  # mended by an undo:
    table.fire(TimerKind.FLASH)
    menu_at(table, Row.UNDO)
    effects = table.press(Press.LONG)
    assert [log.level for log in of(msg.Log, effects)] == ["info"]  # "undone", no audit line
    assert table.state.audit is None


def test_an_audit_due_after_the_game_was_put_away_does_nothing() -> None:
    table = playing(MOVED, animate=False, faces=[2])
    table.press()
    assert TimerKind.AUDIT in table.state.armed
    menu_at(table, Row.NEW)
    table.press(Press.LONG)  # yes: put away, on to setup
    assert table.state.game is None
    assert table.fire(TimerKind.AUDIT) == [] and table.state.mode is Mode.SETUP


def test_the_audit_due_after_a_result_runs_before_the_next_roll(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = playing(MOVED, animate=False, faces=[2, 3])
    table.press()
    assert TimerKind.AUDIT in table.state.armed
    monkeypatch.setattr(Game, "audit", lambda self: "chips lost")
    effects = table.press()
    assert msg.Cancel(TimerKind.AUDIT) in effects and of(msg.NeedFace, effects) == []
    assert table.state.audit == "chips lost"


# -- the menu ---------------------------------------------------------------------


def to_row(table: Machine, row: Row) -> None:
    """The menu opened and its cursor moved to ``row``."""
    table.press(Press.MENU)
    for _ in range(MENU.index(row)):
        table.press()


def menu_at(table: Machine, row: Row) -> list[msg.Effect]:
    to_row(table, row)
    return table.press(Press.LONG)


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


@dataclasses.dataclass(frozen=True)
class Old:
    ended: str = "abandoned"
    finished_at: datetime.datetime | None = None
    winner: int | None = None


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


def test_undo_asks_first_and_a_long_press_takes_the_action_back() -> None:
    table = playing(MOVED)
    effects = menu_at(table, Row.UNDO)
    w = table.w
    what = screens.action_said(w, MOVED.events)
    assert table.state.mode is Mode.UNDO and of(msg.Save, effects) == []
    assert draws(effects) == [msg.Draw(Screen(title=w("undo_title"),
                                            body=(w("undo_what", what=what),),
                                            footer=w("keys_yes_no")))]
    effects = table.press(Press.LONG)
    assert of(msg.Save, effects) == [msg.Save(MOVED.undo())]
    assert msg.Log("info", f"undone: {what}") in effects
    assert table.state.game == MOVED.undo() and table.state.mode is Mode.PLAY
    undone = screens.message_screen(w("notice"), w("undone", what=what))
    assert draws(effects)[-1] == msg.Draw(undone)
    assert msg.After(TimerKind.FLASH, 3.0) in effects


def test_a_press_over_a_message_over_the_undo_question_answers_nothing() -> None:
    """A refused save's message (the retry's timer) over the undo question: the long press
    that ends it must not take the action back: the question was not on the panel. Found
    by the property "undo asked first" (tests/table/test_machine.py)."""
    table = playing(MOVED, animate=False, faces=[6])
    table.disk_ok = False
    table.press()  # rolls a 6; its save refused
    menu_at(table, Row.UNDO)
    assert table.state.mode is Mode.UNDO
    table.fire(TimerKind.SAVE_FAILED)  # the retry's message, over the question
    assert table.state.panel.flash is not None and table.state.panel.flash.key == "save_failed"
    game = table.state.game
    effects = table.press(Press.LONG)
    assert table.state.panel.flash is None and table.state.mode is Mode.UNDO  # the question again
    assert table.state.game == game and of(msg.Save, effects) == []


def test_a_roll_taken_back_comes_again_with_the_same_face() -> None:
    table = playing(MOVED, animate=False, faces=[6, 2])
    table.press()  # rolls a 6
    menu_at(table, Row.UNDO)
    effects = table.press(Press.LONG)
    assert table.state.prefs.owed == Owed().owe(MOVED, 6)
    assert kept(effects) == [{"language": "en", "contrast": "255", **VOICE_OFF, "names": "{}",
                              "owed": Owed().owe(MOVED, 6).as_string(), "phones": ""}]
    table.fire(TimerKind.FLASH)
    effects = table.press()
    assert of(msg.NeedFace, effects) == []  # the die is not asked: the 6 stands
    assert table.state.game == MOVED.play(Roll(6)) and table.state.prefs.owed == Owed()
    assert kept(effects)[-1]["owed"] == ""
    assert of(msg.NeedFace, table.press()) == [msg.NeedFace()]  # the next roll is the die's


def test_rolls_taken_back_come_again_in_their_order() -> None:
    table = playing(MOVED, animate=False, faces=[1, 4])
    table.press()
    table.press()
    for _ in range(2):
        menu_at(table, Row.UNDO)
        effects = table.press(Press.LONG)
    owed = Owed().owe(MOVED.play(Roll(1)), 4).owe(MOVED, 1)  # each to where it was rolled
    assert table.state.prefs.owed == owed and table.state.game == MOVED
    assert kept(effects)[-1]["owed"] == owed.as_string()
    table.fire(TimerKind.FLASH)  # "undone" said its piece: the result under it is out
    for still in (Owed().owe(MOVED.play(Roll(1)), 4).as_string(), ""):  # each roll says once
        assert [k["owed"] for k in kept(table.press())] == [still]
    assert table.state.game == MOVED.play(Roll(1)).play(Roll(4))


def test_a_face_owed_to_a_choices_roll_stays_owed_over_a_restart() -> None:
    """A choice to roll and its roll taken back, then the plug pulled: the same choice
    again rolls the same face. The other choice rolls nothing, and leaves the face owed
    to the position it was rolled from."""
    game = game_where(lambda g: len(g.actions) >= 2 and isinstance(g.actions[-1], Roll)
                      and g.actions[-2] in (Choice.ROLL, Choice.AGAIN)
                      and screens.decider(g.undo().undo().state) == screens.mover(g.undo().undo()))
    roll, choice = game.actions[-1], game.actions[-2]
    assert isinstance(roll, Roll)
    table = playing(game, animate=False)
    for _ in range(2):  # the roll, then the choice
        menu_at(table, Row.UNDO)
        effects = table.press(Press.LONG)
        table.fire(TimerKind.FLASH)
    assert table.state.prefs.owed == Owed().owe(game.undo(), roll.face)
    assert table.state.game == game.undo().undo()
    prefs = table.state.prefs.as_strings()  # as the undo of the roll kept them
    assert kept(effects) == [] or kept(effects)[-1] == prefs
    for press, rolled in ((Press.SHORT, True), (Press.LONG, False)):
        restarted = Machine(animate=False)
        restarted(msg.Start(game.undo().undo(), game.seats, prefs=tuple(prefs.items())))
        restarted.press()  # resume
        assert restarted.state.prefs.owed.face(game.undo()) == roll.face
        effects = restarted.press(press)
        assert of(msg.NeedFace, effects) == []
        if rolled:  # the same choice: the same face
            assert CHOICES[game.undo().undo().state.pending][0] == choice
            assert restarted.state.game == game and restarted.state.prefs.owed == Owed()
        else:
            assert restarted.state.prefs.owed == Owed().owe(game.undo(), roll.face)


@pytest.mark.parametrize("saved,face", [
    (Owed().owe(MOVED, 6).as_string(), 6),
    (Owed().owe(FRESH, 2).owe(MOVED, 5).as_string(), 5),
    (Owed().owe(FRESH, 2).as_string(), None),  # owed to another position
    ("2:6 3", None),  # an older table's faces by the game's length: let go
    (Owed().owe(MOVED, 6).as_string().replace(":6", ":7"), None),
    ("x:6", None), ("", None)])
def test_faces_owed_are_kept_over_a_restart_for_their_position_only(
        saved: str, face: int | None) -> None:
    table = Machine()
    table(msg.Start(MOVED, (1, 2), prefs=(("owed", saved),)))
    assert table.state.prefs.owed.face(MOVED) == face


def test_undo_answered_no_goes_back_to_the_menu() -> None:
    table = playing(MOVED)
    menu_at(table, Row.UNDO)
    effects = table.press()
    assert of(msg.Save, effects) == [] and table.state.mode is Mode.MENU
    assert table.state.game == MOVED


def test_a_game_handed_over_on_the_title_stays_in_play() -> None:
    table = started()  # the title, on its way to setup
    effects = table(msg.Begin(FRESH))
    assert msg.Cancel(TimerKind.BOOT) in effects
    assert of(msg.BeginGame, effects) == [msg.BeginGame(FRESH)]
    assert TimerKind.BOOT not in table.state.armed and table.state.mode is Mode.PLAY


def test_undo_with_nothing_done_says_so() -> None:
    table = started()
    table(msg.Begin(FRESH))
    effects = menu_at(table, Row.UNDO)
    assert table.state.mode is Mode.MENU
    assert draws(effects) == [msg.Draw(screens.message_screen(table.w("notice"),
                                                            table.w("nothing_to_undo")))]
    assert msg.After(TimerKind.FLASH, 2.0) in effects


# -- words ------------------------------------------------------------------------


def test_the_seats_names_come_from_the_config() -> None:
    table = Machine(config=Config(seat_names=("Ana", "", "Ivo")))
    w = words(table.state)
    assert (w.name(1), w.name(3)) == ("Ana", "Ivo")
    assert w.name(2) == words(Machine().state).name(2)


# -- found unguarded by mutation testing of the old table (issue 26) -------------------


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


@pytest.mark.parametrize("seats", [(1, 2), tuple(range(1, 9))])
def test_two_to_eight_seats_start_and_the_starter_shown_is_the_one_used(
        seats: tuple[int, ...]) -> None:
    table = started(seats=seats)
    table.fire(TimerKind.BOOT)
    for presses in range(len(seats) + 1):  # round the seats, and round again to the first
        expected = seats[presses % len(seats)]
        assert table.screen == screens.setup_screen(
            table.w, seats, expected, CONFIG.rules, "", wired=len(CONFIG.pins.seats))
        if presses < len(seats):
            table.press()
    effects = table.press(Press.LONG)
    assert of(msg.BeginGame, effects) == [msg.BeginGame(Game(seats, seats[0], CONFIG.rules))]


@pytest.mark.parametrize("choice", ["short", "long"])
def test_a_decision_is_saved_before_it_is_shown(choice: str) -> None:
    """Issue 26: only rolls had a save-before-show test; a stay or a pass is an action too."""
    game = pending(Pending.AGAIN)
    table = playing(game, faces=[3], animate=False)  # "again" rolls at once
    effects = table.press(Press.LONG if choice == "long" else Press.SHORT)
    saves = [n for n, e in enumerate(effects) if isinstance(e, msg.Save)]
    shown = [n for n, e in enumerate(effects) if isinstance(e, msg.Draw)]
    assert saves and shown and saves[0] < shown[0]
    assert of(msg.Save, effects)[0].game.actions[len(game.actions)] in CHOICES[Pending.AGAIN]


def test_menu_back_from_setup_stays_in_setup() -> None:
    """Issue 26: Menu -> Back during setup crashed the old table."""
    table = started(seats=(1, 2, 3))
    table.fire(TimerKind.BOOT)
    assert table.state.mode is Mode.SETUP
    before = table.screen
    menu_at(table, Row.BACK)
    assert table.state.mode is Mode.SETUP and table.screen == before


def test_a_game_at_the_most_a_save_holds_takes_no_more_actions() -> None:
    """Two players who stay on 7 for ever: at MAX_ACTIONS the press is refused and said,
    for one more action would make a save no table reads back."""
    from robinson_core.game import MAX_ACTIONS

    long = Game((1, 2)).play(Roll(6)).play(Roll(6)).play(Roll(1)).play(Roll(1))
    stay = next(c for c in CHOICES[long.state.pending] if c.token == "stay")
    while len(long.actions) < MAX_ACTIONS:
        long = long.play(stay)
    table = playing(long, faces=[3])
    if table.state.ask_next:
        table.press(Press.LONG)  # the decider's own screen first
    effects = table.press(Press.LONG)  # "stay" once more
    assert table.state.game == long
    assert draws(effects)[-1] == msg.Draw(screens.message_screen(
        table.w("notice"), table.w("too_long", limit=f"{MAX_ACTIONS:,}")))
    table = playing(long.undo(), faces=[3])
    if table.state.ask_next:
        table.press(Press.LONG)
    table.press(Press.LONG)  # one short of it: taken
    assert table.state.game == long


def test_a_fault_at_start_is_said_on_the_title_and_the_game_plays_on() -> None:
    table = Machine(faces=[3])
    effects = table(msg.Start(MOVED, MOVED.seats, fault=Fault.DISK_FULL))
    said = table.w("save_failed", reason=table.w("fault_disk_full"))
    assert said in " ".join(draws(effects)[-1].screen.body)
    table.press()
    assert table.state.mode is Mode.PLAY and table.state.game == MOVED
    assert table.screen.badge == table.w("unsaved_badge")  # from the first screen on
    table.disk_ok = False
    effects = table.press()  # refused as at start: said on the title, not again
    assert table.state.writes.unsaved and not [e for e in effects if isinstance(e, msg.Log)]
    assert TimerKind.RETRY in table.state.armed and TimerKind.SAVE_FAILED not in table.state.armed


# -- every mode redraws ------------------------------------------------------------


def _in_every_mode() -> Iterable[tuple[str, Machine]]:
    """A table brought into each mode (and under a message), by presses alone."""
    stuck = Machine()
    stuck(msg.Start(MOVED, (1, 2), stuck=True))
    yield "stuck", stuck
    yield "title", started(MOVED)
    setup = started()
    setup.fire(TimerKind.BOOT)
    yield "setup", setup
    yield "play: the result", playing(MOVED)
    decider = playing(game_where(lambda g: (who := screens.decider(g.state)) is not None
                                 and who != screens.mover(g) and bool(g.actions)))
    decider.press()
    yield "play: whose turn", decider
    rolling = playing(MOVED, faces=[4])
    rolling.press()
    yield "animate", rolling
    menu = playing(MOVED)
    menu.press(Press.MENU)
    yield "menu", menu
    for row in (Row.UNDO, Row.NEW, Row.STANDINGS, Row.ABOUT, Row.RECALL):
        table = playing(MOVED)
        menu_at(table, row)
        if row is Row.RECALL:
            table(msg.Recalled((Old(),)))
        yield f"menu: {row.name}", table
    flashed = playing(MOVED)
    flashed(msg.SeatsChanged(3, True, (1, 2, 3)))
    yield "a message over play", flashed
    off = playing(MOVED)
    off(msg.Stop())
    yield "off", off


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


# -- the voice: each moment says its sentence, after its screen --------------------------


def said(effects: list[msg.Effect]) -> list[str]:
    return [e.text for e in of(msg.Say, effects)]


@pytest.mark.parametrize("seats", [(1, 2), (1, 2, 3, 4, 5, 6, 7, 8)])
def test_setup_says_who_plays_and_who_starts_and_again_for_each_new_starter(
        seats: tuple[int, ...]) -> None:
    from firmware.speech.said import Spoken

    table = started(seats=seats, voice=True)
    effects = table.fire(TimerKind.BOOT)
    assert said(effects) == [Spoken("en").setup(seats, seats[0], True)]
    effects = table.press()  # the next seat starts: said, and its light
    assert said(effects) == [Spoken("en").setup(seats, seats[1], True)]
    assert msg.Light(seats[1], seats) in effects
    effects = table.press(Press.LONG)
    assert said(effects) == [Spoken("en").begun(Game(seats, seats[1], CONFIG.rules))]


def test_a_result_is_said_after_the_die_hushed_what_was_being_said() -> None:
    from firmware.speech.said import Spoken

    table = playing(MOVED, voice=True, faces=[5])
    effects = table.press()
    assert of(msg.Hush, effects) == [msg.Hush()] and said(effects) == []
    while table.state.mode is Mode.ANIMATE:
        effects += table.fire(TimerKind.FRAME if TimerKind.FRAME in table.state.armed
                              else TimerKind.REVEAL)
    game = MOVED.play(Roll(5))
    assert table.state.game == game
    assert said(effects) == [Spoken("en").result(game)]


def test_the_menus_voice_row_hushes_when_turned_off_and_says_so_when_turned_on() -> None:
    from firmware.speech.said import Spoken

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
    from firmware.speech.said import Spoken

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


def test_a_game_brought_back_and_an_undo_are_said() -> None:
    from firmware.speech.said import Spoken

    table = started(voice=True)
    menu_at(table, Row.BRING_BACK)
    assert said(table(msg.Brought(MOVED))) == [Spoken("en").resumed(MOVED)]
    table.fire(TimerKind.FLASH)
    menu_at(table, Row.UNDO)
    effects = table.press(Press.LONG)
    assert table.state.game == MOVED.undo()
    assert said(effects) == [Spoken("en").turn(MOVED.undo().state)]


# -- a new screen opens at its first page --------------------------------------------------


def turned(table: Machine) -> None:
    """The screen shown turned to its second page, and that page seen (the new screen
    must then be at its first page, only that one seen: page 0, seen 0)."""
    table.state = dataclasses.replace(
        table.state, panel=dataclasses.replace(table.state.panel, page=1, seen=1))


def test_each_new_screen_opens_at_its_first_page_none_of_it_seen() -> None:
    """Every way to a new screen begins it again at page 1: setup, the press that rolls,
    the next decider's screen, each tumbling frame, the standings, the recall, the undo's
    question."""
    opened = []

    def setup() -> Machine:
        table = started(seats=(1, 2))
        turned(table)
        table.fire(TimerKind.BOOT)
        return table

    def roll() -> Machine:
        table = playing(MOVED, faces=[5])
        turned(table)
        table.press()
        return table

    def turn() -> Machine:  # another player decides: their screen first
        game = game_where(lambda g: g.state.pending not in (Pending.ROLL, Pending.OVER)
                          and bool(g.actions) and screens.decider(g.state) != screens.mover(g))
        table = playing(game)
        assert table.state.ask_next
        turned(table)
        table.press()
        return table

    def frame() -> Machine:
        table = playing(MOVED, faces=[5])
        table.press()
        assert TimerKind.FRAME in table.state.armed
        turned(table)
        table.fire(TimerKind.FRAME)
        return table

    def standings() -> Machine:
        table = playing(MOVED)
        to_row(table, Row.STANDINGS)
        turned(table)
        table.press(Press.LONG)
        return table

    def recall() -> Machine:
        table = playing(MOVED)
        menu_at(table, Row.RECALL)
        turned(table)
        table(msg.Recalled(()))
        return table

    def undo() -> Machine:
        table = playing(MOVED)
        to_row(table, Row.UNDO)
        turned(table)
        table.press(Press.LONG)
        return table

    for make in (setup, roll, turn, frame, standings, recall, undo):
        table = make()
        panel = table.state.panel
        opened.append((make.__name__, table.state.mode, panel.page, panel.seen))
    assert [(name, page, seen) for name, _, page, seen in opened] == [
        (name, 0, 0) for name in ("setup", "roll", "turn", "frame", "standings", "recall",
                                  "undo")]
    assert [mode for _, mode, _, _ in opened] == [
        Mode.SETUP, Mode.ANIMATE, Mode.PLAY, Mode.ANIMATE, Mode.INFO, Mode.INFO,
        Mode.UNDO]


def test_a_face_owed_follows_its_position_through_a_new_game_and_a_bring_back() -> None:
    """Undo, then a new game (or another game brought back), then the game brought back:
    its next roll shows the face taken back, never a new throw. A game begun anew at the
    very position owes it too; another position owes nothing."""
    for way in ("new", "bring back"):
        table = playing(MOVED, animate=False, faces=[4, 2, 6])
        table.press()  # rolls a 4
        menu_at(table, Row.UNDO)
        table.press(Press.LONG)
        table.fire(TimerKind.FLASH)
        assert table.state.prefs.owed == Owed().owe(MOVED, 4), way
        if way == "new":
            menu_at(table, Row.NEW)  # the question: a long press puts this game away
            effects = table.press(Press.LONG)
            assert table.state.mode is Mode.SETUP and of(msg.PutAway, effects), way
        else:
            menu_at(table, Row.BRING_BACK)
            table(msg.Brought(FRESH.play(Roll(2))))
            assert table.state.mode is Mode.PLAY
            table.fire(TimerKind.FLASH)
            effects = table.press()  # another position: the die's own throw
            assert of(msg.NeedFace, effects) == [msg.NeedFace()], way
        assert table.state.prefs.owed == Owed().owe(MOVED, 4), way
        table.fire(TimerKind.FLASH)
        menu_at(table, Row.BRING_BACK)
        table(msg.Brought(MOVED))
        table.fire(TimerKind.FLASH)
        effects = table.press()
        assert of(msg.NeedFace, effects) == [] and table.state.game == MOVED.play(Roll(4)), way
        assert table.state.prefs.owed == Owed(), way


def test_a_refused_write_without_a_kind_is_logged_as_an_io_error() -> None:
    table = playing(MOVED, animate=False, faces=[3])
    table.disk_ok, table.refusal = False, None
    effects = table.press()
    assert msg.Log("error", "cannot save the game: I/O error") in effects


def test_an_answer_to_no_write_changes_nothing() -> None:
    table = playing(MOVED)
    before = table.state
    assert table(msg.Wrote(False, Fault.DISK_FULL)) == [] and table.state == before


def test_about_opens_without_a_game_the_standings_do_not() -> None:
    table = started()
    table.fire(TimerKind.BOOT)
    assert table.state.game is None
    menu_at(table, Row.ABOUT)
    assert table.state.mode is Mode.INFO


def test_a_message_stops_the_pages_turning_under_it_and_they_turn_again_after() -> None:
    table = playing(MOVED, measure=lambda screen: (2, 1))
    assert TimerKind.PAGE in table.state.armed  # a result of two pages turns them
    table.state = dataclasses.replace(  # a write refused
        table.state, writes=dataclasses.replace(table.state.writes, unsaid=Fault.DISK_FULL),
        armed=table.state.armed | {TimerKind.SAVE_FAILED})
    table.fire(TimerKind.SAVE_FAILED)
    assert table.state.panel.flash is not None and TimerKind.PAGE not in table.state.armed
    table.fire(TimerKind.FLASH)
    assert table.state.panel.flash is None and table.state.panel.page == 0
    assert TimerKind.PAGE in table.state.armed


def test_a_choice_without_a_roll_is_shown_lit_and_said_as_a_result() -> None:
    """"Pass" on 20 moves nothing: its result is the screen, the next player's light and
    what the voice says, as after a roll."""
    from firmware.speech.said import Spoken

    game = pending(Pending.AGAIN)
    table = playing(game, voice=True)
    assert not table.state.ask_next  # the mover decides: the press answers at once
    effects = table.press(Press.LONG)
    after = game.play(Choice.PASS)
    assert table.state.game == after
    assert msg.Light(after.state.to_move, after.seats) in effects
    assert said(effects) == [Spoken("en").result(after)]


# -- a decision's odds ---------------------------------------------------------------

ODDS_ON = Config(table=TableOptions(odds=True))


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


def test_the_menus_repeat_shows_the_last_result_from_page_one_and_says_it_again() -> None:
    from firmware.speech.said import Spoken

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
    assert volumes == [70, 40, 100] and speeds == [200, 140, 170]
    # Kept, and in force at the next start: the speaker is told before anything is said.
    again = Machine()
    effects = again(msg.Start(MOVED, MOVED.seats,
                            prefs=tuple(Prefs(volume=40, speed=200).as_strings().items())))
    assert of(msg.Voicing, effects) == [msg.Voicing(40, 200)]
    assert again.state.prefs.volume == 40 and again.state.prefs.speed == 200
    assert of(msg.Voicing, Machine()(msg.Start(MOVED, MOVED.seats))) == []  # the config's own
    labels = menu_labels(again.state)
    assert labels[MENU.index(Row.VOLUME)] == again.w("menu_volume", level="40 %")
    assert labels[MENU.index(Row.SPEED)] == again.w("menu_speed", level=again.w("speed_fast"))


def test_a_kept_volume_or_speed_out_of_what_the_config_allows_is_the_configs() -> None:
    defaults = Prefs(volume=70, speed=140)
    edges = {"volume": "10", "speed": "300"}
    assert Prefs.from_strings(edges, defaults)[0] == defaults.but(volume=10, speed=300)
    for volume, speed in (("9", "79"), ("101", "301"), ("loud", ""), ("-5", "1e3")):
        kept, _ = Prefs.from_strings({"volume": volume, "speed": speed}, defaults)
        assert (kept.volume, kept.speed) == (70, 140), (volume, speed)


PHONE_A, PHONE_B, PHONE_C = "a" * 64, "b" * 64, "c" * 64


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
    later(msg.Start(MOVED, MOVED.seats, prefs=(("phones", PHONE_A),)))
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


def three_phones() -> Machine:
    """A game in play with phones A, B and C paired, in that order, on days 20000-20002."""
    table = playing(MOVED)
    table(msg.Address("http://robinson.local/"))
    for day, (phone, kind) in enumerate(((PHONE_A, "Chrome/Android"), (PHONE_B, "Safari/iPhone"),
                                         (PHONE_C, ""))):
        table(msg.PairAsked(), msg.Code("123456", "t"), msg.Paired("t", phone, kind, 20000 + day))
        table.press()  # the "paired" message away (a press that only ends it)
    assert table.state.prefs.digests == (PHONE_A, PHONE_B, PHONE_C)
    return table


def listed(table: Machine) -> tuple[list[str], int]:
    """The phones list as the panel shows it: its rows (the cursor's marked) and cursor."""
    assert table.state.mode is Mode.PHONES, table.state.now
    screen = view(table.state)
    return list(screen.body), screen.cursor


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


def test_a_page_under_a_phones_panel_on_trial_or_a_pairing_code_is_not_seen() -> None:
    """The pages a result turns through while a phone's panel on trial (its test pattern)
    or a pairing code covers it were never on the panel: they do not count as read."""
    import firmware.config.phone

    def measure(screen: Screen) -> tuple[int, int]:  # a result of two pages, money on 2
        return (1, 0) if screen.outline or screen.qr else (2, 1)

    for cover in ("trial", "pairing"):
        table = playing(MOVED, measure=measure)
        assert table.state.panel.seen == 0 and table.state.panel.page == 0
        if cover == "trial":
            config = firmware.config.phone.changed(CONFIG, {"display.display": "sh1106"})
            table(msg.Rewire((("display.display", "sh1106"),), config))
            assert table.state.trial is not None
        else:
            table(msg.Address("http://robinson.local/"), msg.PairAsked(), msg.Code("123456", "t"))
            assert table.state.pairing is not None
        table.fire(TimerKind.PAGE)  # the result's page 2 comes, under the cover
        assert table.state.panel.page == 1 and table.state.panel.seen == 0, cover


def test_another_players_decision_is_named_with_the_result_and_its_options_said_with_it() -> None:
    """The result names who decides; the press that shows their screen says their
    options (chained to the result they made Finnish results of 10 s)."""
    from firmware.speech.said import Spoken

    game = game_where(lambda g: (who := screens.decider(g.state)) is not None
                      and who != screens.mover(g) and bool(g.actions))
    table = playing(game, animate=False, voice=True)
    assert table.state.ask_next
    who = game.state.to_move
    assert who is not None
    assert Spoken("en").result(game).endswith(Spoken("en")("decides", name=f"Player {who}"))
    effects = table.press()
    assert said(effects) == [Spoken("en").turn(game.state)]
    assert "short" in said(effects)[0] and "long" in said(effects)[0]
