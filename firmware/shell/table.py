"""The table's shell: device callbacks in as inputs, the machine's effects run in order.

Every decision is ``firmware.table.machine.step``'s. Here a press becomes one
``take(Pressed(kind))``: the machine says what to do, and this runs it — draws,
writes to disk, rolls the die, sets timers, lights LEDs — feeding the answers
(the die's face, whether the disk took a write) back as inputs once the effects
of the moment are out (``machine.run``). Everything runs in the loop's thread.
"""

from __future__ import annotations

import collections
import functools
import logging
import secrets
from collections.abc import Callable

from firmware import __version__
from firmware.display.fonts import Fonts
from firmware.display.layout import Layout
from firmware.display.paging import essential_page, page_count
from firmware.display.render import drawn, picture_box
from firmware.display.screen import NAME, Screen
from firmware.display.screens import message_screen
from firmware.display.words import Words
from firmware.runtime.loop import Timers
from firmware.runtime.outputs import Outputs
from firmware.runtime.speaker import Utterance
from firmware.saves.faults import Fault
from firmware.saves.owner import owner_code
from firmware.saves.store import Store
from firmware.shell.buttons import Press, RollButton, SeatSwitches
from firmware.shell.die import Die
from firmware.shell.disk import Disk
from firmware.shell.pace import Pace
from firmware.shell.parts import Devices, Run, Told
from firmware.shell.weigh import Weigher
from firmware.table import machine as m
from firmware.table import messages as msg
from firmware.table.state import Fixed, Mode, TableState
from firmware.table.view import view, words
from robinson_core import Action, Game

log = logging.getLogger("robinson.table")

PLAIN, NOBODY = Run(), Told()  # a run as a test makes it: animated, nothing but the panel


@functools.lru_cache(maxsize=64)
def _measure(screen: Screen, fonts: Fonts, layout: Layout) -> tuple[int, int]:
    return page_count(screen, fonts, layout), essential_page(screen, fonts, layout)


def stopped_screen(words: Words, fault: Fault | None, fonts: Fonts, layout: Layout) -> Screen:
    """What the panel says as the table stops before play: the saved games cannot be read
    (``fault``), or (None) a pin cannot be opened. One page on ``layout``: no loop turns
    its pages. The saves' reason is left to the journal where it would take a second page
    (the strip; "in use by another program" in most languages on every panel)."""
    if fault is None:
        return message_screen(NAME, words("pins_unopened"))
    screen = message_screen(NAME, words("saves_unreadable", reason=words(fault.key)))
    if page_count(screen, fonts, layout) > 1:
        return message_screen(NAME, words("saves_unreadable_short"))
    return screen


