"""The keyboard (or a pipe) as the table's hands: keys become presses and seat switches.

Keys: space or enter = short press, h = long press, m = very long press (menu),
1 to the number of wired seats toggle seat switches, q = quit (the game is saved).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Protocol, TextIO

from firmware.emulate.hands import TAP, Hands
from firmware.runtime.loop import Loop
from robinson_core.numbers import whole_number


def keys_help(seats: int) -> str:
    """The line under the terminal's panel: what each key does."""
    return f"space/enter: press · h: long · m: menu · 1-{seats}: seat switches · q: quit"


class Ready(Protocol):
    """Whether the app would take a press now (firmware.shell.pace.Pace)."""

    def wait(self, timeout: float | None = None) -> bool: ...

    def expect_press(self) -> None: ...


class AlwaysReady:
    """For an app that takes a press at any time (the selftest)."""

    def wait(self, timeout: float | None = None) -> bool:
        return True

    def expect_press(self) -> None:
        pass


def read_keys(source: TextIO, hands: Hands, ready: Ready, loop: Loop) -> None:
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
            ready.expect_press()  # (the next waits until the table has taken this one)
        if key in (" ", "\n", "\r"):
            hands.press(TAP)
        elif key in "hH":
            hands.press(hands.long)
        elif key in "mM":
            hands.press(hands.menu)
        elif (seat := whole_number(key)) is not None:
            hands.toggle_seat(seat)
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


def stdin_is_usable() -> bool:
    """Whether there is a standard input to read keys from at all."""
    try:
        os.fstat(sys.stdin.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return True
