"""Builds the table's devices from its config: the luma panel first, then gpiozero's pins.

The one place where the panel and the pins are made (as luma's ``cmdline`` is for
luma): the panel from an injected ``make_device``, the pins from an injected pin
factory (``firmware.pins``), so the emulator and the tests build the same rigging on a
recording bus and mock pins. The panel is made at once; the table draws its first
frame on it before the pins are opened (``Rigging.wire``), as gpiozero takes some
60 ms of a Pi's start to load.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib
import inspect
import logging
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import luma.core.device
import luma.core.error
import luma.core.framebuffer
import luma.core.interface.serial
from luma.core import cmdline
from PIL import Image

from firmware import gpiochip, timerslack
from firmware.config.settings import Config, Display
from firmware.display.device import LumaDevice
from firmware.display.panel import Panel
from firmware.display.panels import Interface
from firmware.errors import HardwareError, NoBoard
from firmware.revision import on_raspberry_pi
from firmware.runtime.loop import Loop
from robinson_core.errors import quote

if TYPE_CHECKING:
    from firmware.pins import PinFactory, Pins

I2C_FUNC_I2C = 0x00000001  # linux/i2c.h: the adapter takes plain I2C messages (i2c_rdwr)


log = logging.getLogger("robinson.devices")


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
    """The devices of one run, built from the config: the panel at once, the pins at the
    first ``wire()`` (``build`` opens them too, unless asked to leave them for later)."""

    config: Config
    loop: Loop
    panel: Panel
    panel_for: Callable[[Display], Callable[[], LumaDevice]]
    """A maker of the device of another panel (a phone's, on trial): the wired one's."""
    opener: Callable[[], Pins] = field(repr=False)
    _pins: Pins | None = field(default=None, init=False, repr=False)

    def wire(self) -> Pins:
        """The pins, opened at the first call (gpiozero loads then): a pin that cannot be
        had raises ``HardwareError``, naming it."""
        if self._pins is None:
            self._pins = self.opener()
        return self._pins

    def close(self) -> None:
        self.panel.close()
        if self._pins is not None:
            self._pins.close()


R = TypeVar("R", bound=Rigging)


def build(config: Config, *, pin_factory: PinFactory | None = None,
          make_device: Callable[[], LumaDevice] | None = None,
          clock: Callable[[], float] | None = None,
          on_frame: Callable[[Image.Image], None] | None = None,
          on_change: Callable[[], None] | None = None,
          panel_for: Callable[[Display], Callable[[], LumaDevice]] | None = None,
          make_factory: Callable[[], PinFactory] | None = None,
          pins_later: bool = False) -> Rigging:
    """Make every device the config names: the panel, then (unless ``pins_later``: at the
    rigging's first ``wire()``) the pins.

    ``pin_factory`` None is ``make_factory``'s, made as the pins are opened (the
    emulator's mock pins: their module loads gpiozero), else gpiozero's default for
    this Pi; ``make_device`` None is the wired panel.
    """
    loop = Loop(clock) if clock else Loop()
    if make_device is None:  # the wired panel: it must be there at start
        spi = config.display.interface is not Interface.I2C
        # On SPI, luma drives D/C and reset through rpi-lgpio, which opens the header's
        # chip now and starts lgpio's threads: with the buzzer's slack (firmware.pins).
        with timerslack.threads_started_with(
                timerslack.TONE_NS if spi and config.pins.use_buzzer else None):
            if spi:
                gpiochip.header()
            make_device = _wired_panel(config.display)
    panel = Panel(make_device,
                  config.display.contrast, on_frame=on_frame, on_change=on_change,
                  clock=loop.clock, scheduler=loop)
    # The notes keep time on a thread of their own, but where time is a manual clock's
    # (it moves only when a test or the bench moves it): on the table's loop there.
    notes = loop if clock is not None else None

    def opener() -> Pins:
        from firmware.pins import open_pins

        factory = pin_factory if pin_factory is not None or make_factory is None \
            else make_factory()
        return open_pins(config, factory, notes)

    rigging = Rigging(config, loop, panel,
                      panel_for or (lambda display: functools.partial(real_device, display)),
                      opener)
    return rigging if pins_later else wired(rigging)


def wired(rigging: R) -> R:
    """``rigging`` with its pins open; if they cannot be, closed, and the error raised."""
    try:
        rigging.wire()
    except BaseException:
        rigging.close()
        raise
    return rigging


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


