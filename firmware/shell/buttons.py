"""The ROLL button and the seat switches: gpiozero devices, our own debounce.

gpiozero's mock pins keep ``bounce_time`` but never apply it (``MockPin._set_bounce``:
"Need to implement this"), and the
game must not depend on a back-end's kernel debounce: every edge goes to the
loop, and a level counts only once it has stayed put for ``debounce`` seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from firmware.runtime.loop import Loop, Timer
from firmware.table.messages import Press

__all__ = ["Debounced", "Input", "Press", "RollButton", "SeatSwitches"]


class Input(Protocol):
    """A gpiozero ``Button`` or ``DigitalInputDevice``, as the table reads it."""

    @property
    def is_active(self) -> bool: ...

    when_activated: Callable[[], None] | None
    when_deactivated: Callable[[], None] | None


@dataclass
class _Settling:
    """One input's last stable level and the timer that will confirm a new one."""

    stable: bool
    since: float  # when the current burst of edges began
    timer: Timer | None = None


class Debounced:
    """A gpiozero input whose level changes reach ``on_change(level, at)`` once settled."""

    def __init__(self, device: Input, loop: Loop, debounce: float,
                 on_change: Callable[[bool, float], None]) -> None:
        self.device = device
        self.loop = loop
        self.debounce = debounce
        self.on_change = on_change
        self.state = _Settling(bool(device.is_active), loop.clock())
        # gpiozero calls these from its own thread on a Pi: hand them to the loop.
        device.when_activated = self._edge
        device.when_deactivated = self._edge

    @property
    def level(self) -> bool:
        """The settled level: True = pressed (button) or on (seat switch)."""
        return self.state.stable

    def _edge(self) -> None:
        at = self.loop.clock()
        self.loop.post(lambda: self._edge_in_loop(at))

    def _edge_in_loop(self, at: float) -> None:
        state = self.state
        if state.timer is None:
            state.since = at
        else:
            state.timer.cancel()
        state.timer = self.loop.call_at(at + self.debounce, self._settle)

    def _settle(self) -> None:
        state = self.state
        state.timer = None
        level = bool(self.device.is_active)
        if level != state.stable:
            state.stable = level
            self.on_change(level, state.since)


class RollButton:
    """Turns the settled button into presses: short, long (>= 1 s) or menu (>= 3 s).

    A press is reported on release, with how long it was held. While the
    button is held, ``on_hold`` is told when it passes each threshold, so the
    screen can say what letting go will do. A button already down at start
    (held at boot, or stuck) gives no press until it has been released.
    """

    def __init__(self, device: Input, loop: Loop, *, debounce: float, long_press: float,
                 menu_press: float, on_press: Callable[[Press], None],
                 on_hold: Callable[[Press | None], None] = lambda kind: None,
                 on_down: Callable[[], None] = lambda: None) -> None:
        self.loop = loop
        self.long_press = long_press
        self.menu_press = menu_press
        self.on_press = on_press
        self.on_hold = on_hold
        self.on_down = on_down
        self._down_at: float | None = None
        self._hold_timers: list[Timer] = []
        self.input = Debounced(device, loop, debounce, self._change)
        self.stuck = self.input.level  # down at start: ignore until released

    def _change(self, pressed: bool, at: float) -> None:
        if pressed:
            if self.stuck:
                return
            self._down_at = at
            self.on_down()
            self._hold_timers = [
                self.loop.call_at(at + self.long_press, lambda: self.on_hold(Press.LONG)),
                self.loop.call_at(at + self.menu_press, lambda: self.on_hold(Press.MENU)),
            ]
            return
        for timer in self._hold_timers:
            timer.cancel()
        if self.stuck:
            self.stuck = False
            self.on_hold(None)
            return
        if self._down_at is None:
            return
        held, self._down_at = at - self._down_at, None
        if held >= self.menu_press:
            kind = Press.MENU
        elif held >= self.long_press:
            kind = Press.LONG
        else:
            kind = Press.SHORT
        self.on_press(kind)


class SeatSwitches:
    """One toggle per seat: ON (closed to ground) means someone sits there."""

    def __init__(self, devices: Sequence[Input], loop: Loop, debounce: float,
                 on_change: Callable[[int, bool], None]) -> None:
        self.inputs = [
            Debounced(device, loop, debounce, self._changed(seat, on_change))
            for seat, device in enumerate(devices, start=1)]

    @staticmethod
    def _changed(seat: int, on_change: Callable[[int, bool], None]
                 ) -> Callable[[bool, float], None]:
        return lambda level, at: on_change(seat, level)

    def occupied(self) -> tuple[int, ...]:
        """The seats switched on, as settled."""
        return tuple(seat for seat, switch in enumerate(self.inputs, start=1) if switch.level)