class Table:
    """The banker at the table: presses and seat switches in; rolls, books and screens out.

    ``state`` is the machine's (``firmware.table.state.TableState``); ``screen`` its view.
    """

    def __init__(self, devices: Devices, store: Store, *, die: Die | None = None,
                 fonts: Fonts | None = None, run: Run = PLAIN, told: Told = NOBODY) -> None:
        self.config = config = devices.config
        self.loop, self.store, self.panel = devices.loop, store, devices.panel
        self.disk = Disk(store)
        self.panel_for = devices.panel_for
        self.die = die or Die()
        self.fonts = fonts or Fonts()
        self.layout = config.display.layout  # the panel's size class
        self.run, self.told = run, told
        self.timers: Timers[msg.TimerKind] = Timers(self.loop)
        self.ready = Pace()  # whether a press would be taken now (the emulator's pacing)
        self.devices = devices
        self.button: RollButton | None = None  # the pins: opened by start, after the title
        self.seats = SeatSwitches((), self.loop, config.timings.debounce, self._seat_changed)
        self.outputs = Outputs(notes=self.loop)  # (none until then)
        fixed = Fixed(config, self._measure, lang=run.lang, animate=run.animate,
                        badge=run.badge, seeded=self.die.seeded, version=__version__,
                        saves=str(store.directory), fonts_missing=tuple(self.fonts.missing),
                        voice=run.voice_on, owner=owner_code(store.directory))
        self.state = m.initial(fixed)
        self._inputs: collections.deque[msg.Input] = collections.deque()
        self._weigher: Weigher | None = None  # made at the first decision weighed
        self._deciding = False  # the input taken now is a decision's press or long hold
        self.on_state: Callable[[TableState], None] | None = None  # the seam's publish

    def _measure(self, screen: Screen) -> tuple[int, int]:
        return _measure(screen, self.fonts, self.layout)

    # -- the machine's state, as a reader asks for it -------------------------------

    @property
    def mode(self) -> Mode:
        return self.state.mode

    @property
    def game(self) -> Game | None:
        return self.state.game

    @property
    def shown(self) -> tuple[Action, ...]:
        """The actions whose results the panel has shown. While the die tumbles its roll
        is held, and saved right after the first frame, but its result is not out yet."""
        actions = self.game.actions if self.game is not None else ()
        return actions[:-1] if self.mode is Mode.ANIMATE else actions

    @property
    def screen(self) -> Screen:
        return view(self.state)

    @property
    def page(self) -> int:
        return self.state.panel.page

    @property
    def words(self) -> Words:
        return words(self.state)

    # -- inputs ---------------------------------------------------------------------

    def start(self) -> None:
        """Switched on (``switch_on``), then the pins (``wire``)."""
        self.switch_on()
        self.wire()

    def switch_on(self) -> None:
        """The saved game read and its title drawn: the table's first frame, before its
        pins are opened (gpiozero's 60 ms of loading do not hold it)."""
        loaded, prefs, kind = self.disk.open(self.run.mounts)
        self.take(msg.Start(loaded.game, loaded.problem or "", prefs, self.panel.contrast,
                            loaded.fault.kind if loaded.fault else None, kind,
                            self.run.settings))

    def wire(self) -> None:
        """The pins opened, and what they found taken: who sits, and a button down already.
        A pin that cannot be had raises ``HardwareError``, the title on the panel."""
        pins, t = self.devices.wire(), self.config.timings
        self.outputs = pins.outputs
        self.button = RollButton(pins.button, self.loop, debounce=t.debounce,
                                 long_press=t.long_press, menu_press=t.menu_press,
                                 on_press=lambda kind: self.take(msg.Pressed(kind)),
                                 on_hold=self._holding, on_down=lambda: self.take(msg.Down()))
        self.seats = SeatSwitches(pins.seats, self.loop, t.debounce, self._seat_changed)
        self.take(msg.Wired(self.seats.occupied(), self.button.stuck))

    def cannot_start(self, fault: Fault | None) -> None:
        """The table stops before play: the saved games cannot even be read (``fault``), or
        (None) a pin cannot be opened. The panel says so, over the title."""
        screen = stopped_screen(self.words, fault, self.fonts, self.layout)
        self.panel.show(drawn(screen, self.fonts, 0, self.layout))
        if self.told.on_page is not None:
            self.told.on_page(screen, 0)

    def stop(self) -> None:
        """Leave the panel showing 'switched off' (the game is already on disk)."""
        self.take(msg.Stop())
        if self._weigher is not None:
            self._weigher.close()

    def begin(self, game: Game) -> None:
        """Play ``game`` from here (saved at once)."""
        self.take(msg.Begin(game))

    def _holding(self, kind: Press | None) -> None:
        self.take(msg.Unstuck() if kind is None else msg.Held(kind))

    def _seat_changed(self, seat: int, on: bool) -> None:
        self.take(msg.SeatsChanged(seat, on, self.seats.occupied()))

    def take(self, event: msg.Input) -> None:
        """One input: the machine's steps for it and its answers, each step's effects run
        in order. An input that comes while effects run waits for them."""
        self._inputs.append(event)
        if len(self._inputs) > 1:  # the loop below is under way: it takes this one next
            return
        before, pressed = self.state, False
        try:
            while self._inputs:
                pressed |= isinstance(self._inputs[0], msg.Pressed)
                self._deciding = isinstance(self._inputs[0], msg.Pressed | msg.Held) \
                    and self.state.deciding  # a decision's press, or its long hold: its
                # first changes go first and alone (as the tumbling die does)
                for _, state, _ in m.run(self.state, self._inputs[0], self._run):
                    self.state = state
                self._deciding = False  # (an input that drew nothing: not the next one's)
                self._inputs.popleft()
        finally:
            self._inputs.clear()
        if self.on_state is not None and self.state is not before:
            self.on_state(self.state)
        self.ready.took(pressed, self.state.mode is Mode.ANIMATE)

    # -- effects ----------------------------------------------------------------------

    def _run(self, effect: msg.Effect) -> msg.Input | None:
        """Run one effect; the input that answers it, if it has one."""
        match effect:
            case msg.Draw(screen, page):
                layout = self.layout  # first: the tumbling die, or a decision's first
                first = (picture_box(screen, self.fonts, page, layout)  # changes from the
                         if screen.picture is not None and not screen.body else  # top
                         (0, 0, layout.width - 1, layout.height - 1) if self._deciding
                         else None)  # (its title: where the token went), Panel.FIRST_MOST
                self._deciding = False
                self.panel.show(drawn(screen, self.fonts, page, self.layout), first=first)
                if self.told.on_page is not None:
                    self.told.on_page(screen, page)
            case (msg.Save() | msg.BeginGame() | msg.PutAway() | msg.NeedRecall()
                  | msg.BringBack() | msg.SavePrefs() | msg.KeepHardware()
                  | msg.OwnerCodeUsed()):
                return self.disk.run(effect)
            case msg.NeedFace():
                return msg.Face(self.die.roll())
            case msg.NeedOdds(game):
                if self._weigher is None:
                    self._weigher = Weigher(self._weighed, seed=1 if self.die.seeded else None)
                self._weigher.ask(game)
            case msg.NeedCode():
                return msg.Code(f"{secrets.randbelow(10 ** 6):06d}", secrets.token_urlsafe(12))
            case msg.Chime(tune):
                self.outputs.chime(tune)
            case msg.Say(text, lang, after):
                record, voice = self.told.record, self.told.voice
                if voice is not None:
                    voice.say(Utterance(text, lang, record(lang, text) if record else None),
                              after=after)
            case msg.Voicing(volume, speed):
                if self.told.voice is not None:
                    self.told.voice.voicing(volume, speed)
            case msg.Hush():
                if self.told.voice is not None:
                    self.told.voice.hush()
            case msg.Light(seat, seats):
                self.outputs.light(seat, seats)
            case msg.After(kind, seconds):
                self.timers.after(kind, seconds, functools.partial(self._fired, kind))
            case msg.Cancel(kind):
                self.timers.cancel(kind)
            case msg.CancelAll():
                self.timers.cancel_all()
                self.outputs.hush()
            case msg.Dim():
                self.panel.dim(True)
            case msg.Blank():
                self.panel.sleep()
            case msg.Wake():
                self.panel.wake()
            case msg.Shift():
                self.panel.next_shift()
            case msg.Contrast(level):
                self.panel.set_contrast(level)
            case msg.UsePanel(display):
                self.layout = display.layout
                self.panel.use(self.panel_for(display))
            case msg.Restart():
                if self.run.restart is not None:
                    self.run.restart()
            case msg.Log(level, text):
                getattr(log, level)("%s", text)
        return None

    def _weighed(self, game: Game, win: tuple[int, int]) -> None:
        """The odds, from the weigher's thread: taken on the loop's."""
        self.loop.post(lambda: self.take(msg.Odds(game, win)))

    def _fired(self, kind: msg.TimerKind) -> None:
        self.take(msg.TimerFired(kind))
