"""The menu as data: its rows in order, each a text key; what choosing one does is the
table machine's (``firmware.table.machine``).

>>> from firmware.display.words import Words
>>> labels(Words("en"), language="en", level="1/4")[:2]
['Back to the game', 'Repeat last result']
"""

from __future__ import annotations

import collections
import enum
from collections.abc import Sequence

from firmware.config.settings import Voice
from firmware.display.screens import phone_row
from firmware.display.words import Words
from firmware.table.prefs import SPEEDS, Phone
from robinson_core.texts import language_name


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


class PhoneRow(enum.Enum):
    """The phones list's rows after the phones themselves, by their text keys."""

    FORGET_ALL = "phones_forget_all"  # every phone paired must pair again
    BACK = "phones_back"  # to the menu's Phones row


def labels(words: Words, *, language: str, level: str, voice: bool = False,
           story: bool = False, odds: bool = False, volume: int = Voice.volume,
           speed: int = Voice.speed, phones: int = 0) -> list[str]:
    """The rows' texts now: the language row names the language, brightness its step,
    the voice, the storyteller and the odds whether they are on, the voice's volume
    and speed their step, the phones' row how many are paired."""
    def state(on: bool) -> str:
        return words("switch_on" if on else "switch_off")

    values: dict[Row, dict[str, object]] = {Row.LANGUAGE: {"language": language_name(language)},
                                            Row.BRIGHTNESS: {"level": level},
                                            Row.VOICE: {"state": state(voice)},
                                            Row.STORY: {"state": state(story)},
                                            Row.ODDS: {"state": state(odds)},
                                            Row.VOLUME: {"level": f"{volume} %"},
                                            Row.SPEED: {"level": _pace(words, speed)},
                                            Row.PHONES: {"count": phones}}
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
