"""The house rules: where a table may read the rule sheet its own way.

>>> HouseRules().purse, HouseRules.from_strings({"share_with": "left"}).share_with
(20, <ShareWith.LEFT: 'left'>)
"""

from __future__ import annotations

import enum
import typing
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from .errors import HouseRuleError, quote
from .numbers import whole_number

MAX_CHIPS = 999  # what fits a 128x64 screen beside a name


class DeadChips(enum.Enum):
    """What happens to an eliminated player's chips (42)."""

    KEEP = "keep"
    POT = "pot"


class ShareWith(enum.Enum):
    """Who the winner shares with when the winner has no Friday (45)."""

    RIGHT = "right"
    LEFT = "left"
    RUNNER_UP = "runner_up"
    NONE = "none"


class Square4(enum.Enum):
    """What the shipwreck on square 4 does."""

    BACK = "back"  # back to start: the next roll is a first roll again
    ASK = "ask"  # the player decides, like 7, 20 and 23: restart (a short press) or stay
    STAY = "stay"  # nothing happens


class Square32(enum.Enum):
    """Who collects on square 32, where Robinson and Friday free the prisoners."""

    MOVER = "mover"  # the mover, from every other active player but the mover's Friday
    BOTH = "both"  # the mover and the mover's Friday, each from every other player
    EVERYONE = "everyone"  # the mover, from every other active player, Friday included


class Square33(enum.Enum):
    """Who collects the 3 of square 33, where Friday finds his father."""

    MOVER = "mover"  # the mover (and the Friday rule gives the mover's Friday 1)
    FRIDAY = "friday"  # the mover's Friday, if any, and no Friday rule on top


@dataclass(frozen=True)
class HouseRules:
    """Every house rule of RULES.md with its default."""

    purse: int = 20
    stake: int = 10
    debt: bool = False
    square_4: Square4 = Square4.BACK
    chain_25_to_14: bool = True
    dead_chips: DeadChips = DeadChips.KEEP
    share_with: ShareWith = ShareWith.RIGHT
    square_33: Square33 = Square33.MOVER
    square_32: Square32 = Square32.MOVER

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            expected = _TYPES[field.name]
            # bool is an int in Python: keep the two apart.
            if type(value) is not expected:
                raise HouseRuleError(
                    f"house rule {field.name} must be {_describe(field.name)}, not {value!r}")
        if not 0 <= self.purse <= MAX_CHIPS:
            raise HouseRuleError(f"house rule purse must be 0..{MAX_CHIPS}, not {self.purse}")
        if not 0 <= self.stake <= self.purse:
            raise HouseRuleError(
                f"house rule stake must be 0..purse ({self.purse}), not {self.stake}")

    @classmethod
    def from_strings(cls, values: Mapping[str, str]) -> HouseRules:
        """Build from ``name -> text`` pairs, as typed on a command line."""
        return cls().with_strings(values)

    def with_strings(self, values: Mapping[str, str]) -> HouseRules:
        """A copy with the named rules changed, their values given as text."""
        changes: dict[str, object] = {}
        for given, text in values.items():
            name = given
            if given in OLD_NAMES:  # an earlier rule, now one value of another
                name, text = OLD_NAMES[given], _old_value(given, text)
                if name in values and _parse(name, values[name]) != _parse(name, text):
                    raise HouseRuleError(
                        f"house rules {given} and {name} disagree: give only {name} "
                        f"({_describe(name)})")
            elif name not in _TYPES:
                raise HouseRuleError(
                    f"unknown house rule {quote(name)}; the house rules are {', '.join(NAMES)}")
            changes[name] = _parse(name, text)
        return replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_text(cls, text: str) -> HouseRules:
        """Build from ``name=value`` words, the inverse of ``as_text``."""
        return cls.from_strings(dict(split_rule(word) for word in text.split()))

    def as_text(self) -> str:
        """Every rule as ``name=value`` words (``purse=10 debt=false ...``): how a saved
        game and the database keep the rules. A rule added later (``LATER``) is written
        only where it is not its default, and a rule that took an earlier one's place in
        the earlier one's words where they say it (``square_4=back`` as
        ``restart_on_4=true``): a game saved before either reads as it was saved, and its
        checksum still matches."""
        default = HouseRules().as_strings()
        return " ".join(_saved_as(k, v) for k, v in self.as_strings().items()
                        if k not in LATER or v != default[k])

    def as_strings(self) -> dict[str, str]:
        """Every rule as ``name -> text``, the inverse of ``from_strings``."""
        return {name: format_value(getattr(self, name)) for name in NAMES}

    def changed(self) -> dict[str, str]:
        """Only the rules that differ from the defaults, as text."""
        default = HouseRules().as_strings()
        return {k: v for k, v in self.as_strings().items() if default[k] != v}


_TYPES: dict[str, type] = typing.get_type_hints(HouseRules)
NAMES: tuple[str, ...] = tuple(_TYPES)
LATER = frozenset({"square_32"})
"""The rules added after games were first saved (their text leaves them out at default)."""
OLD_NAMES = {"restart_on_4": "square_4"}
"""An earlier rule's name, and the rule that took its place: the old name is still read
wherever rules are (config, ``--rule``, saved games), ``true`` as ``back`` and ``false``
as ``stay``."""
_OLD_VALUES = {"true": "back", "false": "stay"}
ACCEPTED: tuple[str, ...] = (*NAMES, *OLD_NAMES)
"""Every name a rule may be given by."""


def _old_value(name: str, text: str) -> str:
    """The value of ``restart_on_4`` (true or false) as the square_4 it means."""
    word = text.strip().lower()
    if word not in _OLD_VALUES:
        raise HouseRuleError(f"house rule {name} must be true or false, not {quote(text)} "
                             f"(or give {OLD_NAMES[name]}: {_describe(OLD_NAMES[name])})")
    return _OLD_VALUES[word]


_SAVED_AS = {(new, value): f"{old}={old_value}" for old, new in OLD_NAMES.items()
             for old_value, value in _OLD_VALUES.items()}
"""A rule's value that an old name's words say, as a saved game writes it."""


def _saved_as(name: str, value: str) -> str:
    """One rule as a saved game writes it: in its old name's words where those say it."""
    return _SAVED_AS.get((name, value), f"{name}={value}")


def split_rule(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` (typed, or one word of a saved game) as ``(name, value)``."""
    name, sep, value = text.partition("=")
    if not sep:
        raise HouseRuleError(f"a house rule is NAME=VALUE, not {quote(text)}")
    return name.strip(), value


def format_value(value: object) -> str:
    """The text form of a rule value: ``true``, ``12``, ``runner_up``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


def allowed_values(name: str) -> tuple[str, ...]:
    """The values a named-option rule allows, or () for a number or a flag."""
    kind = _TYPES[name]
    if issubclass(kind, enum.Enum):
        return tuple(str(member.value) for member in kind)
    return ()


def _describe(name: str) -> str:
    kind = _TYPES[name]
    if kind is bool:
        return "true or false"
    if kind is int:  # every number rule is a count of chips, up to MAX_CHIPS
        return f"a whole number from 0 to {MAX_CHIPS}"
    return "one of " + ", ".join(allowed_values(name))


def _parse(name: str, text: str) -> object:
    kind = _TYPES[name]
    word = text.strip().lower()
    if kind is bool:
        if word in ("true", "false"):
            return word == "true"
    elif kind is int:
        number = whole_number(word)
        if number is not None:
            return number
    elif issubclass(kind, enum.Enum):
        for member in kind:
            if member.value == word:
                return member
    raise HouseRuleError(f"house rule {name} must be {_describe(name)}, not {quote(text)}")
