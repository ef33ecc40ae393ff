"""What every command that runs the table's hardware does first and around its loop: the
config and whether to emulate, the rigging, logging, signals and the emulated keyboard.
``robinson table`` (``firmware.app``) and ``robinson selftest`` (``firmware.tools``)
both start here; neither borrows from the other.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from firmware.config.file import default_path, load
from firmware.config.reading import display_option
from firmware.config.settings import Config
from firmware.devices import Rigging, build, wants_emulation
from firmware.display.fonts import Fonts
from firmware.emulate.capture import Capture
from firmware.emulate.keyboard import Ready
from firmware.runtime.loop import Loop
from firmware.saves.folder import Folder


def config_and_mode(config_file: str | None, hardware: str | None, *, emulate: bool,
                    display: str | None = None) -> tuple[Config, bool]:
    """The config the command line points at (``--config``), and whether to emulate the
    hardware (``--hardware``, ``--emulate``, or a ``--display`` to try)."""
    config = load(Path(config_file) if config_file else default_path())
    choice = hardware or config.hardware
    if emulate:
        choice = "emulate"
    if display:  # a panel to try: emulated, whatever the config says
        config = dataclasses.replace(config, display=display_option(display))
        choice = "emulate"
    systemd = "INVOCATION_ID" in os.environ or "NOTIFY_SOCKET" in os.environ
    return config, wants_emulation(choice, systemd=systemd)


def rigging(config: Config, *, emulated: bool, show_terminal: bool = False,
            capture_to: str | None = None, seats_on: Sequence[int] = (),
            pins_later: bool = False) -> tuple[Rigging, Capture | None]:
    """The wired devices, or (emulated) the same devices on stand-ins, with ``seats_on``
    switched on; and ``--capture``'s frames, if asked for. ``pins_later``: the panel only,
    the pins at the rigging's first ``wire()`` (the table's, once its title is drawn)."""
    capture = Capture(Path(capture_to).absolute()) if capture_to else None
    if not emulated:
        # lgpio makes its notification FIFO in LG_WD, else in the working directory,
        # which `sudo -u robinson robinson selftest` may not be able to write.
        os.environ.setdefault("LG_WD", tempfile.gettempdir())
        return build(config, on_frame=capture, pins_later=pins_later), capture
    from firmware.emulate.rig import emulate

    return emulate(config, show_terminal=show_terminal, seats_on=seats_on,
                   on_frame=capture, pins_later=pins_later), capture


def keyboard(rig: Rigging, ready: Ready) -> list[threading.Thread]:
    """Emulated, with a standard input: the thread that turns keys into presses."""
    from firmware.emulate.keyboard import read_keys, stdin_is_usable
    from firmware.emulate.rig import EmulatedRigging

    if isinstance(rig, EmulatedRigging) and stdin_is_usable():
        return [threading.Thread(target=read_keys, daemon=True, name="keys",
                                 args=(sys.stdin, rig.hands, ready, rig.loop))]
    return []


@dataclass
class SwitchedOn:
    """A table switched on (``firmware.app.switch_on``), its title's name on the panel:
    what its run (``firmware.session.play``) is given."""

    config: Config  # with a phone's hardware settings over it, if any were taken
    emulated: bool
    show_terminal: bool  # the panel drawn in this terminal
    folder: Folder  # the saves' folder, claimed: one table a folder
    phone: Path  # a phone's hardware settings' file
    by_phone: bool  # the config has a phone's hardware settings over it
    rig: Rigging  # the panel built, the pins not yet opened
    capture: Capture | None
    fonts: Fonts
    badge: str  # DEMO
    first_frame: float  # the CPU spent when the title's name was on the panel (s)


RESTART = -1  # an emulated table asks to start again (systemd starts a Pi's: SIGHUP's 129)


def exit_status(received: list[int]) -> int:
    """0 for a stop (SIGTERM, or q); 128 + the signal for SIGINT and SIGHUP, as shells do.

    Non-zero matters for SIGHUP: systemd's Restart=on-failure then starts the
    table again, with the config read anew; a clean exit would leave it stopped.
    """
    for signum in (signal.SIGHUP, signal.SIGINT):
        if signum in received:
            return 128 + signum
    return 0


class Stops:
    """SIGTERM, SIGINT and SIGHUP, for the whole process: each stops the loop of the run
    under way (the game is already saved), and ``received`` says which came, for the exit
    status (``exit_status``). One that comes between two runs (an emulated
    table starting again) is not lost: the next run's loop stops as it is given."""

    def __init__(self) -> None:
        self.received: list[int] = []
        self._loop: Loop | None = None
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, self._stop)

    def _stop(self, signum: int, _frame: object) -> None:
        self.received.append(signum)
        if self._loop is not None:
            self._loop.post(self._loop.stop)

    def use(self, loop: Loop) -> None:
        """Stop ``loop`` at a signal from now on, or at once if one came already."""
        self._loop = loop
        if self.received:
            loop.post(loop.stop)


def on_signals(loop: Loop) -> list[int]:
    """SIGTERM, SIGINT and SIGHUP stop ``loop``; the list they return says which came."""
    stops = Stops()
    stops.use(loop)
    return stops.received


def raw_keyboard(wanted: bool) -> contextlib.AbstractContextManager[object]:
    """The terminal in cbreak mode while the emulated table runs in it, if ``wanted``."""
    if not wanted:
        return contextlib.nullcontext()
    from firmware.emulate.keyboard import RawKeyboard

    return RawKeyboard(sys.stdin)


def start_logging(directory: Path | None) -> None:
    """Log to stderr (the journal), or beside the saves while the terminal shows the panel."""
    handler: logging.Handler
    if directory is None:
        handler = logging.StreamHandler(sys.stderr)
    else:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        descriptor = os.open(directory / "table.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND
                             | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)  # private, never a link
        os.fchmod(descriptor, 0o600)
        os.close(descriptor)
        handler = logging.FileHandler(directory / "table.log", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
