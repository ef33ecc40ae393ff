"""The table's pins, opened with gpiozero: the ROLL button, the seat switches, the LEDs and
the buzzer.

They are opened once the first frame is out (``firmware.devices.Rigging.wire``): on
import gpiozero reads its board data and the entry points of every installed package,
some 60 ms of a Pi's start that the title need not wait for. The pin factory is
injected (the emulator's and the tests' are gpiozero's MockFactory); on a Pi it is the
header's chip, found by its label.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from gpiozero import LED, DigitalInputDevice, TonalBuzzer
from gpiozero.exc import GPIOPinInUse

from firmware import gpiochip, timerslack
from firmware.config.settings import Config
from firmware.errors import HardwareError
from firmware.runtime.loop import Loop
from firmware.runtime.outputs import Outputs
from firmware.runtime.tunes import BUZZER_MID
from robinson_core.errors import quote

log = logging.getLogger("robinson.devices")


class PinFactory(Protocol):
    """What gpiozero asks of a pin factory (``gpiozero.Factory``): our devices take one."""

    def pin(self, spec: int) -> Any: ...

    def close(self) -> None: ...


@dataclass
class Pins:
    """The devices on the table's pins, opened from the config."""

    button: DigitalInputDevice  # not a Button: its hold thread wakes 10 times a second
    seats: list[DigitalInputDevice]
    outputs: Outputs

    def close(self) -> None:
        self.outputs.close()
        for device in (self.button, *self.seats):
            device.close()


def open_pins(config: Config, pin_factory: PinFactory | None = None,
              notes: Loop | None = None) -> Pins:
    """Every pin the config names, on ``pin_factory`` (None: the header's chip on this Pi,
    or gpiozero's own choice); ``notes`` is the loop the buzzer's notes keep time on
    (``Outputs``). A pin that cannot be had is one line naming it, with every pin
    claimed before it let go."""
    factory = pin_factory
    if factory is None:  # on a Pi: the header's chip, by its label, for gpiozero and luma
        # (lgpio's threads start as it opens, with a slack fit for the buzzer's;
        # gpiozero's own choice too, where the header's chip is not known or would not open)
        with timerslack.threads_started_with(
                timerslack.TONE_NS if config.pins.use_buzzer else None):
            factory = _header_factory() or _default_factory()
    opened: list[Any] = []

    def claim(key: str, pin: int, make: Callable[[], Any]) -> Any:
        """One device on one pin; a pin that cannot be had is one line naming it."""
        try:
            device = make()
        except Exception as error:  # gpiozero's errors, OSError, lgpio.error("GPIO busy")
            for claimed in opened:
                claimed.close()
            raise HardwareError(_claim_failed(key, pin, error,
                                              config.voice.i2s_amplifier)) from None
        opened.append(device)
        return device

    # The ROLL button as a plain input: the table times holds itself (buttons.py), and
    # gpiozero's Button starts a hold thread that wakes ten times a second for ever.
    button = claim("pins.button", config.pins.button, lambda: DigitalInputDevice(
        config.pins.button, pull_up=True, bounce_time=None, pin_factory=factory))
    seats = [claim(f"pins.seats[{i}]", p, functools.partial(
        DigitalInputDevice, p, pull_up=True, bounce_time=None, pin_factory=factory))
        for i, p in enumerate(config.pins.seats, 1)]
    leds = [claim(f"pins.leds[{i}]", p, functools.partial(LED, p, pin_factory=factory))
            for i, p in enumerate(config.pins.leds[:len(seats)], 1)] \
        if config.pins.use_leds else []
    buzzer = claim("pins.buzzer", config.pins.buzzer, lambda: TonalBuzzer(
        config.pins.buzzer, mid_tone=BUZZER_MID, octaves=1, pin_factory=factory)) \
        if config.pins.use_buzzer else None
    return Pins(button, seats, Outputs(leds=leds, buzzer=buzzer, notes=notes))


def _header_factory() -> PinFactory | None:
    """gpiozero's lgpio factory on the chip whose label is the header's, and the same
    chip for rpi-lgpio (luma's D/C and reset lines on SPI) through RPI_LGPIO_CHIP; None
    where no chip has a label this knows (gpiozero's own choice then)."""
    chip, found = gpiochip.header()
    if chip is None:
        return None
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
        made: PinFactory = LGPIOFactory(chip=chip)
    except Exception as error:  # lgpio missing, the chip busy: gpiozero's own way says why
        log.warning("GPIO chip %d (the header's) could not be opened: %s", chip, error)
        return None
    opened = getattr(made, "_chip", chip)  # what lgpio.gpiochip_open was given
    if opened != chip:
        made.close()
        raise HardwareError(
            f"gpiozero {_version('gpiozero')} opened gpiochip{opened}, not the header's "
            f"gpiochip{chip} ({found[chip]}): that gpiozero ignores "
            "the chip it is asked for; install.sh installs one that does "
            "(gpiozero>=2.0.1.post3, or Raspberry Pi OS's python3-gpiozero)")
    log.info("GPIO: the header is gpiochip%d", chip)
    return made


def _default_factory() -> PinFactory | None:
    """gpiozero's own choice of factory, made now (within the caller's timer slack, as
    lgpio starts its threads), or None: the first pin then says why none would open."""
    from gpiozero import Device

    try:
        Device.ensure_pin_factory()
    except Exception as error:  # no library at all: claim() says what to install
        log.warning("GPIO: gpiozero could make no pin factory: %s", error)
        return None
    made: PinFactory = Device.pin_factory
    return made


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "(version unknown)"


SDMODE_PIN = 4  # the max98357a overlay's SD pin unless written with no-sdmode


def _claim_failed(key: str, pin: int, error: Exception, amplifier: bool = False) -> str:
    """Why ``pin`` could not be had, and what to do, in one line."""
    said = quote(str(error) or type(error).__name__, 60)
    busy = isinstance(error, GPIOPinInUse) or "busy" in str(error).lower()
    if busy and amplifier and pin == SDMODE_PIN:
        return (f"{key}: GPIO {pin} is busy ({said}): the amplifier's overlay holds it for "
                "its SD pin unless it is written dtoverlay=max98357a,no-sdmode in "
                "config.txt (sudo ./install.sh writes it; then reboot)")
    if busy:
        return (f"{key}: GPIO {pin} is busy ({said}): another program, a HAT or a "
                "dtoverlay in config.txt (w1-gpio, pwm, ...) holds it; gpioinfo names the "
                "holder (is the service running? sudo systemctl stop robinson-table), or "
                "wire it to another pin")
    return f"{key}: cannot open GPIO {pin} ({said}): {_gpio_hint()}"


def _gpio_hint() -> str:
    """What to check when gpiozero could open no pin: the chip, then the library."""
    if not list(Path("/dev").glob("gpiochip*")):
        return "there is no GPIO chip (/dev/gpiochip*): is this a Raspberry Pi?"
    try:
        import lgpio  # noqa: F401
    except ImportError:
        return ("the lgpio module is missing: sudo apt-get install python3-lgpio "
                "python3-rpi-lgpio (./install.sh does)")
    return ("the service user must be in the gpio group, and no other program may hold "
            "the pins (is the service running? sudo systemctl stop robinson-table)")

