"""``robinson table``: switch the table on, then hand over to its run (``firmware.session``).

Switching on loads only what the first frame needs: the config, the saves' folder
claimed, the panel (luma's real driver), and on it the title's name. The game, the
machine, the voice, gpiozero's pins, the seam and the page load after it.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

from firmware.config.phone import PHONE_FILE, layered, set_aside
from firmware.display.fonts import Fonts
from firmware.display.render import drawn
from firmware.display.screen import title_name
from firmware.errors import ConfigError
from firmware.revision import on_raspberry_pi
from firmware.saves.folder import Folder, state_dir
from firmware.startup import (
    RESTART,
    Stops,
    SwitchedOn,
    config_and_mode,
    rigging,
    start_logging,
)


def run_table(args: argparse.Namespace) -> int:
    """``robinson table``: returns the exit status. A demo without ``--state-dir`` plays
    in a folder of its own, made and removed here: a game in play is never touched."""
    if args.demo and args.state_dir is None:
        with tempfile.TemporaryDirectory(prefix="robinson-demo-") as scratch:
            return _again(args, Path(scratch))
    return _again(args, None)


def _again(args: argparse.Namespace, folder: Path | None) -> int:
    """The table, started again for as long as it asks to (emulated: no systemd to), with
    one set of signal handlers for all its runs."""
    stops = Stops()
    while (status := _run_table(args, folder, stops)) == RESTART:
        pass
    return status


def _run_table(args: argparse.Namespace, directory: Path | None, stops: Stops) -> int:
    on = switch_on(args, directory)
    from firmware.session import play  # the rest of the table, once its first frame is out

    return play(args, on, stops)


def switch_on(args: argparse.Namespace, directory: Path | None) -> SwitchedOn:
    """The config, the saves' folder claimed, the panel built and the title's name drawn
    on it: the table's first frame, before anything of the game, the pins or the page
    is loaded."""
    config, emulated = config_and_mode(args.config, args.hardware,
                                       emulate=args.emulate or args.demo, display=args.display)
    if args.seed is not None and not emulated:
        raise ConfigError("--seed is only for emulated demos, never on the table")
    folder = Folder(directory or state_dir(args.state_dir, on_raspberry_pi()))
    folder.lock()  # before the panel: a second table stops here, in one line, and never
    # draws on the first one's panel
    show_terminal = emulated and sys.stdout.isatty()
    start_logging(folder.directory if show_terminal else None)
    phone = folder.directory / PHONE_FILE
    plain = config
    if args.display is None:  # a phone's hardware settings, over the config's
        config, wrong = layered(config, phone)
        if wrong:
            logging.getLogger("robinson").warning(
                "a phone's hardware settings were not taken: %s; the config's stand", wrong)
    by_phone = config != plain
    try:
        rig, capture = rigging(config, emulated=emulated, show_terminal=show_terminal,
                               capture_to=args.capture, seats_on=args.seats, pins_later=True)
    except BaseException as error:
        folder.unlock()  # the folder free for the next start (in this process, emulated)
        raise set_aside(error, phone, by_phone) from None
    fonts = Fonts()
    badge = "DEMO" if args.demo or args.seed is not None else ""
    rig.panel.show(drawn(title_name(badge), fonts, 0, config.display.layout))
    return SwitchedOn(config, emulated, show_terminal, folder, phone, by_phone, rig, capture,
                      fonts, badge, first_frame=time.process_time())
