"""The panel's part of a step, whatever the mode: the page of its screen and how far it
has been read, a message over it, the hint of a held button, the screen saver.

Each step here is a pure function of the panel's value (``state.Panel``): it gives the
panel after it, and the effects it asks for where it asks any (a timer, the panel woken,
dimmed or blanked). The step in the making applies them (``Moment.on``), keeping the
table's armed timers with them.

>>> from firmware.table.state import Notice
>>> panel, effects = flashed(Panel(page=2, seen=2), Notice.of("phone_paired"), 3.0)
>>> panel.flash.key, panel.page, effects
('phone_paired', 2, (After(kind=<TimerKind.FLASH: 'flash'>, seconds=3.0),))
>>> unflashed(panel)[0].page  # the screen under it again, from its first page
0
"""

from __future__ import annotations

from dataclasses import replace

from firmware.table.messages import After, Blank, Cancel, Dim, Effect, Press, TimerKind, Wake
from firmware.table.state import Notice, Panel, Saver

Change = tuple[Panel, tuple[Effect, ...]]
"""A panel after a step, and the effects the step asks for."""


def fresh(panel: Panel) -> Panel:
    """A new screen: from its first page, none of it seen yet."""
    return replace(panel, page=0, seen=-1)


def first_page(panel: Panel) -> Panel:
    """The same screen again from its first page (what covered it is gone): what was
    seen of it stays seen."""
    return replace(panel, page=0)


def turned(panel: Panel) -> Panel:
    """The page timer: the next page (the view wraps it round)."""
    return replace(panel, page=panel.page + 1)


def unread(panel: Panel, last: int) -> Panel | None:
    """The first page not yet on the panel, if it is one up to ``last`` (the last page
    with money or instructions); None: every such page has been seen."""
    return None if panel.seen >= last else replace(panel, page=panel.seen + 1)


def shown(panel: Panel, covered: bool) -> Panel:
    """The page drawn is on the panel now, and so seen, unless something covers it (a
    message, a phone's panel on trial, a pairing code)."""
    return panel if covered or panel.page <= panel.seen else replace(panel, seen=panel.page)


def flashed(panel: Panel, notice: Notice, seconds: float) -> Change:
    """A message over the screen for ``seconds``; the page stays where it is."""
    return replace(panel, flash=notice), (After(TimerKind.FLASH, seconds),)


def unflashed(panel: Panel) -> Change:
    """The message's time is up, or a press ended it: the screen under it, from its
    first page."""
    return replace(panel, flash=None, page=0), (Cancel(TimerKind.FLASH),)


def woken(panel: Panel) -> Change:
    """The panel at full brightness, if the screen saver had dimmed or blanked it."""
    if panel.saver is Saver.AWAKE:
        return panel, ()
    return replace(panel, saver=Saver.AWAKE), (Wake(),)


def dimmed(panel: Panel) -> Change:
    return replace(panel, saver=Saver.DIM), (Dim(),)


def blanked(panel: Panel) -> Change:
    return replace(panel, saver=Saver.BLANK), (Blank(),)


def down(panel: Panel, rolling: bool) -> Change:
    """The button goes down: a press that wakes the panel, or begins while the die
    tumbles, does nothing else when it is let go (``void``)."""
    awake, effects = woken(panel)
    return replace(awake, void=rolling or bool(effects)), effects


def held(panel: Panel, hint: Press) -> Panel:
    """The button held past a press's length: the footer says what letting go does."""
    return replace(panel, hint=hint)


def let_go(panel: Panel) -> tuple[Panel, bool]:
    """The button let go: the hint has said its piece; and whether the press counts
    (it did not wake the panel nor begin while the die tumbled)."""
    return replace(panel, hint=None, void=False), not panel.void


def halted(panel: Panel) -> Panel:
    """The table switched off: its last frame awake, from its first page, nothing over
    it."""
    return fresh(replace(panel, flash=None, hint=None, saver=Saver.AWAKE))
