"""What the table keeps between starts, as one value: ``Prefs``, and the rules of which
setting is in force (the command line, then what is kept, then the config).

The store keeps them as strings (``PREF_KEYS``); ``Prefs.from_strings`` reads them
back and ``as_strings`` writes them, as ``HouseRules`` does its options.

>>> from firmware.config.settings import Config
>>> prefs, wrong = Prefs.from_strings({"language": "fi", "names": '{"2": "Ana"}'},
...                                   Prefs.defaults(Config()))
>>> prefs.language, prefs.names, wrong
('fi', ((2, 'Ana'),), [])
>>> prefs.as_strings()["voice"]
'off'
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from firmware.config.settings import SPEEDS_ALLOWED, VOLUMES_ALLOWED, Config, Voice
from firmware.table import names as kept_names
from robinson_core import SEATS, Game
from robinson_core.numbers import whole_number
from robinson_core.texts import LANGUAGES

SWITCHED = {"on": True, "off": False}  # a switch as the store keeps it
FACES = ("1", "2", "3", "4", "5", "6")


@dataclass(frozen=True)
class Owed:
    """Faces of rolls taken back, each owed to the position it was rolled from (a game's
    seats, first seat, house rules and actions): the next roll from that position shows
    it, whatever came between (a new game, a put-away and a bring-back, a restart). An
    undo never buys a new throw; a game begun anew at the same position owes it too.

    >>> game = Game((1, 2))
    >>> owed = Owed().owe(game, 5)
    >>> owed.face(game), Owed.from_string(owed.as_string()) == owed
    (5, True)
    >>> owed.paid(game).face(game) is None
    True
    """

    faces: tuple[tuple[str, int], ...] = ()  # (position, face), the newest last

    def face(self, game: Game) -> int | None:
        """The face owed to ``game`` as it stands, if any."""
        return dict(self.faces).get(position(game))

    def owe(self, game: Game, face: int) -> Owed:
        """``face`` owed to ``game`` as it stands (the oldest let go past ``OWED_MOST``)."""
        at = position(game)
        kept = tuple(entry for entry in self.faces if entry[0] != at)
        return Owed((*kept, (at, face))[-OWED_MOST:])

    def paid(self, game: Game) -> Owed:
        """The face owed to ``game`` as it stands, shown: owed no more."""
        at = position(game)
        return Owed(tuple(entry for entry in self.faces if entry[0] != at))

    def as_string(self) -> str:
        return " ".join(f"{at}:{face}" for at, face in self.faces)

    @classmethod
    def from_string(cls, text: str) -> Owed:
        """``"3f9a0c1e22b4:5 …"``: each position's face; anything unreadable is left
        out (an older table's ``"12:5 3"``, faces by the game's length, among it)."""
        faces = []
        for word in text.split():
            at, _, face = word.partition(":")
            if len(at) == POSITION_DIGITS and all(c in HEX for c in at) and face in FACES:
                faces.append((at, int(face)))
        return cls(tuple(faces[-OWED_MOST:]))


OWED_MOST = 16
"""Positions a table owes faces to at once (each undo of a roll adds one, each roll
from one of them pays it): more than a family takes back between two rolls."""
POSITION_DIGITS = 16
HEX = frozenset("0123456789abcdef")


def position(game: Game) -> str:
    """A game's position as a short digest of its saved form (``Game.save``: seats, first
    seat, house rules and actions): the same for two games alike in those."""
    return hashlib.blake2b(game.save().encode(), digest_size=POSITION_DIGITS // 2).hexdigest()


@dataclass(frozen=True)
class Prefs:
    """The table's settings as in force: what the menu (or another process) set last."""

    language: str = "en"
    contrast: int = 255
    voice: bool = False
    story: bool = False
    odds: bool = False  # a decision's chances to win, shown (and said)
    volume: int = Voice.volume  # the voice's loudness (espeak-ng's amplitude)
    speed: int = Voice.speed  # the voice's words a minute
    names: kept_names.Names = ()  # set with robinson names: before the config's
    owed: Owed = Owed()
    phones: tuple[Phone, ...] = ()  # the paired phones (web), oldest first

    @classmethod
    def defaults(cls, config: Config, contrast: int | None = None) -> Prefs:
        """What a table that kept nothing starts with: the config's."""
        return cls(language=config.language, contrast=contrast or config.display.contrast,
                   voice=config.voice.enabled, story=config.voice.storyteller,
                   odds=config.table.odds, volume=config.voice.volume,
                   speed=config.voice.speed)

    @classmethod
    def from_strings(cls, kept: Mapping[str, str], defaults: Prefs) -> tuple[Prefs, list[str]]:
        """The prefs the store kept, each one that is missing or unreadable the default's;
        and what was wrong with the names left out (said once each, never a reason not
        to start)."""
        language = kept.get("language", "")
        contrast = whole_number(kept.get("contrast", ""))
        volume = whole_number(kept.get("volume", ""))
        speed = whole_number(kept.get("speed", ""))
        speed = FORMER_SPEEDS.get(speed, speed) if speed is not None else None
        names, wrong = kept_names.from_pref(kept.get(kept_names.PREF, ""))
        prefs = cls(
            language=language if language in LANGUAGES else defaults.language,
            contrast=contrast if contrast is not None and 1 <= contrast <= 255
            else defaults.contrast,
            voice=SWITCHED.get(kept.get("voice", ""), defaults.voice),
            story=SWITCHED.get(kept.get("story", ""), defaults.story),
            odds=SWITCHED.get(kept.get("odds", ""), defaults.odds),
            volume=volume if volume is not None and volume in VOLUMES_ALLOWED else defaults.volume,
            speed=speed if speed is not None and speed in SPEEDS_ALLOWED else defaults.speed,
            names=names or defaults.names,
            owed=Owed.from_string(kept.get("owed", "")),
            phones=phones_from_string(kept.get("phones", "")))
        return prefs, wrong

    def as_strings(self) -> dict[str, str]:
        """The prefs as the store keeps them (``from_strings`` reads them back)."""
        return {"language": self.language, "contrast": str(self.contrast),
                "voice": "on" if self.voice else "off", "story": "on" if self.story else "off",
                "odds": "on" if self.odds else "off",
                "volume": str(self.volume), "speed": str(self.speed),
                kept_names.PREF: kept_names.to_pref(self.names), "owed": self.owed.as_string(),
                "phones": " ".join(phone.as_string() for phone in self.phones)}

    def but(self, **changes: object) -> Prefs:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def digests(self) -> tuple[str, ...]:
        """The paired phones' digests, as the page checks a session against them."""
        return tuple(phone.digest for phone in self.phones)


