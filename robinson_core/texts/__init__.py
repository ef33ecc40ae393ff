"""Every text the table shows, in Croatian, Finnish, Japanese and English.

>>> instruction("en", 8), caption("fi", 17)
('Pay the bank 3', 'R. juttelee papukaijalle')
"""

from __future__ import annotations

import functools
import importlib
import string
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ..board import BOARD, Effect
from ..errors import LanguageError
from ..house_rules import HouseRules, Square4, Square32, Square33
from .cases import declined

LANGUAGES: tuple[str, ...] = ("en", "hr", "fi", "ja")
"""The languages, in the menu's order: each has a module of texts here (the game's)
and one in ``firmware.display.words`` (the panel's), named by its code."""
DEFAULT = "en"
_BY_CODE: dict[str, ModuleType] = {code: importlib.import_module(f"{__name__}.{code}")
                                   for code in LANGUAGES}


def texts(lang: str) -> ModuleType:
    """The module of one language's texts; LanguageError names the choices."""
    try:
        return _BY_CODE[lang]
    except (KeyError, TypeError):
        raise LanguageError(
            f"language must be one of {', '.join(LANGUAGES)}, not {lang!r}") from None


def language_name(lang: str) -> str:
    name: str = texts(lang).NAME
    return name


def caption(lang: str, number: int) -> str:
    """The story of square ``number`` (1..45); the start has none."""
    if number == 0:
        return ui(lang, "start")
    text: str = texts(lang).CAPTIONS[number]
    return text


def instruction_key(number: int, rules: HouseRules) -> str | None:
    """Which instruction text square ``number`` shows under ``rules``."""
    effect = BOARD[number].effect
    if effect is Effect.NONE:
        return None
    if effect is Effect.SHIPWRECK and rules.square_4 is not Square4.BACK:
        return "shipwreck_off" if rules.square_4 is Square4.STAY else "shipwreck_ask"
    if effect is Effect.GO_BACK and rules.chain_25_to_14:
        return "go_back_chain"
    if effect is Effect.COLLECT_EACH and rules.square_32 is not Square32.MOVER:
        return f"collect_each_{rules.square_32.value}"
    if effect is Effect.FATHER:
        return "father_friday" if rules.square_33 is Square33.FRIDAY else "collect_bank"
    return str(effect.value)


def instruction(lang: str, number: int, rules: HouseRules | None = None) -> str:
    """What square ``number`` tells the player to do, or '' for a story square."""
    key = instruction_key(number, rules or HouseRules())
    if key is None:
        return ""
    square = BOARD[number]
    amount = square.amount
    if square.effect is Effect.GO_BACK and square.target is not None:
        amount = BOARD[square.target].amount
    template: str = texts(lang).INSTRUCTIONS[key]
    return template.format(n=amount, target=square.target)


def ui(lang: str, key: str, **values: object) -> str:
    """One interface text with its placeholders filled."""
    template: str = texts(lang).UI[key]
    return fill(lang, template, **values)


def fill(lang: str, template: str, **values: object) -> str:
    """``template`` with its placeholders filled; ``{n:chips}`` is a count with its noun
    in the form the number takes (1 chip, 2 chips; 1 žeton, 2 žetona; 1 merkki, 2 merkkiä).

    >>> fill("hr", "{a:chips}, {b:chips}, {c:chips}", a=21, b=3, c=11)
    '21 žeton, 3 žetona, 11 žetona'
    """
    if _plain(template):  # no format of ours: str.format's C is some 5x Formatter's Python
        return template.format(**values)
    parts = _fields(template)
    if parts is None:  # a field of a shape the texts do not use: the Formatter's own way
        return _Counts(lang).format(template, **values)
    counts = _Counts(lang)
    return "".join(literal if field is None else literal + counts.format_field(
        values[field], spec) for literal, field, spec in parts)


@functools.cache
def _plain(template: str) -> bool:
    """Whether ``template`` asks for no format but str.format's own (no ``{n:chips}``, no
    ``{name:dat}``, no conversion): the texts are few, each is asked once."""
    return all(spec == "" and conversion is None
               for _, field, spec, conversion in string.Formatter().parse(template)
               if field is not None)


@functools.cache
def _fields(template: str) -> tuple[tuple[str, str | None, str], ...] | None:
    """``template`` parsed once: (literal, field, spec) each, where every field is a plain
    name with a plain spec and no conversion (all the texts' are); None otherwise. The
    Formatter parses a template anew at each call: a quarter of the time of the machine's
    random-play test, which draws screens at every step, went there (its _vformat)."""
    parts = tuple(string.Formatter().parse(template))
    if any(field is not None and (not field.isidentifier() or conversion is not None
                                  or "{" in (spec or "")) for _, field, spec, conversion in parts):
        return None
    return tuple((literal, field, spec or "") for literal, field, spec, _ in parts)


def chip_nouns() -> frozenset[str]:
    """Every word the languages put after a count of chips ("chips", "žetona", "merkkiä"):
    the words of the CHIPS tables but the count."""
    return frozenset(word for code in LANGUAGES for form in texts(code).CHIPS.values()
                     for word in form.replace("{n}", " ").split())


def plural(lang: str, n: int) -> str:
    """The CLDR plural category of the whole number ``n`` in ``lang``: one, few or other."""
    return _PLURAL_RULES[lang](abs(n))


def _slavic(n: int) -> str:  # CLDR's rule for Croatian (integers)
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "other"


_PLURAL_RULES: dict[str, Callable[[int], str]] = {
    "en": lambda n: "one" if n == 1 else "other",
    "fi": lambda n: "one" if n == 1 else "other",
    "hr": _slavic,
    "ja": lambda n: "other",  # Japanese counts with a counter word, never a plural
}


class Name(str):
    """A player's name as the texts use it: itself, and what its cases are made of.

    ``ident`` is what follows the case's noun: the seat number of a default name
    ("Igrač 2", to him "igraču 2"), the name itself otherwise ("igraču Ana")."""

    ident: str

    def __new__(cls, text: str, ident: str | None = None) -> Name:
        made = super().__new__(cls, text)
        made.ident = text if ident is None else ident
        return made


CASES = ("gen", "dat", "all", "abl")
"""The cases a template may ask of a name: ``{other:dat}``. Each language's CASES table
says how it makes them (English has a genitive; Japanese uses particles, no case)."""


class _Counts(string.Formatter):
    """str.format, plus the ``chips`` format: a count and its noun, from the language's
    CHIPS table (keyed by plural category); and a name's case (``CASES``), from the
    language's CASES table."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "chips" and isinstance(value, int):
            forms: dict[str, str] = texts(self.lang).CHIPS
            return forms[plural(self.lang, value)].format(n=value)
        if format_spec in CASES:
            made: dict[str, str] = texts(self.lang).CASES
            ident = value.ident if isinstance(value, Name) else str(value)
            given = declined(self.lang, ident, format_spec) if ident == str(value) else None
            if given is not None:  # "Ani", "Anan": a given name in its case, no noun
                return given
            return made.get(format_spec, "{name}").format(name=value, id=ident)
        formatted: str = super().format_field(value, format_spec)
        return formatted
