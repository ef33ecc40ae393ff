"""What the table publishes on its seam: the view as a value for another process.

A function of the table's state, as the panel's view is: the mode, the pages of the
screen on the panel as drawn (and which one is up), page 1 of the last result, the
game as the panel has shown it (while the die tumbles, without the roll: nothing is
out before the panel reveals it) with a log of its last actions, the settings in
force, and the seats' names. What
only the companion page may know (the pairing code on the panel, the phones paired)
is under ``"private"``; the page never passes it on. So the panel's pages are published
as they are under the pairing code: the code is on the panel for the eyes at the table,
never on the network.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Callable
from typing import Any

from firmware import header
from firmware.config.phone import PHONE_KEYS, flat, hardware_table
from firmware.config.settings import Config
from firmware.display.paging import Page
from firmware.display.panels import PANELS
from firmware.display.screen import Screen
from firmware.display.screens import result_screen
from firmware.seam.intents import level
from firmware.seam.wire import Message
from firmware.table.state import Animate, Mode, TableState
from firmware.table.view import view, words
from firmware.wiring import taken
from robinson_core import MAX_PLAYERS, SEATS, Game, narrate
from robinson_core import events as ev
from robinson_core.state import Status

Pages = Callable[[Screen], list[Page]]
"""A screen's pages on this table's panel, as text (``firmware.display.paging.shown``)."""


def game_shown(state: TableState) -> Game | None:
    """The game as the panel has shown it: while the die tumbles, the roll is not out."""
    game = state.game
    if game is not None and state.mode is Mode.ANIMATE and game.actions:
        return game.undo()
    return game


def reads(state: TableState) -> tuple[object, ...]:
    """What of ``state`` ``published`` reads (tests/page/test_seam.py holds it to this): the seam
    publishes anew only when this changed. While the die tumbles, who rolls is shown, not
    which frame."""
    now = state.now.roller if isinstance(state.now, Animate) else state.now
    return (now, state.fixed, state.game, state.prefs, state.seats, state.first,
            state.panel.flash, state.panel.hint, state.panel.page, state.writes, state.odds,
            state.pairing, state.address, state.trial)


def published(state: TableState, pages: Pages) -> Message:
    """The view for the seam's clients (JSON-ready)."""
    prefs, w = state.prefs, words(state)
    game = game_shown(state)
    animate = state.mode is Mode.ANIMATE
    under = dataclasses.replace(state, pairing=None) if state.pairing is not None else state
    screen_pages = [] if animate else [_page(p) for p in pages(view(under))]
    last: list[dict[str, Any]] = []
    if game is not None and game.actions:
        last = [_page(p) for p in pages(result_screen(w, game))[:1]]
    rolling = state.now.roller if animate else None  # type: ignore[union-attr]
    return {
        "kind": "view",
        "mode": state.mode.value,
        "page": state.panel.page % len(screen_pages) if screen_pages else 0,  # as the panel turns
        "pages": screen_pages,
        "result": last,
        "rolling": rolling,
        "game": _game(game, w.name) if game is not None else None,
        "log": log(game) if game is not None else [],
        "names": {str(seat): w.name(seat) for seat in SEATS},
        "given": {str(seat): name for seat, name in prefs.names},
        "settings": {"language": prefs.language, "voice": prefs.voice, "story": prefs.story,
                     "brightness": level(prefs)},
        "seats": list(state.seats),
        "most": MAX_PLAYERS,
        "saved": not state.writes.unsaved,
        "pairing": state.pairing is not None,  # a code is on the panel (not the code)
        "hardware": hardware_shown(state.fixed.config,
                                   state.trial.config if state.trial is not None else None),
        "private": {"pairing": {"code": state.pairing.digits, "token": state.pairing.token}
                    if state.pairing is not None else None,
                    "phones": [{"digest": phone.digest, "kind": phone.kind,
                                "paired": phone.paired, "used": phone.used}
                               for phone in prefs.phones],
                    # the first boot's code, while no phone is paired (install.sh)
                    "owner": state.fixed.owner if state.fixed.owner and not prefs.phones
                    else None},
    }


@functools.lru_cache(maxsize=8)
def hardware_shown(config: Config, trial: Config | None) -> dict[str, Any]:
    """What a paired phone's hardware settings show: each setting a phone may change as
    it is in force (and on trial), the panels of the bus the panel is wired to with their
    sizes, and the 40-pin header with what takes each pin. (Remembered: the view is
    published at every step, the hardware seldom changes; nobody changes what it gives.)"""
    def settings(of: Config) -> dict[str, Any]:
        values = flat(hardware_table(of))
        return {key: values[key] for key in PHONE_KEYS}

    used = taken(config)
    by_gpio = {physical: gpio for gpio, physical in header.PHYSICAL.items()}
    return {
        "settings": settings(config),
        "trial": settings(trial) if trial is not None else None,
        "interface": str(config.display.interface),
        "panels": {name: [list(size) for size in kind.sizes] for name, kind in PANELS.items()
                   if config.display.interface in kind.interfaces},
        "header": [{"pin": pin, "name": name, "gpio": by_gpio.get(pin),
                    "taken": used.get(by_gpio[pin], "") if pin in by_gpio else ""}
                   for pin, name in sorted(header.NAMES.items())],
    }


LOG_MOST = 8
"""The game's last actions the seam publishes (the page's log of this game, on Now)."""


def log(game: Game, most: int = LOG_MOST) -> list[dict[str, Any]]:
    """The last ``most`` actions of ``game``, newest first, as words of no language:
    who (``seat``), what (the die's ``roll``, a ``choice`` taken, or ``sat_out``), where
    (the square ``from`` and ``to``: 0 the start, None out of the game), and the money
    (``chips``: each seat's gain or loss, in the order met; ``pot``: the pot's)."""
    steps = game.history
    entries = []
    for (before, _), (after, events) in itertools.pairwise(steps[-most - 1:]):
        seat = narrate.mover(events)
        if seat is None:
            continue
        decided = next((e for e in events if isinstance(e, ev.Decided)), None)
        entries.append({
            "seat": seat,
            "roll": next((e.face for e in events if isinstance(e, ev.Rolled)), None),
            "choice": decided.choice.value if decided is not None else None,
            "sat_out": any(isinstance(e, ev.SatOut) for e in events),
            "from": before.player(seat).position, "to": after.player(seat).position,
            "chips": [[who, amount] for who, amount in narrate.nets(events).items()],
            "pot": after.pot - before.pot,
        })
    return entries[::-1]


def _page(page: Page) -> dict[str, Any]:
    drawn = page.drawn()
    return {"title": drawn.title, "rows": list(drawn.rows), "footer": list(drawn.footer)}


def _game(game: Game, name: Callable[[int], str]) -> dict[str, Any]:
    state = game.state
    return {
        "players": [{"seat": p.seat, "name": name(p.seat), "square": p.position,
                     "chips": p.chips, "friday": p.friday, "master": state.master_of(p.seat),
                     "sits_out": p.sits_out} for p in state.players],
        "pot": state.pot,
        "to_move": state.to_move,
        "pending": state.pending.name.lower(),
        "over": state.status is not Status.PLAYING,
        "winner": state.winner,
        "actions": len(game.actions),
        "rules": state.rules.as_strings(),
    }
