"""The queue of changes the disk has not taken (``firmware.table.writes``), rule by rule:
how far the disk is behind, which changes are made one, what goes out next."""

from __future__ import annotations

from firmware.saves.faults import Fault
from firmware.table.messages import BeginGame, PutAway, Save
from firmware.table.writes import Writes, joined, queued, taken
from robinson_core import Game, Roll

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
