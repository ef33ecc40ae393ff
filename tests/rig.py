"""A whole table on a test bench: real gpiozero devices on mock pins, the real luma driver on
a decoding bus, real files, and a clock the test moves by hand."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from PIL import Image

from firmware.config.settings import Config, Display
from firmware.display.fonts import Fonts
from firmware.display.paging import essential_page
from firmware.display.render import render
from firmware.display.screen import Screen
from firmware.emulate.bus import Bus
from firmware.emulate.rig import emulate
from firmware.runtime.loop import ManualClock, advance
from firmware.saves.store import Store
from firmware.shell.die import Die
from firmware.shell.parts import Run, Told, Voice
from firmware.shell.table import Table
from firmware.table.prefs import PREF_KEYS
from firmware.table.state import Mode
from robinson_core import Game

FONTS = Fonts()


class ScriptedDie(Die):
    """Chance, injected: the faces a test wants, in order."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.rolled = 0

    def roll(self) -> int:
        self.rolled += 1
        return self.faces.pop(0)


class Rig:
    def __init__(self, state_dir: Path, *, faces: Iterable[int] = (), seats_on: Iterable[int] = (),
                 chip: str = "ssd1306", config: Config | None = None, animate: bool = True,
                 lang: str | None = None, held_at_boot: bool = False, start: bool = True,
                 die: Die | None = None,
                 mounts: Callable[[], str | None] | None = None,
                 voice: Voice | None = None, voice_on: bool | None = None,
                 restart: Callable[[], None] | None = None) -> None:
        self.config = config or Config(display=Display(display=chip))
        self.clock = ManualClock(1000.0)
        # The app's own builder: mock pins, the real luma driver on the decoding bus.
        self.rigging = emulate(self.config, clock=self.clock, seats_on=tuple(seats_on))
        self.loop, self.panel = self.rigging.loop, self.rigging.panel
        self.button_pin = self.rigging.hands.button
        self.seat_pins = self.rigging.hands.seat_pins
        if held_at_boot:
            self.button_pin.drive_low()
        self.store = Store(state_dir, pref_keys=PREF_KEYS)
        self.die = die or ScriptedDie(faces)
        self.table = Table(self.rigging, self.store, die=self.die, fonts=FONTS,
                           run=Run(lang=lang, animate=animate, voice_on=voice_on, mounts=mounts,
                                   restart=restart),
                           told=Told(voice=voice))
        if start:
            self.table.start()
            self.run()

    @property
    def bus(self) -> Bus:
        """The panel's wires now (a phone's panel on trial has wires of its own)."""
        return self.rigging.bus

    @property
    def game(self) -> Game:
        """The game in play (there must be one)."""
        game = self.table.game
        assert game is not None
        return game

    @property
    def rolled(self) -> int:
        """How many times the scripted die was rolled."""
        assert isinstance(self.die, ScriptedDie)
        return self.die.rolled

    def close(self) -> None:
        self.rigging.close()
        self.store.close()

    # -- time and hands ------------------------------------------------------------

    def run(self) -> None:
        self.loop.run_until_idle()

    def wait(self, seconds: float) -> None:
        advance(self.loop, self.clock, seconds)

    def hold(self, seconds: float) -> None:
        self.button_pin.drive_low()
        self.run()
        self.wait(seconds)
        self.button_pin.drive_high()
        self.run()
        self.wait(0.05)

    def short(self, read: bool = True) -> None:
        """A short press; ``read``: as a player who has read the result first."""
        if read:
            self.read()
        self.hold(0.1)

    def long(self, read: bool = True) -> None:
        if read:
            self.read()
        self.hold(self.config.timings.long_press + 0.1)

    def read(self) -> None:
        """What a player does before acting on a result: wait until its money and
        instructions have been on the panel, and, if another player decides next,
        press once for their screen (tests of quick presses pass ``read=False``)."""
        table = self.table
        if table.mode is not Mode.PLAY:
            return
        while table.state.panel.seen < essential_page(table.screen, FONTS, table.layout):
            self.wait(self.config.timings.page)
        if table.state.ask_next:
            self.hold(0.1)

    def menu(self) -> None:
        self.hold(self.config.timings.menu_press + 0.1)

    def settle(self) -> None:
        """Let any animation and timers of the moment play out."""
        self.wait(1.2)

    def seat(self, seat: int, on: bool) -> None:
        pin = self.seat_pins[seat - 1]
        pin.drive_low() if on else pin.drive_high()
        self.run()
        self.wait(0.05)

    # -- what the panel shows --------------------------------------------------------

    def shown(self) -> Image.Image:
        """What a real panel would show: the driver's bytes, decoded."""
        return self.bus.image()

    def showing(self, screen: Screen, page: int = 0) -> bool:
        """Whether the panel shows ``screen`` as drawn for it (what its memory can hold)."""
        intended = render(screen, FONTS, page, self.table.layout)
        return self.shown().tobytes() == self.bus.memory.expected(intended).tobytes()
