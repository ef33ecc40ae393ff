"""The table's optional outputs: an LED per seat (whose turn it is) and a buzzer's tunes."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from firmware.table.loop import Timers

log = logging.getLogger("robinson.table")

TUNES = {"roll": ("C6",), "parrot": ("E6", "C6", "E6"), "death": ("C4", "G3"),
         "win": ("C5", "E5", "G5", "C6")}
"""What the buzzer plays, note by note (TonalBuzzer with octaves=2 spans A2 to A6)."""
NOTE = 0.15  # seconds a note


class Led(Protocol):
    """A gpiozero ``LED``, as the table uses it."""

    value: float

    def close(self) -> None: ...


class Buzzer(Protocol):
    """A gpiozero ``TonalBuzzer``, as the table uses it."""

    def play(self, tone: str) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


@dataclass
class Outputs:
    """One LED per seat and a buzzer, each optional."""

    leds: Sequence[Led] = ()
    buzzer: Buzzer | None = None

    def light(self, seat: int | None, seats: Sequence[int]) -> None:
        """Light ``seat``'s LED (if it plays) and no other."""
        for index, led in enumerate(self.leds, start=1):
            led.value = index == seat and index in seats

    def chime(self, tune: str, timers: Timers) -> None:
        """Play one of the TUNES, note by note on ``timers`` (never blocking the loop)."""
        buzzer = self.buzzer
        if buzzer is None:
            return

        def play(note: str | None) -> None:
            try:
                buzzer.play(note) if note else buzzer.stop()
            except Exception as error:  # a buzzer fault must not stop the game
                log.warning("buzzer: %s", error)

        for n, note in enumerate((*TUNES[tune], None)):
            timers.after(f"note{n}", n * NOTE, functools.partial(play, note))
