"""The menu as data: its rows in order, each a text key; what choosing one does is the
table machine's (``firmware.table.machine``).

>>> from firmware.display.words import Words
>>> labels(Words("en"), language="en", level="1/4")[:2]
['Back to the game', 'Repeat last result']
"""

from __future__ import annotations

import enum

from firmware.config import Voice
from firmware.display.words import Words
from firmware.table.prefs import SPEEDS
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
    FORGET = "menu_forget"  # every phone paired must pair again
    ABOUT = "menu_about"


MENU = tuple(Row)


def labels(words: Words, *, language: str, level: str, voice: bool = False,
           story: bool = False, odds: bool = False, volume: int = Voice.volume,
           speed: int = Voice.speed) -> list[str]:
    """The rows' texts now: the language row names the language, brightness its step,
    the voice, the storyteller and the odds whether they are on, the voice's volume
    and speed their step."""
    def state(on: bool) -> str:
        return words("switch_on" if on else "switch_off")

    values: dict[Row, dict[str, object]] = {Row.LANGUAGE: {"language": language_name(language)},
                                            Row.BRIGHTNESS: {"level": level},
                                            Row.VOICE: {"state": state(voice)},
                                            Row.STORY: {"state": state(story)},
                                            Row.ODDS: {"state": state(odds)},
                                            Row.VOLUME: {"level": f"{volume} %"},
                                            Row.SPEED: {"level": _pace(words, speed)}}
    return [words(row.value, **values.get(row, {})) for row in MENU]


def _pace(words: Words, speed: int) -> str:
    """The voice's speed as the menu says it: slow, normal, fast (or the config's words
    a minute, where it set another)."""
    return words(_PACES[speed]) if speed in _PACES else str(speed)


_PACES = dict(zip(SPEEDS, ("speed_normal", "speed_fast", "speed_slow"), strict=True))