PHONES_MOST = 16
"""Phones paired at once: pairing one more lets the oldest go (it pairs again)."""
PHONE_DIGITS = 64  # a phone as the table keeps it: a SHA-256 digest of its session, in hex
PHONE_DAYS = 30
"""A paired phone unused this many days is forgotten (its cookie lasts as long, and is
renewed each day it is used): a phone lost or given away does not stay paired."""
PHONE_KIND = re.compile(r"[A-Za-z]{1,12}/[A-Za-z]{1,12}")  # its browser and system: Chrome/Android


@dataclass(frozen=True)
class Phone:
    """A paired phone: its session's digest, what it is (its browser and system, as the
    page read them: ``Chrome/Android``; "" unknown), and the days it paired and was last
    used (days since 1970 by the Pi's clock; 0: unknown, as for a phone kept before)."""

    digest: str
    kind: str = ""
    paired: int = 0
    used: int = 0

    def expired(self, today: int) -> bool:
        """Unused for more than PHONE_DAYS days by ``today``. Never for a phone with no day
        of use yet, nor by a clock behind it (a Pi without its time yet runs behind)."""
        return self.used > 0 and today - self.used > PHONE_DAYS

    def as_string(self) -> str:
        return ":".join((self.digest, str(self.paired), str(self.used), self.kind))

    @classmethod
    def from_string(cls, text: str) -> Phone | None:
        """A phone as ``as_string`` keeps it, or a bare digest (kept before); else None."""
        digest, _, rest = text.partition(":")
        if not is_phone(digest):
            return None
        paired, _, rest = rest.partition(":")
        used, _, kind = rest.partition(":")
        return cls(digest, kind if PHONE_KIND.fullmatch(kind) else "",
                   int(paired) if paired.isdigit() and len(paired) < 7 else 0,
                   int(used) if used.isdigit() and len(used) < 7 else 0)


