"""The table without a Pi: gpiozero's mock pins driven by the keyboard (or a pipe), and a demo.

Keys: space or enter = short press, h = long press, m = very long press (menu),
1-8 toggle seat switches, q = quit (the game is saved).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, TextIO

from gpiozero.pins.mock import MockFactory

from firmware.config import Config
from firmware.table.loop import Loop
from firmware.table.table import Mode, Table
from robinson_core import Status

KEYS_HELP = "space/enter: press · h: long · m: menu · 1-8: seat switches · q: quit"
TAP = 0.08  # how long a short press holds the button down


class Hands:
    """What a person at the table does, on the mock pins: presses and seat switches."""

    def __init__(self, factory: MockFactory, config: Config) -> None:
        self.button = factory.pin(config.pins.button)
        self.seat_pins = [factory.pin(p) for p in config.pins.seats]
        self.long = config.timings.long_press + 0.2
        self.menu = config.timings.menu_press + 0.2

    def press(self, seconds: float) -> None:
        """Hold the button for ``seconds`` (blocks: call from a thread of its own)."""
        self.button.drive_low()
        time.sleep(seconds)
        self.button.drive_high()
        self.button.clear_states()  # the mock pin would keep every edge for ever
        time.sleep(0.05)

    def toggle_seat(self, seat: int) -> None:
        if 1 <= seat <= len(self.seat_pins):
            self.seat(seat, bool(self.seat_pins[seat - 1].state))  # high = open = nobody

    def seat(self, seat: int, on: bool) -> None:
        if 1 <= seat <= len(self.seat_pins):
            pin = self.seat_pins[seat - 1]
            pin.drive_low() if on else pin.drive_high()


def read_keys(source: TextIO, hands: Hands, ready: threading.Event, loop: Loop) -> None:
    """Turn keys into presses until q or the end of the input (run in a thread).

    ``ready`` is set while the app would take a press: from a pipe, each press
    waits for it, so a script types at the pace the table can take."""
    piped = not source.isatty()
    while True:
        key = source.read(1)
        if key in ("", "q", "Q", "\x03", "\x04"):
            if piped:  # let what was typed before the end finish first
                ready.wait(timeout=5)
            loop.post(loop.stop)
            return
        if piped and key in " \nhHmM":
            ready.wait(timeout=5)
        if key in (" ", "\n", "\r"):
            hands.press(TAP)
        elif key in "hH":
            hands.press(hands.long)
        elif key in "mM":
            hands.press(hands.menu)
        elif key.isdigit():
            hands.toggle_seat(int(key))
        if piped:
            time.sleep(0.05)


class RawKeyboard:
    """A terminal in cbreak mode for the length of a ``with`` block."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._saved: list[Any] | None = None

    def __enter__(self) -> RawKeyboard:
        if self.stream.isatty():
            import termios
            import tty

            fd = self.stream.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)


class Demo:
    """Plays a whole game unattended: seats on, a long press to start, short presses on."""

    def __init__(self, hands: Hands, table: Table, loop: Loop, pause: float = 0.6) -> None:
        self.hands = hands
        self.table = table
        self.loop = loop
        self.pause = pause
        self.done = threading.Event()

    def run(self) -> None:
        """Drive the table from a thread of its own until the game is over."""
        table = self.table
        table.ready.wait(timeout=10)
        if table.mode is Mode.TITLE:
            time.sleep(self.pause)
            self.hands.press(self.hands.long)  # a new game, not a resumed one
        for seat in range(1, 5):
            self.hands.seat(seat, True)
        while not self.done.is_set():
            table.ready.wait(timeout=10)
            time.sleep(self.pause)
            game = table.game
            if table.mode is Mode.SETUP and len(table.seats.occupied()) >= 2:
                self.hands.press(self.hands.long)
            elif game is not None and game.state.status is not Status.PLAYING:
                time.sleep(self.pause * 4)
                self.loop.post(self.loop.stop)
                return
            else:
                self.hands.press(TAP)


def stdin_is_usable() -> bool:
    try:
        os.fstat(sys.stdin.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return True
