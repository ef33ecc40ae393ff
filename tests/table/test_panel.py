"""The panel's part of a step (``firmware.table.panel``): each of its steps on its own,
then the rules it makes at the table: the screen saver, pages turned, read and unread."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from firmware.display import screens
from firmware.display.screen import Screen
from firmware.saves.faults import Fault
from firmware.table import messages as msg
from firmware.table import panel
from firmware.table.menu import Row
from firmware.table.messages import Press, TimerKind
from firmware.table.state import Mode, Notice, Panel, Saver
from robinson_core import Pending

from .steps import (
    CONFIG,
    MOVED,
    Machine,
    T,
    game_where,
    menu_at,
    of,
    playing,
    started,
    to_row,
    turned,
)

# -- each step of the panel's value ---------------------------------------------------

READ = Panel(page=2, seen=3)  # the third page up, the fourth read already
NOTE = Notice.of("phone_paired")


def test_a_new_screen_begins_at_its_first_page_with_none_of_it_read() -> None:
    assert panel.fresh(READ) == Panel(page=0, seen=-1)
    assert panel.first_page(READ) == Panel(page=0, seen=3)  # the same screen: read stays read


def test_the_page_timer_turns_one_page() -> None:
    assert panel.turned(READ).page == 3


def test_a_quick_press_shows_the_first_page_not_read_up_to_the_last_that_matters() -> None:
    assert panel.unread(Panel(page=0, seen=0), last=2) == Panel(page=1, seen=0)
    assert panel.unread(Panel(page=0, seen=1), last=2) == Panel(page=2, seen=1)
    assert panel.unread(Panel(page=2, seen=2), last=2) is None  # all of it read
    assert panel.unread(Panel(page=0, seen=-1), last=0) == Panel(page=0, seen=-1)


def test_a_page_drawn_is_read_unless_something_covers_it() -> None:
    assert panel.shown(Panel(page=2, seen=1), covered=False) == Panel(page=2, seen=2)
    assert panel.shown(Panel(page=2, seen=1), covered=True) == Panel(page=2, seen=1)
    assert panel.shown(Panel(page=0, seen=3), covered=False) == Panel(page=0, seen=3)


def test_a_message_stands_for_its_seconds_and_leaves_the_screen_at_its_first_page() -> None:
    over, effects = panel.flashed(READ, NOTE, 3.0)
    assert over == Panel(page=2, seen=3, flash=NOTE)
    assert effects == (msg.After(TimerKind.FLASH, 3.0),)
    assert panel.unflashed(over) == (Panel(page=0, seen=3), (msg.Cancel(TimerKind.FLASH),))


def test_the_saver_dims_blanks_and_only_a_sleeping_panel_is_woken() -> None:
    dim, effects = panel.dimmed(READ)
    assert dim.saver is Saver.DIM and effects == (msg.Dim(),)
    blank, effects = panel.blanked(dim)
    assert blank.saver is Saver.BLANK and effects == (msg.Blank(),)
    assert panel.woken(blank) == (dataclasses.replace(blank, saver=Saver.AWAKE), (msg.Wake(),))
    assert panel.woken(READ) == (READ, ())


def test_a_press_that_wakes_the_panel_or_begins_mid_roll_does_nothing_when_let_go() -> None:
    asleep = Panel(saver=Saver.BLANK)
    assert panel.down(asleep, rolling=False) == (Panel(void=True), (msg.Wake(),))
    assert panel.down(Panel(), rolling=True) == (Panel(void=True), ())
    assert panel.down(Panel(), rolling=False) == (Panel(), ())
    held = panel.held(Panel(void=True), Press.LONG)
    assert held.hint is Press.LONG
    assert panel.let_go(held) == (Panel(), False)  # void: it does nothing, once
    assert panel.let_go(Panel(hint=Press.MENU)) == (Panel(), True)


def test_a_table_switched_off_leaves_its_last_frame_awake_at_its_first_page() -> None:
    busy = Panel(page=2, seen=3, hint=Press.LONG, flash=NOTE, saver=Saver.DIM)
    assert panel.halted(busy) == Panel(page=0, seen=-1)


# -- the screen saver ------------------------------------------------------------------


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


# -- pages -----------------------------------------------------------------------------


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


def test_each_new_screen_opens_at_its_first_page_none_of_it_seen() -> None:
    """Every way to a new screen begins it again at page 1: setup, the press that rolls,
    the next decider's screen, each tumbling frame, the standings, the recall, the undo's
    question."""
    deciding = game_where(lambda g: g.state.pending not in (Pending.ROLL, Pending.OVER)
                          and bool(g.actions) and screens.decider(g.state) != screens.mover(g))
    rolling = playing(MOVED, faces=[5])
    rolling.press()
    assert TimerKind.FRAME in rolling.state.armed

    def at(row: Row, way: Callable[[Machine, Row], object] = to_row) -> Machine:
        table = playing(MOVED)
        way(table, row)
        return table

    ways: dict[str, tuple[Machine, Callable[[Machine], object]]] = {
        "setup": (started(seats=(1, 2)), lambda t: t.fire(TimerKind.BOOT)),
        "roll": (playing(MOVED, faces=[5]), lambda t: t.press()),
        "turn": (playing(deciding), lambda t: t.press()),  # another decides: theirs first
        "frame": (rolling, lambda t: t.fire(TimerKind.FRAME)),
        "standings": (at(Row.STANDINGS), lambda t: t.press(Press.LONG)),
        "recall": (at(Row.RECALL, menu_at), lambda t: t(msg.Recalled(()))),
        "undo": (at(Row.UNDO), lambda t: t.press(Press.LONG))}
    assert ways["turn"][0].state.ask_next
    opened = {}
    for name, (table, go) in ways.items():
        turned(table)  # its second page up and read: the new screen must begin again
        go(table)
        opened[name] = (table.state.mode, table.state.panel.page, table.state.panel.seen)
    assert opened == {"setup": (Mode.SETUP, 0, 0), "roll": (Mode.ANIMATE, 0, 0),
                      "turn": (Mode.PLAY, 0, 0), "frame": (Mode.ANIMATE, 0, 0),
                      "standings": (Mode.INFO, 0, 0), "recall": (Mode.INFO, 0, 0),
                      "undo": (Mode.UNDO, 0, 0)}


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
