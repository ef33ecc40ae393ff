"""Builds the table from its config, on the Pi's pins and panel or emulated, and runs it.

This is the one place where devices are made (gpiozero pins, the luma panel).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpiozero import LED, Button, DigitalInputDevice, TonalBuzzer
from gpiozero.exc import GPIOPinInUse, GPIOZeroError
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image

from firmware import config as configuration
from firmware.display.panel import Panel, emulated_device, real_device
from firmware.emulate.bus import PanelBus
from firmware.emulate.keyboard import (
    KEYS_HELP,
    Demo,
    Hands,
    RawKeyboard,
    read_keys,
    stdin_is_usable,
)
from firmware.emulate.terminal import TerminalPanel
from firmware.notify import Notifier
from firmware.table.die import Die, SeededDie
from firmware.table.loop import Loop
from firmware.table.store import Store
from firmware.table.table import Outputs, Table
from robinson_core import RobinsonError

log = logging.getLogger("robinson")

SYSTEM_STATE_DIR = Path("/var/lib/robinson-table")


class HardwareError(RobinsonError):
    """The pins or the panel cannot be opened: what to do about it, in one line."""


def on_raspberry_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


def state_dir(given: str | None, emulated: bool) -> Path:
    """Where saved games live: --state-dir, systemd's StateDirectory, or the usual place."""
    if given:
        return Path(given)
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    if not emulated:
        return SYSTEM_STATE_DIR
    base = os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state")
    return Path(base) / "robinson-table"


class Capture:
    """Writes every frame shown as a numbered PNG (--capture DIR), and a line per frame in
    frames.log with the actions of the game the table held when the frame went out."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.count = len(list(directory.glob("frame-*.png")))  # a restart goes on numbering
        self.log = open(directory / "frames.log", "a", encoding="utf-8")  # noqa: SIM115
        self.note: Callable[[], str] = lambda: ""

    def __call__(self, image: Image.Image) -> None:
        self.count += 1
        name = f"frame-{self.count:05d}.png"
        image.save(self.directory / name)
        self.log.write(f"{name} {self.note()}\n")
        self.log.flush()


@dataclass
class Rigging:
    """The devices of one run, built from the config: real on a Pi, mock pins elsewhere."""

    config: configuration.Config
    loop: Loop
    panel: Panel
    button: Button
    seats: list[DigitalInputDevice]
    outputs: Outputs
    hands: Hands | None  # emulated: what the keyboard drives
    terminal: TerminalPanel | None
    capture: Capture | None
    bus: PanelBus | None  # emulated: the panel's wires

    def close(self) -> None:
        if self.terminal is not None:
            self.terminal.close()
        for device in (self.button, *self.seats, *self.outputs.leds, self.outputs.buzzer):
            if device is not None:
                device.close()


def build(config: configuration.Config, *, emulated: bool, capture: str | None = None,
          show_terminal: bool = False, seats_on: Sequence[int] = (),
          clock: Callable[[], float] | None = None, pin_factory: Any = None) -> Rigging:
    """Make every device the config names: the one place where pins and the panel are made.

    The pins come from ``pin_factory`` if given, else gpiozero's mock pins when
    emulated, else gpiozero's default for this Pi."""
    loop = Loop(clock) if clock else Loop()
    factory: Any = pin_factory
    if factory is None and emulated:
        factory = MockFactory(pin_class=MockPWMPin)
    terminal = None
    on_change: Callable[[], None] | None = None
    if emulated:
        bus = PanelBus(config.display.display, config.display.i2c_address)

        def make_device() -> Any:
            return emulated_device(config.display, bus)

        if show_terminal:
            terminal = TerminalPanel(sys.stdout, KEYS_HELP)
            on_change = _terminal_drawer(terminal, bus)
    else:

        def make_device() -> Any:
            return real_device(config.display)

    frames = Capture(Path(capture)) if capture else None
    panel = Panel(make_device, config.display.contrast, on_frame=frames, on_change=on_change,
                  clock=loop.clock)
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
    hands = Hands(factory, config) if emulated else None
    if hands is not None:
        for seat in seats_on:
            if not 1 <= seat <= len(config.pins.seats):
                raise configuration.ConfigError(
                    f"--seats: there is no switch for seat {seat}; "
                    f"seats 1-{len(config.pins.seats)} are wired")
            hands.seat(seat, True)
    outputs = Outputs(
        leds=[LED(p, pin_factory=factory) for p in config.pins.leds[:len(seats)]]
        if config.pins.use_leds else (),
        buzzer=TonalBuzzer(config.pins.buzzer, octaves=2, pin_factory=factory)
        if config.pins.use_buzzer else None)
    return Rigging(config, loop, panel, button, seats, outputs, hands, terminal, frames,
                   bus if emulated else None)


def _config_and_mode(args: argparse.Namespace) -> tuple[configuration.Config, bool]:
    path = Path(args.config) if args.config else configuration.default_path()
    config = configuration.load(path)
    emulated = bool(args.emulate or getattr(args, "demo", False) or not on_raspberry_pi())
    return config, emulated


def _on_signals(loop: Loop) -> None:
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, lambda *_: loop.post(loop.stop))


