"""One run of the table, from its title to its stop: the saves, the machine's shell, the
voice, the pins, the seam and the loop (``firmware.app`` switches the table on and hands
over here once the first frame is out).
"""

from __future__ import annotations

import argparse
import functools
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from firmware.config.phone import set_aside
from firmware.devices import Rigging
from firmware.display.fonts import Fonts
from firmware.display.layout import Layout
from firmware.display.paging import shown
from firmware.display.screen import Screen
from firmware.errors import HardwareError
from firmware.notify import Notifier
from firmware.runtime.loop import Loop
from firmware.runtime.soundcards import AUTO
from firmware.runtime.speaker import Speaker
from firmware.saves.faults import Fault, StateDirectoryError
from firmware.saves.rows import KEEP_FINISHED
from firmware.saves.store import Store
from firmware.shell.die import Die, SeededDie
from firmware.shell.parts import Run, Told
from firmware.shell.table import Table
from firmware.startup import (
    RESTART,
    Stops,
    SwitchedOn,
    exit_status,
    keyboard,
    raw_keyboard,
)
from firmware.table.prefs import PREF_KEYS
from firmware.table.state import TableState

if TYPE_CHECKING:
    from firmware.seam.wire import Message


def drivers(rig: Rigging, table: Table, demo: bool) -> list[threading.Thread]:
    """Emulated: the threads that work the mock pins, a demo player or the keyboard."""
    from firmware.emulate.demo import Demo
    from firmware.emulate.rig import EmulatedRigging

    if demo and isinstance(rig, EmulatedRigging):
        return [threading.Thread(target=Demo(rig.hands, table, rig.loop).run, daemon=True,
                                 name="demo")]
    return keyboard(rig, table.ready)



def play(args: argparse.Namespace, on: SwitchedOn, stops: Stops) -> int:
    """The table switched on (``on``: its panel showing the title's name) played until it
    is told to stop; its exit status, or RESTART."""
    config, emulated, show_terminal, rig, capture, fonts = (
        on.config, on.emulated, on.show_terminal, on.rig, on.capture, on.fonts)
    store = Store(on.folder.directory, pref_keys=PREF_KEYS, folder=on.folder)
    loop = rig.loop
    text_view: Callable[[Screen, int], None] | None = None
    if emulated and not show_terminal:  # piped: each page as text on stdout
        from firmware.emulate.textview import TextView

        text_view = TextView(sys.stdout, fonts, config.display.layout)
    elif emulated and (terminal := getattr(rig, "terminal", None)) is not None:
        text_view = functools.partial(_page_words, terminal.words, fonts,  # under a braille
                                      config.display.layout)  # panel, its page as text too
    voice = config.voice
    speaker = Speaker(device="default" if emulated and voice.device == AUTO else voice.device,
                      volume=voice.volume, speed=voice.speed, amplifier=voice.i2s_amplifier)
    restarted: list[bool] = []

    def restart() -> None:  # a phone's new pins: the loop ends, and the table starts again
        restarted.append(True)
        loop.post(loop.stop)

    run = Run(lang=args.lang, animate=not args.no_animation, restart=restart,
              badge=on.badge,
              voice_on=True if args.voice else None, mounts=None if emulated else _mountinfo,
              settings=None if emulated else _settings_refused())
    told = Told(voice=speaker, record=capture.speech if capture is not None else None,
                on_page=text_view)
    table = Table(rig, store, die=SeededDie(args.seed) if args.seed is not None else Die(),
                  fonts=fonts, run=run, told=told)
    if capture is not None:
        capture.note = lambda: "actions=" + ",".join(a.token for a in table.shown)
    stops.use(loop)
    received = stops.received

    try:
        table.switch_on()  # the title, over its name
        title = time.process_time()
        table.wire()  # then the pins
    except (StateDirectoryError, HardwareError) as fault:  # said on the panel, and stop
        table.cannot_start(fault.kind if isinstance(fault, StateDirectoryError) else None)
        speaker.close()
        rig.close()
        store.close()
        store.unlock()
        raise set_aside(fault, on.phone, on.by_phone) from None
    from firmware.seam.server import Seam  # here, its imports (some 45 ms) after the title

    seam = Seam(store.directory, loop, table, functools.partial(
        shown, fonts=fonts, layout=config.display.layout),
        functools.partial(put_away, store.directory))
    if seam.open():
        table.on_state = seam.publish
    logging.getLogger("robinson").info(
        "the first frame out %.0f ms of CPU after start; its title %.0f; ready after %.0f",
        on.first_frame * 1000, title * 1000, time.process_time() * 1000)
    notifier = Notifier()
    notifier.ready()  # the first frame is out (or the panel is known missing and retried)
    if notifier.watchdog:
        _watchdog(loop, notifier, notifier.watchdog / 2)
    threads = drivers(rig, table, args.demo) if emulated else []
    try:
        with raw_keyboard(sys.stdin.isatty() and not args.demo):
            for thread in threads:
                thread.start()
            loop.run()
    finally:
        notifier.stopping()
        table.on_state = None
        seam.close()
        table.stop()
        speaker.close()
        notifier.close()
        rig.close()
        store.close()  # folds the journal into the database: one file at rest
        store.unlock()  # for a start again in this process (emulated)
        if capture is not None:
            capture.close()
    if restarted and not received:
        logging.getLogger("robinson").info("starting again: a phone's new pins")
        return RESTART if emulated else exit_status([signal.SIGHUP])  # systemd starts it
    if received:
        logging.getLogger("robinson").info("stopped by signal %d", received[0])
    if lost := unsaved_at_stop(table.state, store):
        logging.getLogger("robinson").error(lost)
        return exit_status(received) or UNSAVED
    return exit_status(received)


