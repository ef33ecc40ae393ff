"""The table's rigging without a Pi: the same devices on mock pins, the panel on a PanelBus.

Built by ``firmware.devices.build`` like the real one; only the pin factory
and the panel's bus are stand-ins, so everything above them is the product.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING

from luma.core.interface.serial import i2c, spi
from PIL import Image

from firmware.config.settings import Config, Display
from firmware.devices import Rigging, build, luma_device, luma_options, wired
from firmware.display.device import LumaDevice
from firmware.display.panels import Interface
from firmware.emulate.bus import Bus, PanelBus, SpiBus
from firmware.emulate.hands import Hands
from firmware.emulate.keyboard import keys_help
from firmware.emulate.terminal import TerminalPanel
from firmware.errors import ConfigError

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

    from firmware.pins import Pins


def wire_for(display: Display) -> Bus:
    """The stand-in for the panel's wires, with a model of its controller's memory."""
    width, height = display.size
    if display.interface is Interface.I2C:
        return PanelBus(display.display, display.i2c_address, width, height, display.rotate)
    return SpiBus(display.display, width, height, display.gpio_data_command, display.rotate)


def emulated_device(display: Display, bus: Bus) -> LumaDevice:
    """The luma driver the config names, built as for the wired panel, writing to a
    stand-in bus instead of /dev/i2c-1 or /dev/spidev0.0."""
    args = luma_options(display)
    if isinstance(bus, PanelBus):
        return luma_device(display, i2c(bus=bus, address=display.i2c_address), args)
    assert isinstance(bus, SpiBus)
    interface = spi(spi=bus, gpio=bus.wires, port=display.spi_port, device=display.spi_device,
                    bus_speed_hz=display.spi_bus_speed, gpio_DC=display.gpio_data_command,
                    gpio_RST=display.gpio_reset, spi_mode=display.spi_mode or None)
    return luma_device(display, interface, args, gpio=bus.wires)


@dataclass
class EmulatedRigging(Rigging):
    """The rigging, plus what stands in for the world: the panel's wires, a terminal, and
    hands on the mock pins (once they are open)."""

    bus: Bus = field(kw_only=True)
    terminal: TerminalPanel | None = field(kw_only=True)
    seats_on: Sequence[int] = field(kw_only=True, default=())
    _hands: Hands | None = field(default=None, init=False, repr=False)

    def wire(self) -> Pins:
        """The mock pins, opened at the first call, then hands on them (on the pins'
        own factory) and the seats asked for switched on (after their devices: a pull-up
        set on a pin drives it high)."""
        pins = super().wire()
        if self._hands is None:
            self._hands = Hands(pins.button.pin_factory, self.config)
            for seat in self.seats_on:
                self._hands.seat(seat, True)
        return pins

    @property
    def hands(self) -> Hands:
        self.wire()
        assert self._hands is not None  # (made as the pins opened)
        return self._hands

    def close(self) -> None:
        if self.terminal is not None:
            self.terminal.close()
        super().close()


def emulate(config: Config, *, show_terminal: bool = False, seats_on: Sequence[int] = (),
            clock: Callable[[], float] | None = None,
            on_frame: Callable[[Image.Image], None] | None = None,
            pin_factory: MockFactory | None = None,
            pins_later: bool = False) -> EmulatedRigging:
    """The emulated rigging; ``seats_on`` are switched on, ``show_terminal`` draws the panel;
    the mock pins opened at once, or (``pins_later``) at its first ``wire()``."""
    for seat in seats_on:
        if not 1 <= seat <= len(config.pins.seats):
            raise ConfigError(f"--seats: there is no switch for seat {seat}; "
                              f"seats 1-{len(config.pins.seats)} are wired")
    bus = wire_for(config.display)
    terminal = (TerminalPanel(sys.stdout, keys_help(len(config.pins.seats))) if show_terminal
                else None)

    wires = [bus]  # the panel's wires now: a phone's panel on trial has wires of its own

    def draw() -> None:  # what the panel's memory holds, dim or dark as the panel is
        assert terminal is not None
        terminal.draw(wires[0].image(), wires[0].on, wires[0].contrast < 64)

    def panel_for(display: Display) -> Callable[[], LumaDevice]:
        """Another panel, on wires of its own (the rig's ``bus`` once it is made)."""
        def make() -> LumaDevice:
            new = wire_for(display)
            wires[0] = made[0].bus = new
            return emulated_device(display, new)
        return make

    def mock_pins() -> MockFactory:  # as the pins are opened (its module loads gpiozero)
        from gpiozero.pins import mock

        return pin_factory or mock.MockFactory(pin_class=mock.MockPWMPin)

    made: list[EmulatedRigging] = []
    rigging = build(config, clock=clock, on_frame=on_frame,
                    make_device=lambda: emulated_device(config.display, bus),
                    on_change=draw if terminal is not None else None, panel_for=panel_for,
                    make_factory=mock_pins, pins_later=True)
    if terminal is not None:  # a resized terminal is drawn again, in the loop's thread
        signal.signal(signal.SIGWINCH, lambda *_: rigging.loop.post(terminal.resize))
    parts = {f.name: getattr(rigging, f.name) for f in fields(Rigging) if f.init}
    made.append(EmulatedRigging(**parts, bus=bus, terminal=terminal, seats_on=tuple(seats_on)))
    return made[0] if pins_later else wired(made[0])
