"""The queue of changes the disk has not taken (``firmware.table.writes``), rule by rule:
how far the disk is behind, which changes are made one, what goes out next."""

from __future__ import annotations

from firmware.display import screens
from firmware.saves.faults import Fault
from firmware.table import machine as m
from firmware.table import messages as msg
from firmware.table.menu import Row
from firmware.table.messages import BeginGame, Press, PutAway, Save, TimerKind
from firmware.table.state import Mode
from firmware.table.writes import Writes, joined, queued, taken
from robinson_core import Game, Roll

from .steps import (
    MOVED,
    draws,
    menu_at,
    playing,
    started,
    unsaved,
    writes,
)

TWO = Game((1, 2)).play(Roll(3)).play(Roll(4))  # two actions
FOUR = TWO.play(Roll(2)).play(Roll(5))  # the same game, four
OTHER = Game((1, 2, 3)).play(Roll(1)).play(Roll(2)).play(Roll(6))  # other seats, three
NEXT = Game((1, 2)).play(Roll(6))  # the next game, one action


def test_behind_counts_the_actions_the_disk_lacks_or_still_has() -> None:
    assert Writes(disk=TWO, unsaved=(Save(FOUR),)).behind == 2  # two more
    assert Writes(disk=FOUR, unsaved=(Save(TWO),)).behind == 2  # two undone
    assert Writes(disk=None, unsaved=(Save(FOUR),)).behind == 4  # none on disk
    assert Writes(disk=TWO, unsaved=(Save(OTHER),)).behind == 3  # another game: all of it


def test_a_game_begun_or_put_away_counts_one_at_least_and_its_next_game_too() -> None:
    assert Writes(disk=None, unsaved=(BeginGame(Game((1, 2))),)).behind == 1
    assert Writes(disk=None, unsaved=(Save(TWO), BeginGame(NEXT))).behind == 3
    assert Writes(disk=FOUR, unsaved=(PutAway(FOUR, None),)).behind == 1
    assert Writes(disk=TWO, unsaved=(PutAway(FOUR, None),)).behind == 2  # 2 more, no next
    assert Writes(disk=TWO, unsaved=(PutAway(FOUR, NEXT),)).behind == 3  # 2 more, and 1
    assert Writes(disk=FOUR, unsaved=(PutAway(FOUR, NEXT), Save(NEXT.play(Roll(2))))
                  ).behind == 2  # the next game's one action (the put-away adds none), 1 more


def test_a_change_waits_behind_the_one_on_its_way_and_joins_the_last_one_waiting() -> None:
    assert joined((), Save(TWO), refused=False) == (Save(TWO),)
    on_its_way = (Save(TWO),)
    assert joined(on_its_way, Save(FOUR), refused=False) == (Save(TWO), Save(FOUR))
    assert joined(on_its_way, Save(FOUR), refused=True) == (Save(FOUR),)  # refused: one
    three = (Save(TWO), BeginGame(NEXT), Save(TWO))
    assert joined(three, Save(FOUR), refused=False) == (Save(TWO), BeginGame(NEXT),
                                                       Save(FOUR))
    assert joined((Save(TWO), BeginGame(NEXT)), Save(NEXT.play(Roll(2))), refused=False) \
        == (Save(TWO), BeginGame(NEXT.play(Roll(2))))
    assert joined((Save(TWO), PutAway(FOUR, NEXT)), Save(NEXT.play(Roll(2))),
                  refused=False) == (Save(TWO), PutAway(FOUR, NEXT.play(Roll(2))))
    assert joined((Save(TWO), PutAway(FOUR, None)), BeginGame(NEXT), refused=False) \
        == (Save(TWO), PutAway(FOUR, NEXT))
    assert joined((Save(TWO), BeginGame(NEXT)), BeginGame(OTHER), refused=False) \
        == (Save(TWO), BeginGame(NEXT), BeginGame(OTHER))  # nothing says both


def test_the_first_change_goes_out_at_once_and_the_next_when_the_disk_took_it() -> None:
    writes, now = queued(Writes(disk=TWO), Save(FOUR))
    assert now == Save(FOUR) and writes.unsaved == (Save(FOUR),)
    writes, now = queued(writes, PutAway(FOUR, NEXT))
    assert now is None and writes.unsaved == (Save(FOUR), PutAway(FOUR, NEXT))
    writes, then = taken(writes)
    assert then == PutAway(FOUR, NEXT) and writes.disk == FOUR
    writes, then = taken(writes)
    assert then is None and writes.disk == NEXT and writes.unsaved == ()
    failing = Writes(disk=TWO, unsaved=(Save(FOUR),), failing=Fault.DISK_FULL)
    assert queued(failing, Save(FOUR.play(Roll(1))))[0].unsaved == (Save(FOUR.play(Roll(1))),)


# -- the machine with a disk that refuses ----------------------------------------------


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


def test_a_refused_write_without_a_kind_is_logged_as_an_io_error() -> None:
    table = playing(MOVED, animate=False, faces=[3])
    table.disk_ok, table.refusal = False, None
    effects = table.press()
    assert msg.Log("error", "cannot save the game: I/O error") in effects


def test_an_answer_to_no_write_changes_nothing() -> None:
    table = playing(MOVED)
    before = table.state
    assert table(msg.Wrote(False, Fault.DISK_FULL)) == [] and table.state == before
