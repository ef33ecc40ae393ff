"""The menu and the phones' list: what a press does on each row (the rows themselves
are ``menu.py``'s), the repeat, and the answers to the menu's questions of the disk.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from firmware.display import screens
from firmware.saves.faults import Fault
from firmware.table import paired as paired_phones
from firmware.table import phones, play
from firmware.table.menu import MENU, SETTINGS, PhoneRow, Row, phone_cursor, spoken
from firmware.table.messages import BringBack, NeedRecall, Press
from firmware.table.moment import Moment
from firmware.table.state import (
    Info,
    Menu,
    Mode,
    Notice,
    Phones,
    Waiting,
)
from robinson_core import Game


def menu_press(m: Moment, kind: Press) -> None:
    menu = m.state.now
    assert isinstance(menu, Menu)
    if kind is Press.SHORT:
        m.set(now=Menu((menu.row + 1) % len(MENU)))
        return
    prefs, row = m.state.prefs, MENU[menu.row]
    if (setting := SETTINGS.get(row)) is not None:
        m.prefer(setting.change(prefs))
        if said := spoken(setting, m.state.prefs):
            m.speak(m.s.switched(said))
        return
    match row:
        case Row.BACK:
            play.resume(m)
        case Row.REPEAT:
            repeat(m)
        case Row.UNDO:
            play.ask_undo(m)
        case Row.STANDINGS | Row.ABOUT:
            if row is Row.ABOUT or m.state.game is not None:
                m.set(now=Info(row))
                m.fresh()
        case Row.RECALL:
            m.set(waiting=Waiting.RECALL)
            game = m.state.game  # none in play: the last turns of the newest put away
            m.do(NeedRecall(last=game is None or not game.actions))
        case Row.NEW:
            play.new_game(m, Mode.MENU)
        case Row.BRING_BACK:
            if m.state.writes.unsaved:  # the store would put away the game as on disk
                m.flash(Notice.of("save_failed", reason=m.state.writes.failing), 3.0)
                return
            m.set(waiting=Waiting.BACK)
            m.do(BringBack())
        case Row.PHONE:
            phones.ask_pairing(m)
        case Row.PHONES:
            if not prefs.phones:
                m.flash(Notice.of("phones_none"), 3.0)
                return
            m.set(now=Phones())
            m.fresh()


def phones_press(m: Moment, kind: Press) -> None:
    """The phones list: a short press the next row, a long one forgets the phone under
    the cursor (the list stays, the rest to forget), or every phone, or goes back."""
    listed, kept = m.state.now, m.state.prefs.phones
    assert isinstance(listed, Phones)
    row = phone_cursor(listed.row, len(kept))
    if kind is Press.SHORT:
        m.set(now=Phones((row + 1) % (len(kept) + len(PhoneRow))))
        return
    if row < len(kept):  # listed newest first
        phones.keep_phones(m, paired_phones.forgotten(kept, kept[-1 - row].digest))
        m.flash(Notice.of("phone_forgotten"), 3.0)
        if m.state.prefs.phones:
            m.set(now=Phones(min(row, len(m.state.prefs.phones) - 1)))
            return
    elif PhoneRow.FORGET_ALL is list(PhoneRow)[row - len(kept)]:
        phones.keep_phones(m, ())
        m.flash(Notice.of("phones_forgotten"), 3.0)
    m.back_to_menu(Row.PHONES)


def repeat(m: Moment) -> None:
    """The last result from page 1, and said again (voice on)."""
    game = m.state.game
    if game is not None and game.actions:
        play.resume(m)
        m.speak(m.s.result(game, m.state.prefs.story))


def brought(m: Moment, game: Game | None, fault: Fault | None) -> None:
    if game is None:
        m.flash(Notice.of("save_failed", reason=fault) if fault
                   else Notice.of("nothing_to_bring_back"), 3.0)
        return
    # (with any face owed to it: Owed)
    m.set(game=game, writes=dataclasses.replace(m.state.writes, disk=game))
    play.resume(m)
    m.speak(m.s.resumed(game))
    m.flash(Notice.of("brought_back"), 3.0)


def recalled(m: Moment, finished: Sequence[screens.PastGame], last: Game | None) -> None:
    m.set(now=Info(Row.RECALL, tuple(finished), last=last))
    m.fresh()
