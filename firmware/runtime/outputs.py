"""The table's optional outputs: an LED per seat (whose turn it is) and a buzzer's tunes."""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Sequence
from typing import Protocol

from firmware.runtime.loop import Loop, Timers
from firmware.runtime.tunes import NOTE, Tune

log = logging.getLogger("robinson.table")

STOP_WITHIN = 1.0  # s: the notes' thread, at close


class Led(Protocol):
    """A gpiozero ``LED``, as the table uses it."""

    value: float

    def close(self) -> None: ...


class Buzzer(Protocol):
    """A gpiozero ``TonalBuzzer``, as the table uses it."""

    def play(self, tone: str) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


class Outputs:
    """One LED per seat and a buzzer, each optional.

    The buzzer's notes keep time on ``notes``, a loop: the table's own where time is a
    manual clock's (tests, the bench), and otherwise (None) a loop of their own, on a
    thread started with the first tune. The table's loop waits on the panel's writes, up
    to 80 ms a part at I2C's 100 kHz (display/panel.py), and a note timed there lasted
    that much longer: a roll's 150 ms beep came out at 196 ms in the virtual Pi, and a
    tune's notes unevenly.
    """

    def __init__(self, leds: Sequence[Led] = (), buzzer: Buzzer | None = None,
                 notes: Loop | None = None) -> None:
        self.leds = leds
        self.buzzer = buzzer
        self._own = notes is None  # a loop of the notes' own: its thread starts with a tune
        self._timers: Timers[str] = Timers(Loop() if notes is None else notes)
        self._thread: threading.Thread | None = None
        self._notes: collections.deque[str | None] = collections.deque()

    def light(self, seat: int | None, seats: Sequence[int]) -> None:
        """Light ``seat``'s LED (if it plays) and no other."""
        for index, led in enumerate(self.leds, start=1):
            led.value = index == seat and index in seats

    def chime(self, tune: Tune) -> None:
        """Play ``tune`` note by note (never blocking the caller); a tune that comes while
        another plays follows it after a rest, never cutting it short."""
        if self.buzzer is None:
            return
        if self._own and self._thread is None:
            self._thread = threading.Thread(target=self._timers.loop.run,
                                            name="robinson-notes", daemon=True)
            self._thread.start()
        self._timers.loop.post(lambda: self._queue(tune))

    def hush(self) -> None:
        """Silence: the note sounding stops, and the notes to come are dropped."""
        if self.buzzer is not None:
            self._timers.loop.post(self._hush)

    def close(self) -> None:
        """At exit: the notes' own thread stops, then every output is let go."""
        if self._thread is not None:
            self._timers.loop.stop()
            self._thread.join(STOP_WITHIN)
            self._thread = None
        for device in (*self.leds, self.buzzer):
            if device is not None:
                device.close()

    def _queue(self, tune: Tune) -> None:
        self._notes.extend((*tune.value, None))  # None: silence, the rest after the tune
        if "note" not in self._timers:
            self._next()

    def _next(self) -> None:
        note = self._notes.popleft()
        self._sound(note)
        if self._notes:
            self._timers.after("note", NOTE, self._next)

    def _hush(self) -> None:
        self._timers.cancel("note")
        self._notes.clear()
        self._sound(None)

    def _sound(self, note: str | None) -> None:
        try:
            self.buzzer.play(note) if note else self.buzzer.stop()  # type: ignore[union-attr]
        except Exception as error:  # a buzzer fault must not stop the game
            log.warning("buzzer: %s", error)
