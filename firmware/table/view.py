"""What the panel shows, as a function of the table's state: ``view(state) -> Screen``.

Nothing drawn is kept anywhere: the machine asks for the view after every step and
draws it when it changed, so a screen never outlives its moment, and every mode
redraws at once in a new language or with new names.

>>> from firmware.config.settings import Config
>>> from firmware.table.state import Fixed, Menu, TableState
>>> view(TableState(Fixed(Config(), lambda screen: (1, 0)), now=Menu(row=1))).body[1]
'▶ Repeat last result'
"""

from __future__ import annotations

import dataclasses
import functools

from firmware.display import screens
from firmware.display.screen import NAME, Screen
from firmware.display.words import Words
from firmware.table.menu import Row, labels, phone_cursor, phone_labels
from firmware.table.messages import Press
from firmware.table.prefs import seat_names
from firmware.table.state import (
    TRIAL_FOR,
    Animate,
    Asking,
    Info,
    Menu,
    Mode,
    Off,
    Phones,
    Play,
    Question,
    Setup,
    Showing,
    Stuck,
    TableState,
    Title,
)
from robinson_core import CHOICES, Game, Status

TUMBLE = (3, 5, 2, 6, 1, 4)  # faces the tumbling die shows: looks only, not the roll


@functools.lru_cache(maxsize=16)
def _words(lang: str, names: tuple[tuple[int, str], ...]) -> Words:
    return Words(lang, dict(names))


def words(state: TableState) -> Words:
    """The table's language and the seats' names (kept ones first, then the config's)."""
    return _words(state.prefs.language, seat_names(state.prefs, state.fixed.config))


def menu_labels(state: TableState) -> list[str]:
    return labels(words(state), state.prefs)


BUILT_KEPT = 4
"""Views kept, with what of the state each was built from: a step compares the view
before it with the view after, the shell and the seam read the same state's view; each
is built once. A state that differs only where the view does not look (a timer armed,
a page turned, a write on its way) has the same view."""
_built: list[tuple[tuple[object, ...], Screen]] = []


def read(state: TableState) -> tuple[object, ...]:
    """What of ``state`` the view reads (tests/table/test_view.py holds ``build`` to it); most
    fields are the very values of the state before, so comparing them is quick."""
    return (state.fixed, state.now, state.game, state.prefs, state.seats, state.first,
            state.panel.flash, state.panel.hint, state.writes, state.odds, state.pairing,
            state.address, state.trial)


def view(state: TableState) -> Screen:
    """The screen the table shows now: a message over the mode's screen while it lasts;
    while the button is held, the mode's screen with what letting go will do."""
    key = read(state)
    for kept, screen in reversed(_built):
        if kept == key:
            return screen
    screen = build(state)
    _built.append((key, screen))
    del _built[:-BUILT_KEPT]
    return screen


def build(state: TableState) -> Screen:
    """The view of ``state``, built (``view`` keeps the last few)."""
    w = words(state)
    if state.trial is not None:  # over everything: the panel must be seen to be kept
        display = state.trial.config.display
        where = f"0x{display.i2c_address:02X}" if display.interface == "i2c" else \
            f"SPI {display.spi_port}.{display.spi_device}"
        return screens.trial_screen(w, (f"{display.display} {display.width}x{display.height}",
                                        f"{where} {display.rotate * 90}°"), TRIAL_FOR)
    if state.panel.flash is not None and state.panel.hint is None:
        return screens.message_screen(w("notice"), state.panel.flash.said(w))
    if state.pairing is not None and state.panel.hint is None \
            and state.mode not in (Mode.ANIMATE, Mode.OFF, Mode.STUCK):
        return screens.pairing_screen(w, state.pairing.digits, state.pairing.token,
                                      state.address)
    screen = _mode(state, w)
    hint = _hint(state, w)
    return dataclasses.replace(screen, footer=hint) if hint else screen


