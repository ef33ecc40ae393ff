"""The table's rigging without a Pi: the same devices on mock pins, the panel on a PanelBus.

Built by ``firmware.devices.build`` like the real one; only the pin factory
and the panel's bus are stand-ins, so everything above them is the product.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

from gpiozero.pins.mock import MockFactory, MockPWMPin
from luma.core.interface.serial import i2c, spi
from PIL import Image

from firmware.config.settings import Config, Display
from firmware.devices import Rigging, build, luma_device, luma_options
from firmware.display.device import LumaDevice
from firmware.display.panels import Interface
from firmware.emulate.bus import Bus, PanelBus, SpiBus
from firmware.emulate.hands import Hands
from firmware.emulate.keyboard import keys_help
from firmware.emulate.terminal import TerminalPanel
from firmware.errors import ConfigError


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
    """The rigging, plus what stands in for the world: hands, the panel's wires, a terminal."""

    hands: Hands
    bus: Bus
    terminal: TerminalPanel | None

    def close(self) -> None:
        if self.terminal is not None:
            self.terminal.close()
        super().close()


def emulate(config: Config, *, show_terminal: bool = False, seats_on: Sequence[int] = (),
            clock: Callable[[], float] | None = None,
            on_frame: Callable[[Image.Image], None] | None = None,
            pin_factory: MockFactory | None = None) -> EmulatedRigging:
    """The emulated rigging; ``seats_on`` are switched on, ``show_terminal`` draws the panel."""
    factory = pin_factory or MockFactory(pin_class=MockPWMPin)
    bus = wire_for(config.display)
    terminal = (TerminalPanel(sys.stdout, keys_help(len(config.pins.seats))) if show_terminal
                else None)

    wired = [bus]  # the panel's wires now: a phone's panel on trial has wires of its own

    def draw() -> None:  # what the panel's memory holds, dim or dark as the panel is
        assert terminal is not None
        terminal.draw(wired[0].image(), wired[0].on, wired[0].contrast < 64)

    def panel_for(display: Display) -> Callable[[], LumaDevice]:
        """Another panel, on wires of its own (the rig's ``bus`` once it is made)."""
        def make() -> LumaDevice:
            new = wire_for(display)
            wired[0] = made[0].bus = new
            return emulated_device(display, new)
        return make

    made: list[EmulatedRigging] = []
    rigging = build(config, pin_factory=factory, clock=clock, on_frame=on_frame,
                    make_device=lambda: emulated_device(config.display, bus),
                    on_change=draw if terminal is not None else None, panel_for=panel_for)
    if terminal is not None:  # a resized terminal is drawn again, in the loop's thread
        signal.signal(signal.SIGWINCH, lambda *_: rigging.loop.post(terminal.resize))
    hands = Hands(factory, config)
    for seat in seats_on:
        if not 1 <= seat <= len(config.pins.seats):
            rigging.close()
            if terminal is not None:
                terminal.close()
            raise ConfigError(f"--seats: there is no switch for seat {seat}; "
                              f"seats 1-{len(config.pins.seats)} are wired")
        hands.seat(seat, True)
    parts = {f.name: getattr(rigging, f.name) for f in fields(Rigging)}
    made.append(EmulatedRigging(**parts, hands=hands, bus=bus, terminal=terminal))
    return made[0]
