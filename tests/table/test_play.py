"""What a press does at play (``firmware.table.play``), rule by rule, on the machine alone:
the title, setup, a roll, a decision, a win, the audit, undo."""

from __future__ import annotations

import pytest

from firmware.config.settings import Config, Timings
from firmware.display import screens
from firmware.display.screen import Screen
from firmware.runtime.tunes import Tune
from firmware.speech.said import Spoken
from firmware.table import messages as msg
from firmware.table.menu import Row
from firmware.table.messages import Press, TimerKind
from firmware.table.moment import FRAME
from firmware.table.prefs import Owed
from firmware.table.state import Animate, Mode
from firmware.table.view import TUMBLE
from robinson_core import CHOICES, Choice, Game, Pending, Roll, Status
from robinson_core import events as ev

from .steps import (
    CONFIG,
    FRESH,
    MOVED,
    MOVER,
    VOICE_OFF,
    Machine,
    T,
    abandon_screen,
    draws,
    game_where,
    kept,
    menu_at,
    of,
    pending,
    playing,
    rolled_into,
    said,
    started,
)

# -- the title -------------------------------------------------------------------------


def test_the_title_waits_longer_for_each_note_and_says_each_once() -> None:
    table = Machine(fonts_missing=("fonts-noto-cjk",), seeded=True, badge="DEMO")
    effects = table(msg.Start(None, problem="the checksum does not match"), msg.Wired((1, 2)))
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
        table(msg.Start(None, volatile="tmpfs"), msg.Wired((1, 2), stuck=stuck))
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
        table(msg.Start(None, settings=line), msg.Wired((1, 2)))
        said = table.w(note[0], **note[1])
        assert table.screen == screens.title_screen(table.w, False, (said,)), line
    table = Machine()
    table(msg.Start(None), msg.Wired((1, 2)))
    assert table.screen == screens.title_screen(table.w, False, ())


def test_a_game_taken_up_from_the_title_is_said_after_it_is_shown() -> None:

    table = started(MOVED, voice=True)
    effects = table.press()
    text = Spoken("en").resumed(MOVED)
    assert of(msg.Say, effects) == [msg.Say(text, "en")]
    assert effects.index(msg.Say(text, "en")) > effects.index(draws(effects)[-1])


def test_with_nothing_to_resume_the_title_goes_on_to_setup_by_itself() -> None:
    table = Machine()  # a game with no action yet: nothing to resume
    effects = table(msg.Start(FRESH), msg.Wired((1, 2)))
    assert draws(effects) == [msg.Draw(screens.title_screen(table.w, False))]
    assert msg.After(TimerKind.BOOT, 2.0) in effects
    effects = table.fire(TimerKind.BOOT)
    assert table.state.mode is Mode.SETUP
    assert msg.Light(1, (1, 2)) in effects


def test_a_game_to_resume_keeps_the_title_until_a_press() -> None:
    table = Machine()
    effects = table(msg.Start(MOVED), msg.Wired((1, 2)))
    assert draws(effects) == [msg.Draw(screens.title_screen(table.w, True))]
    assert TimerKind.BOOT not in table.state.armed
    table.press()  # a short press resumes
    assert table.state.mode is Mode.PLAY and table.state.game == MOVED


def test_a_game_that_has_ended_is_not_called_in_progress_on_the_title() -> None:
    """Switched on after a win: the title says the game is over, a short press shows how
    it ended, a long press begins a new one (no question: nothing is in progress)."""
    won = game_where(lambda g: g.state.status is Status.WON)
    table = Machine()
    effects = table(msg.Start(won), msg.Wired((1, 2)))
    assert draws(effects) == [msg.Draw(screens.title_screen(table.w, True, over=True))]
    assert table.screen.body[0] == table.w("title_over") != table.w("title_resume")
    table.press()
    assert table.state.mode is Mode.PLAY and table.screen == screens.result_screen(
        table.w, won)
    table = started(won)
    effects = table.press(Press.LONG)
    assert of(msg.PutAway, effects) == [msg.PutAway(won)] and table.state.mode is Mode.SETUP


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


