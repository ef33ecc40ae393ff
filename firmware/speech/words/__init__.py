"""The texts for speech, one table per language, apart from the panel's: written to be
heard (whole sentences, no arrows or symbols, Japanese in kana with its particles
spelt as they sound: わ, お, え), with numbers as digits, which every voice reads.

>>> spoken("en", "where", name="Ana", square="14")
'Ana, 14.'
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType

from robinson_core.texts import LANGUAGES, caption, fill, texts

_BY_CODE: dict[str, ModuleType] = {code: importlib.import_module(f"{__name__}.{code}")
                                   for code in LANGUAGES}

VOICES = {"en": "en-gb", "hr": "hr", "fi": "fi", "ja": "ja"}
"""espeak-ng's voice for each language."""

PACES = {"en": 1.0, "hr": 1.1, "fi": 1.3, "ja": 1.1}
"""How much faster than the set speed each voice speaks: espeak-ng counts words a
minute, and Finnish words are long. At one speed its Finnish voice took 1.33 times as
long as the English one to say the same result ("Lauri, ruutu 33. Ota 3 merkkiä."
4.17 s, "Dora, square 33. Take 3 chips." 3.14 s, at 170): a third of Finnish results
ran past 4 s. Croatian and Japanese took 1.1 times as long ("Igrač 3, polje 40." 2.00
s, "プレイヤー3、40ばん。" 1.94 s, "Player 3, square 40." 1.73 s). So each language is
heard at a like pace."""


def pace(lang: str, speed: int) -> int:
    """espeak-ng's ``-s`` for ``lang`` at the set ``speed`` (words a minute).

    >>> pace("en", 185), pace("hr", 185), pace("fi", 185)
    (185, 204, 240)
    """
    return round(speed * PACES[lang])


def table(lang: str) -> dict[str, str]:
    """The texts for speech in ``lang`` (LanguageError names the languages there are)."""
    texts(lang)  # the one check of the language code
    spoken_texts: dict[str, str] = _BY_CODE[lang].SPOKEN
    return spoken_texts


def spoken(lang: str, key: str, **values: object) -> str:
    """One text for speech with its placeholders filled (names take their cases)."""
    return fill(lang, table(lang)[key], **values)


def story(lang: str, square: int) -> str:
    """Square ``square``'s story as it is read aloud: the panel's caption with the
    abbreviations written out ("R." is Robinson), or a version of its own where the
    caption's words do not read aloud (Japanese: kana)."""
    module = _BY_CODE[lang]
    own: dict[int, str] = getattr(module, "STORY", {})
    if square in own:
        return own[square]
    text = caption(lang, square)
    for pattern, said in getattr(module, "EXPAND", ()):
        text = re.sub(pattern, said, text)
    return text if text.endswith((".", "!", "?")) else text + "."  # never "at last!."
