"""The changes the disk has not taken yet: one frozen value (``Writes``) and the steps
that change it. The machine hands each change for the disk to ``queued`` and each answer
to ``taken`` or ``refused``; they say what the queue becomes and what to send next.

One change is on its way at a time, the rest wait behind it in order; a refused one is
tried again (on the machine's timer), and what comes meanwhile joins the last one
waiting where one change can say both (``joined``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from firmware.saves.faults import Fault
from firmware.table.messages import BeginGame, PutAway, Save, Write
from robinson_core import Game


@dataclass(frozen=True)
class Writes:
    """The game on disk as its last answer left it, and what is not there yet."""

    disk: Game | None = None  # the game in play on disk, as the disk's last answer left it
    unsaved: tuple[Write, ...] = ()  # not on disk yet, oldest first: the first is on its
    # way, or was refused and is tried again on a timer; the rest wait for it
    failing: Fault | None = None  # why the disk refused the last try: said until one passes
    unsaid: Fault | None = None  # why a write failed, not yet told (the die was tumbling)

    @property
    def behind(self) -> int:
        """How many of the actions the table has shown the disk does not have (or still
        has, undone): what ``unsaved`` would change in the games on disk (a game put away
        or begun counts as one at least: the disk would resume the game before it)."""
        count, disk = 0, self.disk
        for write in self.unsaved:
            match write:
                case Save(game):
                    count, disk = count + _changed(disk, game), game
                case BeginGame(game):
                    count, disk = count + max(1, len(game.actions)), game
                case PutAway(game, then):
                    count += max(1, _changed(disk, game) + (len(then.actions) if then else 0))
                    disk = then
        return count


def queued(writes: Writes, write: Write) -> tuple[Writes, Write | None]:
    """``write`` in the queue, and what to send now: it, if nothing was waiting."""
    waiting = writes.unsaved
    joined_to = joined(waiting, write, refused=writes.failing is not None)
    return replace(writes, unsaved=joined_to), None if waiting else write


def taken(writes: Writes) -> tuple[Writes, Write | None]:
    """The disk took the change on its way: the next to send, if any (``failing`` stays
    until the queue is empty: the machine says the disk is back, and clears it)."""
    head, rest = writes.unsaved[0], writes.unsaved[1:]
    disk = head.then if isinstance(head, PutAway) else head.game
    return replace(writes, unsaved=rest, disk=disk), rest[0] if rest else None


def joined(waiting: tuple[Write, ...], write: Write, refused: bool) -> tuple[Write, ...]:
    """``write`` after the changes ``waiting`` for the disk: the last of them and
    ``write`` made one change where one can say both (a later game in play replaces an
    earlier one), but never the first while it is on its way (not ``refused``)."""
    if not waiting or (len(waiting) == 1 and not refused):
        return (*waiting, write)
    last = waiting[-1]
    match last, write:
        case Save(), Save() | PutAway():
            one: Write | None = write
        case BeginGame(), Save(game):
            one = BeginGame(game)
        case PutAway(put, then), Save(game) if then is not None:
            one = PutAway(put, game)
        case PutAway(put, None), BeginGame(game):
            one = PutAway(put, game)
        case _:
            one = None
    return (*waiting[:-1], one) if one is not None else (*waiting, write)


def _changed(disk: Game | None, game: Game) -> int:
    """The actions ``game`` adds to (or takes from) the same game as ``disk`` holds it."""
    if disk is None or not disk.same_setup(game):
        return len(game.actions)
    return max(len(disk.actions), len(game.actions)) - disk.shared(game)