def test_a_game_handed_over_on_the_title_stays_in_play() -> None:
    table = started()  # the title, on its way to setup
    effects = table(msg.Begin(FRESH))
    assert msg.Cancel(TimerKind.BOOT) in effects
    assert of(msg.BeginGame, effects) == [msg.BeginGame(FRESH)]
    assert TimerKind.BOOT not in table.state.armed and table.state.mode is Mode.PLAY


# -- setup -----------------------------------------------------------------------------


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
    table(msg.Start(None, prefs=(("names", names),)), msg.Wired((1, 2, 3, 4)))
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


@pytest.mark.parametrize("seats", [(1, 2), (1, 2, 3, 4, 5, 6, 7, 8)])
def test_setup_says_who_plays_and_who_starts_and_again_for_each_new_starter(
        seats: tuple[int, ...]) -> None:

    table = started(seats=seats, voice=True)
    effects = table.fire(TimerKind.BOOT)
    assert said(effects) == [Spoken("en").setup(seats, seats[0], True)]
    effects = table.press()  # the next seat starts: said, and its light
    assert said(effects) == [Spoken("en").setup(seats, seats[1], True)]
    assert msg.Light(seats[1], seats) in effects
    effects = table.press(Press.LONG)
    assert said(effects) == [Spoken("en").begun(Game(seats, seats[1], CONFIG.rules))]


# -- a roll ----------------------------------------------------------------------------


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


def test_a_result_is_said_after_the_die_hushed_what_was_being_said() -> None:

    table = playing(MOVED, voice=True, faces=[5])
    effects = table.press()
    assert of(msg.Hush, effects) == [msg.Hush()] and said(effects) == []
    while table.state.mode is Mode.ANIMATE:
        effects += table.fire(TimerKind.FRAME if TimerKind.FRAME in table.state.armed
                              else TimerKind.REVEAL)
    game = MOVED.play(Roll(5))
    assert table.state.game == game
    assert said(effects) == [Spoken("en").result(game)]


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


# -- a decision ------------------------------------------------------------------------


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


def test_a_choice_without_a_roll_is_shown_lit_and_said_as_a_result() -> None:
    """"Pass" on 20 moves nothing: its result is the screen, the next player's light and
    what the voice says, as after a roll."""

    game = pending(Pending.AGAIN)
    table = playing(game, voice=True)
    assert not table.state.ask_next  # the mover decides: the press answers at once
    effects = table.press(Press.LONG)
    after = game.play(Choice.PASS)
    assert table.state.game == after
    assert msg.Light(after.state.to_move, after.seats) in effects
    assert said(effects) == [Spoken("en").result(after)]


def test_another_players_decision_is_named_with_the_result_and_its_options_said_with_it() -> None:
    """The result names who decides; the press that shows their screen says their
    options (chained to the result they made Finnish results of 10 s)."""

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


# -- a win -----------------------------------------------------------------------------


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


# -- the audit -------------------------------------------------------------------------


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


# -- undo ------------------------------------------------------------------------------


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
        restarted(msg.Start(game.undo().undo(), prefs=tuple(prefs.items())), msg.Wired(game.seats))
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
    table(msg.Start(MOVED, prefs=(("owed", saved),)), msg.Wired((1, 2)))
    assert table.state.prefs.owed.face(MOVED) == face


def test_undo_answered_no_goes_back_to_the_menu() -> None:
    table = playing(MOVED)
    menu_at(table, Row.UNDO)
    effects = table.press()
    assert of(msg.Save, effects) == [] and table.state.mode is Mode.MENU
    assert table.state.game == MOVED


def test_undo_with_nothing_done_says_so() -> None:
    table = started()
    table(msg.Begin(FRESH))
    effects = menu_at(table, Row.UNDO)
    assert table.state.mode is Mode.MENU
    assert draws(effects) == [msg.Draw(screens.message_screen(table.w("notice"),
                                                            table.w("nothing_to_undo")))]
    assert msg.After(TimerKind.FLASH, 2.0) in effects


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