def phones_from_string(text: str) -> tuple[Phone, ...]:
    """The paired phones kept; anything else is left out (a phone left out pairs again, as
    after "Forget phones").

    >>> [p.digest[:3] for p in phones_from_string("a" * 64 + " junk " + "b" * 64 + ":3:9:X/Y")]
    ['aaa', 'bbb']
    >>> phones_from_string("b" * 64 + ":20400:20420:Chrome/Android")[0].used
    20420
    """
    kept: dict[str, Phone] = {}
    for word in text.split():
        if (phone := Phone.from_string(word)) is not None:
            kept[phone.digest] = phone
    return tuple(kept.values())[-PHONES_MOST:]


def is_phone(text: str) -> bool:
    """Whether ``text`` is a phone as the table keeps it (a digest in lower-case hex)."""
    return len(text) == PHONE_DIGITS and all(c in HEX for c in text)


Step = TypeVar("Step", int, str)
"""A setting the menu steps through: a volume, a speed, a language."""

VOLUMES = (100, 70, 40)  # the menu's steps: loud, softer, soft
SPEEDS = (185, 220, 150)  # normal, fast, slow (words a minute; each language at its pace)
FORMER_SPEEDS = {170: 185, 200: 220, 140: 150}
"""The menu's steps before its voice was made quicker (to say 95 % of results within 4
s), each read as the step it became: a family that chose "fast" still has fast."""
BRIGHTNESS = (255, 128, 48, 8)  # the panel's contrast at the menu's steps: 4/4 to 1/4


def brightness_step(contrast: int) -> int:
    """Which of the BRIGHTNESS steps ``contrast`` is nearest to (0 = brightest)."""
    return min(range(len(BRIGHTNESS)), key=lambda i: abs(BRIGHTNESS[i] - contrast))


def brightness_level(contrast: int) -> int:
    """``contrast`` as the menu and the page say it: a step from 1 (dimmest) to
    len(BRIGHTNESS) (brightest)."""
    return len(BRIGHTNESS) - brightness_step(contrast)


def level_contrast(level: int) -> int:
    """The contrast of the step ``level`` (1 dimmest, len(BRIGHTNESS) brightest)."""
    return BRIGHTNESS[len(BRIGHTNESS) - level]


def next_brightness(contrast: int) -> int:
    """The menu's brightness after one press from ``contrast``: a step dimmer, and from the
    dimmest back to the brightest."""
    return BRIGHTNESS[(brightness_step(contrast) + 1) % len(BRIGHTNESS)]


def next_step(value: Step, steps: tuple[Step, ...]) -> Step:
    """The menu's next step after ``value`` (from one the config set: the first)."""
    return steps[(steps.index(value) + 1) % len(steps)] if value in steps else steps[0]


PREF_KEYS = tuple(Prefs().as_strings())
"""Every key the store keeps: the one list, from ``Prefs`` itself."""


def in_force(kept: Mapping[str, str], config: Config, *, lang: str | None = None,
             voice: bool | None = None, contrast: int | None = None) -> tuple[Prefs, list[str]]:
    """The prefs a table starts with: ``lang`` and ``voice`` from the command line over
    what is kept, what is kept over the config (``contrast``: the panel's own, if the
    config gives none)."""
    prefs, wrong = Prefs.from_strings(kept, Prefs.defaults(config, contrast))
    return prefs.but(language=lang or prefs.language,
                     voice=prefs.voice if voice is None else voice), wrong


def seat_names(prefs: Prefs, config: Config) -> tuple[tuple[int, str], ...]:
    """Each seat's chosen name: the one kept (robinson names), else the config's."""
    kept = dict(prefs.names)
    return tuple((seat, name) for seat in SEATS
                 if (name := kept.get(seat) or config.seat_name(seat)))
