"""The table's optional outputs: an LED per seat (whose turn it is) and a buzzer's tunes."""

from __future__ import annotations

import collections
import logging
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from firmware.runtime.loop import Timers
from firmware.runtime.tunes import NOTE, Tune

K = TypeVar("K", bound=Hashable)

log = logging.getLogger("robinson.table")


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
    _notes: collections.deque[str | None] = field(default_factory=collections.deque)

    def light(self, seat: int | None, seats: Sequence[int]) -> None:
        """Light ``seat``'s LED (if it plays) and no other."""
        for index, led in enumerate(self.leds, start=1):
            led.value = index == seat and index in seats

    def chime(self, tune: Tune, timers: Timers[K], key: K) -> None:
        """Play ``tune`` note by note on ``timers``, under the timer ``key`` (never blocking
        the loop); a tune that comes while another plays follows it after a rest, never
        cutting it short."""
        if self.buzzer is None:
            return
        self._notes.extend((*tune.value, None))  # None: silence, the rest after the tune
        if key not in timers:
            self._next(timers, key)

    def _next(self, timers: Timers[K], key: K) -> None:
        note = self._notes.popleft()
        try:
            self.buzzer.play(note) if note else self.buzzer.stop()  # type: ignore[union-attr]
        except Exception as error:  # a buzzer fault must not stop the game
            log.warning("buzzer: %s", error)
        if self._notes:
            timers.after(key, NOTE, lambda: self._next(timers, key))
