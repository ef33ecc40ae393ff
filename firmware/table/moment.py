"""One step of the machine in the making (``Moment``): the state as it changes, the
effects said so far, and what every room of the machine does to the panel with them
(a new screen, a message over it, the page that is read, the view drawn at the end).
"""

from __future__ import annotations

import dataclasses

from firmware.display.screen import Screen
from firmware.display.words import Words
from firmware.speech.said import Spoken
from firmware.table import panel
from firmware.table.menu import MENU, Row, retuned
from firmware.table.messages import (
    After,
    Cancel,
    Draw,
    Effect,
    Light,
    NeedOdds,
    SavePrefs,
    Say,
    TimerKind,
    Write,
)
from firmware.table.prefs import Prefs
from firmware.table.state import (
    Menu,
    Notice,
    Panel,
    TableState,
    Waiting,
)
from firmware.table.view import view, words
from firmware.table.writes import queued
from robinson_core import Game

FRAME = 0.08  # seconds per animation frame


class Moment:
    """One step in the making: the state as it changes and the effects said so far."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.effects: list[Effect] = []
        self.before = state
        self.drawn: tuple[Screen, int] | None = None  # None: what the state before showed
        self.redrawn = False  # draw at the end even if the view is what was there
        self.paging = False  # the page turned or a new screen came: the page timer anew
        self.said: list[Say] = []  # spoken once the view is out: the ear never leads the eye

    def on(self, change: panel.Change | Panel) -> None:
        """The panel after one of its steps (``panel.py``), and the effects it asks for
        done: a timer armed or cancelled as the table keeps them."""
        new, effects = change if isinstance(change, tuple) else (change, ())
        self.set(panel=new)
        for effect in effects:
            match effect:
                case After(kind, seconds):
                    self.after(kind, seconds)
                case Cancel(kind):
                    self.cancel(kind)
                case _:
                    self.do(effect)

    def set(self, **changes: object) -> None:
        self.state = dataclasses.replace(self.state, **changes)  # type: ignore[arg-type]

    def do(self, *effects: Effect) -> None:
        self.effects.extend(effects)

    def after(self, kind: TimerKind, seconds: float) -> None:
        self.set(armed=self.state.armed | {kind})
        self.do(After(kind, seconds))

    def cancel(self, kind: TimerKind) -> None:
        if kind in self.state.armed:
            self.set(armed=self.state.armed - {kind})
            self.do(Cancel(kind))

    @property
    def w(self) -> Words:
        return words(self.state)

    @property
    def s(self) -> Spoken:
        """The voice's words: the same language and names as the panel's."""
        return Spoken(self.state.prefs.language, self.w.given)

    @property
    def game(self) -> Game:
        game = self.state.game
        assert game is not None
        return game

    def write(self, write: Write) -> None:
        """A change for the disk: out now, or, while the disk is behind, after the changes
        before it, one at a time (``writes.queued``)."""
        writes, now = queued(self.state.writes, write)
        self.set(writes=writes)
        if now is not None:
            self.do(now)

    def open_menu(self) -> None:
        self.cancel(TimerKind.BOOT)  # the title's way to setup ends with the title
        self.back_to_menu(MENU[0])

    def back_to_menu(self, row: Row) -> None:
        self.set(now=Menu(MENU.index(row)))
        self.fresh()

    def save_prefs(self) -> None:
        self.do(SavePrefs(self.state.prefs))

    def prefer(self, prefs: Prefs) -> None:
        """Settings in force now (the menu's or a phone's), what they ask of the devices
        done (``menu.retuned``), and kept; a decision's odds asked for again if they
        were switched."""
        before = self.state.prefs
        if prefs == before:
            return
        self.set(prefs=prefs)
        if prefs.odds != before.odds:
            self.set(odds=None, weighing=None)
        self.do(*retuned(before, prefs))
        self.save_prefs()

    def speak(self, text: str, after: bool = False) -> None:
        """Say ``text`` if the voice is on (a text about nothing is not said); ``after``:
        once what is being said is out, not over it."""
        if self.state.prefs.voice and text:
            self.said = [Say(text, self.state.prefs.language, after)]  # the newest cuts

    def fresh(self) -> None:
        """A new screen: from its first page, none of it seen yet (the page timer anew)."""
        self.on(panel.fresh(self.state.panel))
        self.paging = True

    def unread(self) -> bool:
        """Show the next page of the result's money and instructions if a press would
        otherwise skip it (a quick roll); False when there is nothing left unread."""
        _, last = self.state.fixed.measure(view(self.state))
        turned = panel.unread(self.state.panel, last)
        if turned is None:
            return False
        self.on(turned)
        self.paging = True
        return True

    def flash(self, notice: Notice, seconds: float = 4.0) -> None:
        """Show a message for a while, then the screen under it again."""
        self.on(panel.flashed(self.state.panel, notice, seconds))
        self.paging = True  # the screen underneath must not page over the message

    def unflash(self) -> None:
        """The message's time is up (or a press ended it): the screen under it, from its
        first page."""
        self.on(panel.unflashed(self.state.panel))
        self.paging = True

    def draw_now(self) -> None:
        """Put the view on the panel now if it is not there already (not only at the end
        of the step)."""
        shown = (view(self.state), self.state.panel.page)
        there = (self.drawn if self.drawn is not None
                 else (view(self.before), self.before.panel.page))
        if self.redrawn or shown != there:
            self.do(Draw(*shown))
        self.drawn, self.redrawn = shown, False
        covered = (self.state.panel.flash or self.state.trial or self.state.pairing) is not None
        self.on(panel.shown(self.state.panel, covered))

    def weighed(self) -> bool:
        """Whether the screen now is one of the game's decision: where odds are shown."""
        return self.state.prefs.odds and self.state.deciding

    def settle(self) -> None:
        """The step's end: the odds asked for if a decision is on the screen and they are
        on, the view drawn if it changed, what it says said, the page timer set for it."""
        game = self.state.game
        if game is not None and self.weighed() and self.state.weighing != game:
            self.set(weighing=game)
            self.do(NeedOdds(game))
        if self.state.waiting is Waiting.FACE:  # "roll" on 7, "again" on 20: the face
            self.do(*self.said)  # comes next, and the die's first frame is what goes first
            return
        self.draw_now()
        self.do(*self.said)
        if self.paging:
            assert self.drawn is not None  # draw_now keeps the view it drew: not made again
            pages, _ = self.state.fixed.measure(self.drawn[0])
            if self.state.panel.flash is None and pages > 1:
                self.after(TimerKind.PAGE, self.state.fixed.config.timings.page)
            else:
                self.cancel(TimerKind.PAGE)

    def lights(self, seat: int | None) -> None:
        game = self.state.game
        self.do(Light(seat, game.seats if game is not None else self.state.seats))

    def wake(self) -> None:
        """The panel at full brightness, if the screen saver had dimmed or blanked it."""
        self.on(panel.woken(self.state.panel))

    def idle(self) -> None:
        timings = self.state.fixed.config.timings
        self.after(TimerKind.DIM, timings.dim_after)
        self.after(TimerKind.BLANK, timings.blank_after)