UNSAVED = 1
"""The exit status of a session that stopped with actions it could not save (the disk
full, read-only, not ours): never 0, so systemd lists the unit as failed and a script
that ran it knows."""


def _page_words(say: Callable[[list[str]], None], fonts: Fonts, layout: Layout,
                screen: Screen, page: int) -> None:
    """Page ``page`` of ``screen`` as text, to ``say`` (the terminal's braille panel)."""
    from firmware.emulate.textview import framed_page  # emulated only, as TextView is

    say(framed_page(screen, page, fonts, layout))


def put_away(directory: Path) -> list[Message]:
    """The games put away, newest first, as the seam tells the page (read-only, in the
    seam's thread, beside the table's own connection)."""
    store = Store(directory, read_only=True, pref_keys=PREF_KEYS)
    try:
        games = store.recent(KEEP_FINISHED)  # every one the table keeps
    except OSError:
        return []
    finally:
        store.close()
    return [{"number": game.number, "ended": str(game.ended), "winner": game.winner,
             "finished_at": game.finished_at.isoformat() if game.finished_at else None,
             "players": [list(final) for final in game.standings]}
            for game in games]


def unsaved_at_stop(state: TableState, store: Store) -> str:
    """What a stopped table could not save, and what to do, in one line ("": nothing)."""
    if not state.writes.unsaved:
        return ""
    count = state.writes.behind
    fault = state.writes.failing or Fault.IO_ERROR
    return (f"stopped with {count} action{'s' if count != 1 else ''} of this session not "
            f"saved ({fault}): {store.folder.fault_of(fault.errno)}")



def _settings_refused() -> int | None:
    """The line of the boot partition's settings file this boot's check refused, if any
    (said on the title: the table runs with the last good settings)."""
    from firmware.boot_settings import refused

    said = refused()
    if said is None:
        return None
    logging.getLogger("robinson").warning(
        "the settings file on the boot partition was not taken (line %d): %s; the last good "
        "settings run", *said)
    return said[0]


def _mountinfo() -> str | None:
    try:
        return Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _watchdog(loop: Loop, notifier: Notifier, period: float) -> None:
    """Ping from the loop's own timers: if the loop hangs, the pings stop."""
    def ping() -> None:
        notifier.ping()
        loop.call_later(period, ping)

    ping()
