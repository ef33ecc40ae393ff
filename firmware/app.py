"""``robinson table``: build the rigging, start the table, run its loop until told to stop.

The runner only: signals, systemd's readiness and watchdog, logging, and the
threads that drive an emulated table (keyboard, demo).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import logging
import os
import signal
import sys
import tempfile
import threading
from pathlib import Path

from firmware.config import Config, default_path, display_option, load
from firmware.devices import Rigging, build, wants_emulation
from firmware.emulate.capture import Capture
from firmware.errors import ConfigError
from firmware.notify import Notifier
from firmware.table.die import Die, SeededDie
from firmware.table.loop import Loop
from firmware.table.store import Store, state_dir
from firmware.table.table import Table


def config_and_mode(args: argparse.Namespace) -> tuple[Config, bool]:
    """The config the command line points at, and whether to emulate the hardware."""
    path = Path(args.config) if args.config else default_path()
    config = load(path)
    choice = args.hardware or config.hardware
    if args.emulate or getattr(args, "demo", False):
        choice = "emulate"
    if getattr(args, "display", None):  # a panel to try: emulated, whatever the config says
        config = dataclasses.replace(config, display=display_option(args.display))
        choice = "emulate"
    terminal = sys.stdin.isatty() or sys.stdout.isatty()
    systemd = "INVOCATION_ID" in os.environ or "NOTIFY_SOCKET" in os.environ
    return config, wants_emulation(choice, terminal=terminal, systemd=systemd)


def rigging(config: Config, args: argparse.Namespace, emulated: bool,
            show_terminal: bool) -> tuple[Rigging, Capture | None]:
    """The wired devices, or (emulated) the same devices on stand-ins; and --capture's frames."""
    capture = Capture(Path(args.capture).absolute()) if args.capture else None
    if not emulated:
        # lgpio makes its notification FIFO in LG_WD, else in the working directory,
        # which `sudo -u robinson robinson selftest` may not be able to write.
        os.environ.setdefault("LG_WD", tempfile.gettempdir())
        return build(config, on_frame=capture), capture
    from firmware.emulate.rig import emulate

    return emulate(config, show_terminal=show_terminal, seats_on=args.seats,
                   on_frame=capture), capture


def drivers(rig: Rigging, table: Table, demo: bool) -> list[threading.Thread]:
    """Emulated: the threads that work the mock pins, a demo player or the keyboard."""
    from firmware.emulate.demo import Demo
    from firmware.emulate.rig import EmulatedRigging

    if demo and isinstance(rig, EmulatedRigging):
        return [threading.Thread(target=Demo(rig.hands, table, rig.loop).run, daemon=True,
                                 name="demo")]
    return keyboard(rig, table.ready)


def keyboard(rig: Rigging, ready: threading.Event) -> list[threading.Thread]:
    """Emulated, with a standard input: the thread that turns keys into presses."""
    from firmware.emulate.keyboard import read_keys, stdin_is_usable
    from firmware.emulate.rig import EmulatedRigging

    if isinstance(rig, EmulatedRigging) and stdin_is_usable():
        return [threading.Thread(target=read_keys, daemon=True, name="keys",
                                 args=(sys.stdin, rig.hands, ready, rig.loop))]
    return []


def on_signals(loop: Loop) -> list[int]:
    """SIGTERM, SIGINT and SIGHUP stop the loop (the game is already saved); the list
    they return says which came, for the exit status (``exit_status``)."""
    received: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        received.append(signum)
        loop.post(loop.stop)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, stop)
    return received


def exit_status(received: list[int]) -> int:
    """0 for a stop (SIGTERM, or q); 128 + the signal for SIGINT and SIGHUP, as shells do.

    Non-zero matters for SIGHUP: systemd's Restart=on-failure then starts the
    table again, with the config read anew; a clean exit would leave it stopped.
    """
    for signum in (signal.SIGHUP, signal.SIGINT):
        if signum in received:
            return 128 + signum
    return 0


def run_table(args: argparse.Namespace) -> int:
    """``robinson table``: returns the exit status. A demo without ``--state-dir`` plays
    in a folder of its own, made and removed here: a game in play is never touched."""
    if args.demo and args.state_dir is None:
        with tempfile.TemporaryDirectory(prefix="robinson-demo-") as scratch:
            return _run_table(args, Path(scratch))
    return _run_table(args, None)


def _run_table(args: argparse.Namespace, folder: Path | None) -> int:
    config, emulated = config_and_mode(args)
    if args.seed is not None and not emulated:
        raise ConfigError("--seed is only for emulated demos, never on the table")
    store = Store(folder or state_dir(args.state_dir, emulated))
    store.lock()  # before any pin is opened: a second table stops here, in one line
    show_terminal = emulated and sys.stdout.isatty()
    start_logging(store.directory if show_terminal else None)
    rig, capture = rigging(config, args, emulated, show_terminal)
    loop = rig.loop
    table = Table(config=config, loop=loop, store=store, panel=rig.panel, button=rig.button,
                  seats=rig.seats, die=SeededDie(args.seed) if args.seed is not None else Die(),
                  outputs=rig.outputs, lang=args.lang, animate=not args.no_animation,
                  badge="DEMO" if args.demo or args.seed is not None else "")
    if capture is not None:
        capture.note = lambda: "actions=" + ",".join(
            a.token for a in (table.game.actions if table.game else ()))
    received = on_signals(loop)

    table.start()
    notifier = Notifier()
    notifier.ready()  # the first frame is out (or the panel is known missing and retried)
    if notifier.watchdog:
        _watchdog(loop, notifier, notifier.watchdog / 2)
    threads = drivers(rig, table, args.demo) if emulated else []
    try:
        with raw_keyboard(show_terminal and not args.demo):
            for thread in threads:
                thread.start()
            loop.run()
    finally:
        notifier.stopping()
        table.stop()
        notifier.close()
        rig.close()
        store.close()  # folds the journal into the database: one file at rest
        if capture is not None:
            capture.close()
    if received:
        logging.getLogger("robinson").info("stopped by signal %d", received[0])
    return exit_status(received)


def raw_keyboard(wanted: bool) -> contextlib.AbstractContextManager[object]:
    """The terminal in cbreak mode while the emulated table runs in it, if ``wanted``."""
    if not wanted:
        return contextlib.nullcontext()
    from firmware.emulate.keyboard import RawKeyboard

    return RawKeyboard(sys.stdin)


def _watchdog(loop: Loop, notifier: Notifier, period: float) -> None:
    """Ping from the loop's own timers: if the loop hangs, the pings stop."""
    def ping() -> None:
        notifier.ping()
        loop.call_later(period, ping)

    ping()


def start_logging(directory: Path | None) -> None:
    """Log to stderr (the journal), or beside the saves while the terminal shows the panel."""
    handler: logging.Handler
    if directory is None:
        handler = logging.StreamHandler(sys.stderr)
    else:
        directory.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(directory / "table.log", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
