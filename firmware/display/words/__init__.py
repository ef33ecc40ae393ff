"""The panel's words: its own screens' texts here, the game's from ``robinson_core.texts``.

Each key lives in one of the two places: what the game says (squares,
events, standings, rules) in the core; what the app says (menu, setup,
selftest, prompts) beside the app, in the same four languages.

>>> words = Words("en", {2: "Ana"})
>>> words("menu_back"), words("to_roll", name=words.name(2))
('Back to the game', 'Ana to roll')
"""

from __future__ import annotations

import importlib
from types import ModuleType

from robinson_core import Choice, Pending
from robinson_core.narrate import OPTION_KEYS, seat_names
from robinson_core.texts import LANGUAGES, fill, texts, ui

_BY_CODE: dict[str, ModuleType] = {code: importlib.import_module(f"{__name__}.{code}")
                                   for code in LANGUAGES}



def panel_texts(lang: str) -> dict[str, str]:
    """The panel's own texts in ``lang`` (LanguageError names the languages there are)."""
    texts(lang)  # the one check of the language code
    table: dict[str, str] = _BY_CODE[lang].PANEL
    return table


class Words:
    """The table's language and the seats' names: ``words(key, **values)`` is one text."""

    def __init__(self, lang: str, names: dict[int, str] | None = None) -> None:
        self.lang = lang
        self.given = dict(names or {})  # the names chosen (config, robinson names)
        self.name = seat_names(lang, names)
        self._panel = panel_texts(lang)

    def __call__(self, key: str, **values: object) -> str:
        template = self._panel.get(key)
        if template is None:
            return ui(self.lang, key, **values)
        return fill(self.lang, template, **values)

    def option(self, pending: Pending, choice: Choice) -> str:
        if pending is Pending.JUMP and choice is Choice.STAY:
            return self("opt_stay_boat")
        return self(OPTION_KEYS[choice])

    def square(self, position: int) -> str:
        """A square as the panel names it: "start", 29, 29番."""
        return self("start") if position == 0 else self("square_n", n=position)
