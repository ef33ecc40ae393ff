"""The table's optional outputs: an LED per seat (whose turn it is) and a buzzer's tunes."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from firmware.table.loop import Timers

log = logging.getLogger("robinson.table")

BUZZER_MID = "C7"  # 2,093 Hz: with octaves=1 the buzzer spans C6 to C8 (1-4 kHz)
TUNES = {"roll": ("C7",), "parrot": ("E7", "C7", "E7"), "death": ("C6", "G6", "C6"),
         "win": ("C7", "E7", "G7", "C8")}
"""What the buzzer plays, note by note: in a ceramic piezo's loud band (its resonance is
2-4 kHz; at A2-A6, where the tunes once were, it barely sounds)."""
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