def _mode(state: TableState, w: Words) -> Screen:
    fixed, game = state.fixed, state.game
    badge = w("unsaved_badge") if state.writes.failing is not None else fixed.badge
    match state.now:
        case Stuck():
            return screens.message_screen(NAME, w("release_button"))
        case Off():
            writes = state.writes
            if writes.unsaved and writes.failing is not None:
                return screens.message_screen(NAME, w(
                    "switched_off_unsaved", count=writes.behind, reason=w(writes.failing.key)))
            return screens.message_screen(NAME, w("switched_off"))
        case Title(notes):
            resume = game is not None and bool(game.actions)
            over = game is not None and game.state.status is not Status.PLAYING
            return screens.title_screen(w, resume, [n.said(w) for n in notes], badge, over)
        case Setup():
            config = fixed.config
            return screens.setup_screen(w, state.seats, state.first, config.rules, badge,
                                        wired=len(config.pins.seats))
        case Play(showing) if game is not None:
            if showing is Showing.TURN:
                screen = screens.turn_screen(w, game.state, badge)
            else:
                screen = screens.result_screen(w, game, badge)
            return _with_odds(state, w, screen)
        case Animate(roller, frame, _):
            face = TUMBLE[(frame - 1) % len(TUMBLE)]
            return screens.rolling_screen(w, roller, face, 0, badge)
        case Menu(row):
            return screens.menu_screen(w, menu_labels(state), row)
        case Phones(row):
            rows = phone_labels(w, state.prefs.phones)
            row = phone_cursor(row, len(state.prefs.phones))
            keys = "phones_keys" if row < len(state.prefs.phones) else "menu_keys"
            return screens.menu_screen(w, rows, row, keys)
        case Asking(Question.UNDO) if game is not None:
            return screens.undo_screen(w, game)
        case Asking(Question.ABANDON):
            return screens.abandon_screen(w)
        case Info(row, finished, last=last) if row is not Row.STANDINGS or game is not None:
            return _info(state, w, row, finished, last)
    # A mode about a game with no game (play, the undo question, the standings): not a
    # state the machine makes, and the title is what it would be; the view is total.
    return screens.title_screen(w, False, [], badge, False)


def _with_odds(state: TableState, w: Words, screen: Screen) -> Screen:
    """A decision's screen with its odds, once they are known for this game (and on):
    each option's chance in the footer beside the press that takes it (page 1, always;
    the body as it was: a press never waits for the odds)."""
    game, odds = state.game, state.odds
    if not state.prefs.odds or odds is None or game is None or odds[0] != game \
            or game.state.pending not in CHOICES or screen.footer != screens.prompt(
                w, game.state):
        return screen
    return dataclasses.replace(screen, footer=screens.odds_prompt(w, game.state, odds[1]))


def _info(state: TableState, w: Words, row: Row,
          finished: tuple[screens.PastGame, ...], last: Game | None) -> Screen:
    fixed, game = state.fixed, state.game
    if row is Row.STANDINGS and game is not None:
        return screens.standings_screen(w, game.state)
    if row is Row.RECALL:
        recalled = game if game is not None and game.actions else last
        return screens.recall_screen(w, recalled, finished)
    display = fixed.config.display
    return screens.about_screen(w, fixed.version, fixed.saves,
                                f"{display.display} {display.interface}", fixed.fonts_missing)


def _hint(state: TableState, w: Words) -> str:
    """The footer while the button is held past a threshold: what letting go does."""
    if state.panel.hint is None:
        return ""
    if state.panel.hint is Press.MENU:
        return w("let_go_menu")
    game = state.game
    if game is None:  # a long press's hint is only for a game in play
        return ""
    pending = game.state.pending
    if pending not in CHOICES:  # a roll is next: a long press shows the standings
        return w("let_go_standings")
    return w("let_go_long", action=w.option(pending, CHOICES[pending][1]))
