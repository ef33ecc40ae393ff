"""What a person at the table does, on gpiozero's mock pins: presses and seat switches."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from firmware.config.settings import Config

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

TAP = 0.08  # how long a short press holds the button down


class Hands:
    """The ROLL button and the seat switches, worked by hand (or by a demo, or a test)."""

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