def run_table(args: argparse.Namespace) -> int:
    """``robinson table``: returns the exit status."""
    config, emulated = _config_and_mode(args)
    if args.seed is not None and not emulated:
        raise configuration.ConfigError("--seed is only for emulated demos, never on the table")
    store = Store(state_dir(args.state_dir, emulated))
    show_terminal = emulated and sys.stdout.isatty()
    _logging(store.directory if show_terminal else None)
    rig = build(config, emulated=emulated, capture=args.capture, show_terminal=show_terminal,
                seats_on=args.seats)
    loop = rig.loop
    table = Table(config=config, loop=loop, store=store, panel=rig.panel, button=rig.button,
                  seats=rig.seats, die=SeededDie(args.seed) if args.seed is not None else Die(),
                  outputs=rig.outputs, lang=args.lang, animate=not args.no_animation,
                  badge="DEMO" if args.demo or args.seed is not None else "")
    if rig.capture is not None:
        rig.capture.note = lambda: "actions=" + ",".join(
            a.token for a in (table.game.actions if table.game else ()))
    _on_signals(loop)

    table.start()
    notifier = Notifier()
    notifier.ready()  # the first frame is out (or the panel is known missing and retried)
    if notifier.watchdog:
        _watchdog(loop, notifier, notifier.watchdog / 2)
    threads = []
    if args.demo and rig.hands is not None:
        demo = Demo(rig.hands, table, loop)
        threads.append(threading.Thread(target=demo.run, daemon=True, name="demo"))
    elif rig.hands is not None and stdin_is_usable():
        threads.append(threading.Thread(target=read_keys, daemon=True, name="keys",
                                        args=(sys.stdin, rig.hands, table.ready, loop)))
    try:
        keyboard = RawKeyboard(sys.stdin) if show_terminal and not args.demo else None
        with keyboard or contextlib.nullcontext():
            for thread in threads:
                thread.start()
            loop.run()
    finally:
        notifier.stopping()
        table.stop()
        notifier.close()
        rig.close()
    return 0


def run_selftest(args: argparse.Namespace) -> int:
    """``robinson selftest``: every input live on the screen, every output in turn."""
    from firmware.tools.selftest import SelfTest

    config, emulated = _config_and_mode(args)
    if args.seed is not None and not (emulated and args.dice):
        raise configuration.ConfigError("--seed is only for --dice when emulated, never on "
                                        "the table: it tests the demo die")
    show_terminal = emulated and sys.stdout.isatty()
    _logging(None if not show_terminal else state_dir(None, emulated))
    rig = build(config, emulated=emulated, capture=args.capture, show_terminal=show_terminal,
                seats_on=args.seats)
    if args.dice:
        die = SeededDie(args.seed) if args.seed is not None else Die()
        return _dice(rig, die, args.lang or config.language)
    test = SelfTest(rig, lang=args.lang or config.language, on_done=rig.loop.stop)
    _on_signals(rig.loop)
    test.start()
    try:
        with RawKeyboard(sys.stdin) if show_terminal else contextlib.nullcontext():
            if rig.hands is not None and stdin_is_usable():
                threading.Thread(target=read_keys, daemon=True, name="keys",
                                 args=(sys.stdin, rig.hands, test.ready, rig.loop)).start()
            rig.loop.run()
    finally:
        test.stop()
        rig.close()
    return 0


def _dice(rig: Rigging, die: Die, lang: str) -> int:
    """``robinson selftest --dice``: the fairness tests at 99 %, on the screen and stdout."""
    from firmware.display.fonts import Fonts
    from firmware.display.render import render
    from firmware.display.screens import Words
    from firmware.tools.fairness import check
    from firmware.tools.selftest import DICE_ALPHA, DICE_ROLLS, dice_screen

    try:
        verdicts = check(die.roll, DICE_ROLLS)  # the very die the button would roll
        screen = dice_screen(Words(lang), DICE_ROLLS, verdicts)
        rig.panel.show(render(screen, Fonts()))
        if rig.terminal is None:
            for verdict in verdicts:
                print(f"{verdict.name}: statistic {verdict.statistic:.4f}, "
                      f"p = {verdict.p_value:.4f}")
            print(screen.footer)
    finally:
        rig.close()
    return 0 if all(v.passed(DICE_ALPHA) for v in verdicts) else 1


def _watchdog(loop: Loop, notifier: Notifier, period: float) -> None:
    """Ping from the loop's own timers: if the loop hangs, the pings stop."""
    def ping() -> None:
        notifier.ping()
        loop.call_later(period, ping)

    ping()


def _terminal_drawer(terminal: TerminalPanel, bus: PanelBus) -> Callable[[], None]:
    """Draw what the panel's memory holds, dim or dark as the panel is."""
    def draw() -> None:
        terminal.draw(bus.image(), bus.on, bus.contrast < 64)
    return draw


def _logging(directory: Path | None) -> None:
    handler: logging.Handler
    if directory is None:
        handler = logging.StreamHandler(sys.stderr)
    else:  # the terminal shows the panel: log to a file beside the saves
        directory.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(directory / "table.log", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
