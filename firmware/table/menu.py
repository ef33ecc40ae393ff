"""The menu as data: its rows in order, each a text key, and what choosing a setting's
row does (``SETTINGS``: the settings after it, and what the voice says of them); the
rest is the machine's rooms' (``firmware.table.menus``). What a change of settings asks
of the devices, from the menu or from a phone, is ``retuned``.

>>> from firmware.display.words import Words
>>> rows = labels(Words("en"), Prefs(contrast=8))
>>> rows[:2], rows[MENU.index(Row.BRIGHTNESS)]
(['Back to the game', 'Repeat last result'], 'Brightness: 1/4')
"""

from __future__ import annotations

import collections
import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from firmware.display.screens import phone_row
from firmware.display.words import Words
from firmware.table.messages import Contrast, Effect, Hush, Voicing
from firmware.table.prefs import (
    BRIGHTNESS,
    SPEEDS,
    VOLUMES,
    Phone,
    Prefs,
    brightness_level,
    next_brightness,
    next_step,
)
from robinson_core.texts import LANGUAGES, language_name


class Row(enum.Enum):
    """One line of the menu, by its text key."""

    BACK = "menu_back"
    REPEAT = "menu_repeat"
    UNDO = "menu_undo"
    STANDINGS = "menu_standings"
    RECALL = "menu_recall"
    NEW = "menu_new"
    BRING_BACK = "menu_bring_back"
    LANGUAGE = "menu_language"
    BRIGHTNESS = "menu_brightness"
    VOICE = "menu_voice"
    VOLUME = "menu_volume"
    SPEED = "menu_speed"
    STORY = "menu_story"
    ODDS = "menu_odds"
    PHONE = "menu_phone"  # pair a phone with the companion page
    PHONES = "menu_phones"  # the phones paired, each to forget (``PhoneRow``)
    ABOUT = "menu_about"


MENU = tuple(Row)


@dataclass(frozen=True)
class Setting:
    """A row that changes a setting: the settings after a long press on it, and what the
    voice then says (a key of ``Spoken.switched``, said only with the voice on): ``said``
    always, or ``switch``'s own word, on or off, as it is now."""

    change: Callable[[Prefs], Prefs]
    said: str = ""
    switch: str = ""  # a switch of Prefs: said as "<switch>_on" or "<switch>_off"


def spoken(setting: Setting, prefs: Prefs) -> str:
    """What the voice says after ``setting`` changed ``prefs`` ("" nothing): a voice
    switched off says nothing (it is hushed)."""
    if setting.switch:
        return f"{setting.switch}_{'on' if getattr(prefs, setting.switch) else 'off'}"
    return setting.said if prefs.voice else ""


SETTINGS: dict[Row, Setting] = {
    Row.LANGUAGE: Setting(lambda p: p.but(language=next_step(p.language, LANGUAGES))),
    Row.BRIGHTNESS: Setting(lambda p: p.but(contrast=next_brightness(p.contrast))),
    Row.VOICE: Setting(lambda p: p.but(voice=not p.voice), said="voice_on"),
    Row.VOLUME: Setting(lambda p: p.but(volume=next_step(p.volume, VOLUMES)),
                        said="voice_on"),  # heard as it now sounds
    Row.SPEED: Setting(lambda p: p.but(speed=next_step(p.speed, SPEEDS)), said="voice_on"),
    Row.STORY: Setting(lambda p: p.but(story=not p.story), switch="story"),
    Row.ODDS: Setting(lambda p: p.but(odds=not p.odds), switch="odds"),
}
"""The menu's setting rows: a long press steps or switches the setting, and keeps it."""


def retuned(before: Prefs, after: Prefs) -> tuple[Effect, ...]:
    """What a change of settings asks of the devices (from the menu or a phone): the
    panel's contrast, the voice's loudness and pace, and a voice switched off hushed."""
    effects: list[Effect] = []
    if after.contrast != before.contrast:
        effects.append(Contrast(after.contrast))
    if (after.volume, after.speed) != (before.volume, before.speed):
        effects.append(Voicing(after.volume, after.speed))
    if before.voice and not after.voice:
        effects.append(Hush())
    return tuple(effects)


class PhoneRow(enum.Enum):
    """The phones list's rows after the phones themselves, by their text keys."""

    FORGET_ALL = "phones_forget_all"  # every phone paired must pair again
    BACK = "phones_back"  # to the menu's Phones row


def labels(words: Words, prefs: Prefs) -> list[str]:
    """The rows' texts now: the language row names the language, brightness its step,
    the voice, the storyteller and the odds whether they are on, the voice's volume
    and speed their step, the phones' row how many are paired."""
    def state(on: bool) -> str:
        return words("switch_on" if on else "switch_off")

    level = f"{brightness_level(prefs.contrast)}/{len(BRIGHTNESS)}"
    values: dict[Row, dict[str, object]] = {
        Row.LANGUAGE: {"language": language_name(prefs.language)},
        Row.BRIGHTNESS: {"level": level},
        Row.VOICE: {"state": state(prefs.voice)},
        Row.STORY: {"state": state(prefs.story)},
        Row.ODDS: {"state": state(prefs.odds)},
        Row.VOLUME: {"level": f"{prefs.volume} %"},
        Row.SPEED: {"level": _pace(words, prefs.speed)},
        Row.PHONES: {"count": len(prefs.phones)}}
    return [words(row.value, **values.get(row, {})) for row in MENU]


def phone_labels(words: Words, phones: Sequence[Phone]) -> list[str]:
    """The phones list's rows: the paired phones, newest first, each as what it is (two
    of a kind numbered in the order they paired), then ``PhoneRow``'s.

    >>> kinds = "Chrome/Android", "Safari/iPhone", "Chrome/Android"
    >>> phone_labels(Words("en"), [Phone(str(n) * 64, kind) for n, kind in enumerate(kinds)])
    ['Android Chrome 2', 'iPhone Safari', 'Android Chrome 1', 'Forget all', 'Back to the menu']
    """
    kinds = collections.Counter(phone.kind for phone in phones)
    seen: collections.Counter[str] = collections.Counter()
    rows = []
    for phone in phones:
        seen[phone.kind] += 1
        row = phone_row(words, phone.kind)
        rows.append(f"{row} {seen[phone.kind]}" if kinds[phone.kind] > 1 else row)
    return rows[::-1] + [words(row.value) for row in PhoneRow]


def phone_cursor(row: int, phones: int) -> int:
    """The phones list's cursor on a row that is there: ``phones`` paired now (one may
    have been forgotten from the page while the list showed)."""
    return min(row, phones + len(PhoneRow) - 1)


def _pace(words: Words, speed: int) -> str:
    """The voice's speed as the menu says it: slow, normal, fast (or the config's words
    a minute, where it set another)."""
    return words(_PACES[speed]) if speed in _PACES else str(speed)


_PACES = dict(zip(SPEEDS, ("speed_normal", "speed_fast", "speed_slow"), strict=True))
