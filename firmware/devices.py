"""Builds the table's devices from its config: gpiozero pins, the luma panel, the outputs.

The one place where pins and the panel are made (as luma's ``cmdline`` is for
luma): the pins come from an injected pin factory, the panel from an injected
``make_device``, so the emulator and the tests build the same rigging on mock
pins and a recording bus.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib
import inspect
import logging
import os
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import luma.core.device
import luma.core.error
import luma.core.framebuffer
import luma.core.interface.serial
from gpiozero import LED, DigitalInputDevice, TonalBuzzer
from gpiozero.exc import GPIOPinInUse, PinUnknownPi
from gpiozero.pins.local import get_pi_revision
from luma.core import cmdline
from PIL import Image

from firmware import gpiochip, timerslack
from firmware.config.settings import Config, Display
from firmware.display.device import LumaDevice
from firmware.display.panel import Panel
from firmware.display.panels import Interface
from firmware.errors import HardwareError, NoBoard
from firmware.runtime.loop import Loop
from firmware.runtime.outputs import Outputs
from firmware.runtime.tunes import BUZZER_MID
from robinson_core.errors import quote

I2C_FUNC_I2C = 0x00000001  # linux/i2c.h: the adapter takes plain I2C messages (i2c_rdwr)


log = logging.getLogger("robinson.devices")


class PinFactory(Protocol):
    """What gpiozero asks of a pin factory (``gpiozero.Factory``): our devices take one."""

    def pin(self, spec: int) -> Any: ...

    def close(self) -> None: ...


def pi_revision() -> int | None:
    """This board's revision code, read as gpiozero reads it, or None if this is no Pi.

    gpiozero looks in /proc/device-tree, then in the Revision line of
    /proc/cpuinfo: the service must be able to see one of them (the unit keeps
    /proc's system files visible for that).
    """
    try:
        revision: int = get_pi_revision()
    except (PinUnknownPi, OSError, ValueError):
        return None
    return revision


def on_raspberry_pi() -> bool:
    """Whether this machine is a Raspberry Pi, as gpiozero will see it."""
    return pi_revision() is not None


def wants_emulation(choice: str, *, systemd: bool) -> bool:
    """Whether to run emulated: ``choice`` is the config's or --hardware's auto, pi or emulate.

    auto takes the Pi where there is one; elsewhere it emulates, at a terminal or
    piped (the keys from stdin, the pages as text on stdout), but never under
    systemd: a service that finds no board must say so and fail, not run a table
    nobody sees.
    """
    if choice == "emulate":
        return True
    if on_raspberry_pi():
        return False
    if choice == "auto" and not systemd:
        return True
    where = "--hardware pi" if choice == "pi" else "under systemd"
    raise NoBoard(
        f"no Raspberry Pi found ({where}): gpiozero reads the board from /proc/device-tree "
        "or the Revision line of /proc/cpuinfo, and neither names one; "
        "to run the table emulated, use --hardware emulate")


class PanelMissing(OSError):
    """The panel's bus or the panel itself is not there: said in one line, what to check."""


class I2CBus(Protocol):
    """What we ask of an smbus2 ``SMBus`` (luma's ``i2c(bus=...)`` takes one)."""

    @property
    def funcs(self) -> int: ...

    def write_quick(self, address: int) -> None: ...

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None: ...

    def close(self) -> None: ...


def real_device(display: Display,
                open_bus: Callable[[int], I2CBus] | None = None) -> LumaDevice:
    """The luma device for the wired panel, with luma's own option names (raises if absent).

    On I2C the panel is probed before luma is asked to build anything; an
    adapter without full I2C (I2C_FUNC_I2C) gets SMBus block writes instead of
    luma's i2c_rdwr. luma's exit hook is never registered: the Panel closes
    what it made (``Panel.close``), so a device whose start fails, or that is
    dropped after a fault, leaves no open file and no hook that would blank
    the panel at exit.
    """
    args = luma_options(display)
    if display.interface is Interface.I2C:
        interface = _i2c_interface(display, open_bus or _smbus)
    else:
        try:
            interface = cmdline.make_interface(args).spi()
        except luma.core.error.UnsupportedPlatform as error:  # RPi.GPIO's reason, swallowed
            raise PanelMissing(f"{error}: {_rpi_gpio_problem()}") from None
    return luma_device(display, interface, args)


def _rpi_gpio_problem() -> str:
    """Why RPi.GPIO (rpi-lgpio), which luma drives an SPI panel's D/C and reset lines
    with, would not start: luma says only 'GPIO access not available'."""
    try:
        gpio = importlib.import_module("RPi.GPIO")
        gpio.setmode(gpio.BCM)
    except Exception as error:
        return (f"RPi.GPIO says {quote(str(error) or type(error).__name__, 80)} (it is "
                "python3-rpi-lgpio; sudo ./install.sh installs it)")
    return "RPi.GPIO starts now: try again"


def luma_options(display: Display) -> Any:
    """luma.core.cmdline's parsed options for this panel, as luma's own tools take them."""
    return cmdline.create_parser(description="Robinson Table panel").parse_args(
        display.luma_args())


def luma_device(display: Display, interface: Any, args: Any, gpio: Any = None) -> LumaDevice:
    """The config's luma driver on ``interface`` (a real bus or a stand-in), built as
    luma's ``cmdline.create_device`` builds it; ``gpio`` is the TFT backlight's (luma.lcd:
    None takes RPi.GPIO, as luma does)."""
    try:
        module = importlib.import_module(f"{display.kind.package}.device")
    except ImportError:
        interface.cleanup()
        raise PanelMissing(f"{display.display} needs {display.kind.package}: "
                           f"sudo ./install.sh installs it for this config "
                           f"(or pip install 'robinson-table[{display.kind.extra}]')") from None
    driver = getattr(module, display.display)
    framebuffer = getattr(luma.core.framebuffer, args.framebuffer)(
        num_segments=args.num_segments, debug=args.debug)
    params = dict(vars(args), framebuffer=framebuffer, mode=display.kind.mode)
    if display.kind.package == "luma.lcd":
        params.update(gpio=gpio if gpio is not None else getattr(interface, "_gpio", None),
                      gpio_LIGHT=display.gpio_backlight,
                      active_low=display.backlight_active == "low")
    taken = _parameters(driver)  # luma.lcd's TFTs pass unknown options on, and fail on them
    try:
        with _without_exit_hooks():
            device: LumaDevice = driver(serial_interface=interface,
                                        **{k: v for k, v in params.items() if k in taken})
    except Exception:
        interface.cleanup()
        raise
    device.persist = True  # keep the last frame at exit: the 'switched off' screen
    return device


def _parameters(driver: type) -> set[str]:
    """The named parameters of a luma driver's constructor and those it hands them to."""
    names: set[str] = set()
    # Not object's: it takes nothing, and reading its text signature starts Python's
    # tokenizer (0.1 s of the service's start in the virtual Pi).
    for cls in driver.__mro__[:-1]:
        init = cls.__dict__.get("__init__")
        if init is not None:
            names |= {p.name for p in inspect.signature(init).parameters.values()
                      if p.kind is p.POSITIONAL_OR_KEYWORD or p.kind is p.KEYWORD_ONLY}
    return names - {"self", "serial_interface"}


class BlockWrites(luma.core.interface.serial.i2c):  # type: ignore[misc]  # luma is untyped
    """luma's i2c on a bus we opened: SMBus block writes of 32 bytes, for adapters
    without plain I2C (i2c-stub, some USB adapters); closing it closes the bus."""

    def cleanup(self) -> None:
        self._bus.close()


def _smbus(port: int) -> I2CBus:
    import smbus2

    bus: I2CBus = smbus2.SMBus(port)
    return bus


def _i2c_interface(display: Display, open_bus: Callable[[int], I2CBus]) -> Any:
    """luma's i2c interface to the panel, once the panel has answered its address."""
    from luma.core.interface.serial import i2c

    path = f"/dev/i2c-{display.i2c_port}"
    try:
        bus = open_bus(display.i2c_port)
    except FileNotFoundError:
        raise PanelMissing(f"no I2C bus {path}: is I2C enabled? "
                           "(sudo raspi-config nonint do_i2c 0, then reboot)") from None
    try:
        bus.write_quick(display.i2c_address)
    except OSError:
        bus.close()
        raise PanelMissing(f"no panel answers at {display.i2c_address:#04x} on {path}: "
                           "check its wiring and i2c_address (i2cdetect -y "
                           f"{display.i2c_port})") from None
    if bus.funcs & I2C_FUNC_I2C:
        bus.close()  # luma opens its own and sends a frame in one i2c_rdwr transfer
        return i2c(port=display.i2c_port, address=display.i2c_address)
    return BlockWrites(bus=bus, address=display.i2c_address)


@contextlib.contextmanager
def _without_exit_hooks() -> Iterator[None]:
    """luma registers an exit hook per device as it is built, before the panel has
    answered; each would keep its device (and bus) for ever. Build without them.

    luma has no option for this, so its module's private ``atexit`` name is swapped for
    the build (the table builds devices on one thread); tests/app/test_private_internals.py
    pins that luma still registers through that name."""
    module = luma.core.device
    module.atexit = types.SimpleNamespace(register=lambda hook: None)
    try:
        yield
    finally:
        module.atexit = atexit


@dataclass
class Rigging:
    """The devices of one run, built from the config."""

    config: Config
    loop: Loop
    panel: Panel
    button: DigitalInputDevice  # not a Button: its hold thread wakes 10 times a second
    seats: list[DigitalInputDevice]
    outputs: Outputs
    panel_for: Callable[[Display], Callable[[], LumaDevice]]
    """A maker of the device of another panel (a phone's, on trial): the wired one's."""

    def close(self) -> None:
        self.panel.close()
        self.outputs.close()
        for device in (self.button, *self.seats):
            device.close()


def build(config: Config, *, pin_factory: PinFactory | None = None,
          make_device: Callable[[], LumaDevice] | None = None,
          clock: Callable[[], float] | None = None,
          on_frame: Callable[[Image.Image], None] | None = None,
          on_change: Callable[[], None] | None = None,
          panel_for: Callable[[Display], Callable[[], LumaDevice]] | None = None) -> Rigging:
    """Make every device the config names.

    ``pin_factory`` None is gpiozero's default for this Pi; ``make_device``
    None is the wired panel.
    """
    loop = Loop(clock) if clock else Loop()
    factory = pin_factory
    if factory is None:  # on a Pi: the header's chip, by its label, for gpiozero and luma
        # (opened first: lgpio's threads start then, with a slack fit for the buzzer's;
        # gpiozero's own choice too, where the header's chip is not known or would not open)
        with timerslack.threads_started_with(
                timerslack.TONE_NS if config.pins.use_buzzer else None):
            factory = _header_factory() or _default_factory()
    if make_device is None:  # the wired panel: it must be there at start
        make_device = _wired_panel(config.display)
    panel = Panel(make_device,
                  config.display.contrast, on_frame=on_frame, on_change=on_change,
                  clock=loop.clock, scheduler=loop)
    opened: list[Any] = []

    def claim(key: str, pin: int, make: Callable[[], Any]) -> Any:
        """One device on one pin; a pin that cannot be had is one line naming it."""
        try:
            device = make()
        except Exception as error:  # gpiozero's errors, OSError, lgpio.error("GPIO busy")
            for claimed in opened:
                claimed.close()
            panel.close()
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
    # The notes keep time on a thread of their own, but where time is a manual clock's
    # (it moves only when a test or the bench moves it): on the table's loop there.
    notes = loop if clock is not None else None
    return Rigging(config, loop, panel, button, seats,
                   Outputs(leds=leds, buzzer=buzzer, notes=notes),
                   panel_for or (lambda display: functools.partial(real_device, display)))


def _header_factory() -> PinFactory | None:
    """gpiozero's lgpio factory on the chip whose label is the header's, and the same
    chip for rpi-lgpio (luma's D/C and reset lines on SPI) through RPI_LGPIO_CHIP; None
    where no chip has a label this knows (gpiozero's own choice then)."""
    found = gpiochip.labels()
    chip = gpiochip.header_chip(found)
    if chip is None:
        return None
    os.environ.setdefault("RPI_LGPIO_CHIP", str(chip))
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


def _wired_panel(display: Display) -> Callable[[], LumaDevice]:
    """The wired panel's maker, having made it once: a table that starts with no panel
    stops with one line (systemd starts it again), rather than run in the dark."""
    try:
        first = [real_device(display)]
    except Exception as error:
        raise HardwareError(f"the panel ({display.display} on {display.interface}): "
                            f"{error}") from None

    def make() -> LumaDevice:
        return first.pop() if first else real_device(display)

    return make


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

