"""Builds the table's devices from its config: gpiozero pins, the luma panel, the outputs.

The one place where pins and the panel are made (as luma's ``cmdline`` is for
luma): the pins come from an injected pin factory, the panel from an injected
``make_device``, so the emulator and the tests build the same rigging on mock
pins and a recording bus.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from gpiozero import LED, Button, DigitalInputDevice, TonalBuzzer
from gpiozero.exc import GPIOPinInUse, GPIOZeroError
from luma.core import cmdline
from PIL import Image

from firmware.config import Config, Display
from firmware.display.device import LumaDevice
from firmware.display.panel import Panel
from firmware.errors import HardwareError
from firmware.table.loop import Loop
from firmware.table.outputs import Outputs


class PinFactory(Protocol):
    """What gpiozero asks of a pin factory (``gpiozero.Factory``): our devices take one."""

    def pin(self, spec: int) -> Any: ...

    def close(self) -> None: ...


def on_raspberry_pi() -> bool:
    """Whether this machine says it is a Raspberry Pi (its device tree's model)."""
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


def real_device(display: Display) -> LumaDevice:
    """The luma device for the wired panel, built by luma's own cmdline (raises if absent)."""
    parser = cmdline.create_parser(description="Robinson Table panel")
    args = parser.parse_args(display.luma_args())
    device: LumaDevice = cmdline.create_device(args)
    device.persist = True  # keep the last frame at exit: the 'switched off' screen
    return device


@dataclass
class Rigging:
    """The devices of one run, built from the config."""

    config: Config
    loop: Loop
    panel: Panel
    button: Button
    seats: list[DigitalInputDevice]
    outputs: Outputs

    def close(self) -> None:
        for device in (self.button, *self.seats, *self.outputs.leds, self.outputs.buzzer):
            if device is not None:
                device.close()


def build(config: Config, *, pin_factory: PinFactory | None = None,
          make_device: Callable[[], LumaDevice] | None = None,
          clock: Callable[[], float] | None = None,
          on_frame: Callable[[Image.Image], None] | None = None,
          on_change: Callable[[], None] | None = None) -> Rigging:
    """Make every device the config names.

    ``pin_factory`` None is gpiozero's default for this Pi; ``make_device``
    None is the wired panel.
    """
    loop = Loop(clock) if clock else Loop()
    panel = Panel(make_device or (lambda: real_device(config.display)),
                  config.display.contrast, on_frame=on_frame, on_change=on_change,
                  clock=loop.clock, scheduler=loop)
    factory = pin_factory
    try:
        button = Button(config.pins.button, pull_up=True, bounce_time=None, pin_factory=factory)
        seats = [DigitalInputDevice(p, pull_up=True, bounce_time=None, pin_factory=factory)
                 for p in config.pins.seats]
    except GPIOPinInUse as error:
        raise HardwareError(f"a GPIO pin is in use ({error}): is the service running? "
                            "sudo systemctl stop robinson-table") from None
    except (GPIOZeroError, OSError) as error:
        raise HardwareError(f"cannot open the GPIO pins ({error}); on a Pi 5 install "
                            "python3-lgpio, on older Pis RPi.GPIO (./install.sh does); "
                            "or run with --emulate") from None
    outputs = Outputs(
        leds=[LED(p, pin_factory=factory) for p in config.pins.leds[:len(seats)]]
        if config.pins.use_leds else (),
        buzzer=TonalBuzzer(config.pins.buzzer, octaves=2, pin_factory=factory)
        if config.pins.use_buzzer else None)
    return Rigging(config, loop, panel, button, seats, outputs)
