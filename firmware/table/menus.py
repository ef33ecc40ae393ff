"""The menu and the phones' list: what a press does on each row (the rows themselves
are ``menu.py``'s), the repeat, and the answers to the menu's questions of the disk.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from firmware.display import screens
from firmware.saves.faults import Fault
from firmware.table import phones, play
from firmware.table.menu import MENU, PhoneRow, Row, phone_cursor
from firmware.table.messages import (
    BringBack,
    Contrast,
    Hush,
    NeedRecall,
    Press,
    Voicing,
)
from firmware.table.moment import Moment
from firmware.table.prefs import (
    SPEEDS,
    VOLUMES,
    next_step,
)
from firmware.table.state import (
    Info,
    Menu,
    Mode,
    Notice,
    Phones,
    Waiting,
)
from firmware.table.view import next_brightness
from robinson_core import Game
from robinson_core.texts import LANGUAGES


def menu_press(m: Moment, kind: Press) -> None:
    menu = m.state.now
    assert isinstance(menu, Menu)
    if kind is Press.SHORT:
        m.set(now=Menu((menu.row + 1) % len(MENU)))
        return
    prefs = m.state.prefs
    match row := MENU[menu.row]:
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
        case Row.LANGUAGE:
            language = LANGUAGES[(LANGUAGES.index(prefs.language) + 1) % len(LANGUAGES)]
            m.set(prefs=prefs.but(language=language))
            m.save_prefs()
        case Row.BRIGHTNESS:
            level = next_brightness(prefs.contrast)
            m.set(prefs=prefs.but(contrast=level))
            m.do(Contrast(level))
            m.save_prefs()
        case Row.VOICE:
            m.set(prefs=prefs.but(voice=not prefs.voice))
            if m.state.prefs.voice:
                m.speak(m.s.switched("voice_on"))
            else:
                m.do(Hush())
            m.save_prefs()
        case Row.VOLUME | Row.SPEED:
            prefs = (prefs.but(volume=next_step(prefs.volume, VOLUMES)) if row is Row.VOLUME
                     else prefs.but(speed=next_step(prefs.speed, SPEEDS)))
            m.set(prefs=prefs)
            m.do(Voicing(prefs.volume, prefs.speed))
            m.speak(m.s.switched("voice_on"))  # heard as it now sounds
            m.save_prefs()
        case Row.STORY:
            m.set(prefs=prefs.but(story=not prefs.story))
            m.speak(m.s.switched("story_on" if m.state.prefs.story else "story_off"))
            m.save_prefs()
        case Row.ODDS:
            m.set(prefs=prefs.but(odds=not prefs.odds), odds=None, weighing=None)
            m.speak(m.s.switched("odds_on" if m.state.prefs.odds else "odds_off"))
            m.save_prefs()
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
        phones.keep_phones(m, tuple(p for p in kept if p != kept[-1 - row]))
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
