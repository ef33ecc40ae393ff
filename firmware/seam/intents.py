"""What another process may ask of the table, and as which input of its machine.

Each intent is checked here, as the table's own commands check it (a name as
``robinson names`` checks it), and becomes one input: a setting a ``Prefer`` of the
settings in force with that one changed (so the machine stays their one owner, saves
them and redraws every mode), a repeat ``Repeat``, a pairing ``PairAsked`` or
``Paired``, the page's address ``Address``.

>>> from firmware.table.prefs import Prefs
>>> wanted({"intent": "language", "value": "fi"}, Prefs()).prefs.language
'fi'
>>> wanted({"intent": "brightness", "value": 9}, Prefs())
'brightness is a step from 1 (dimmest) to 4 (brightest), not 9'
"""

from __future__ import annotations

from firmware.config.phone import PHONE_KEYS, changed, flat, hardware_table
from firmware.config.settings import Config
from firmware.errors import ConfigError
from firmware.seam.wire import INTENTS, Message
from firmware.table import names as kept_names
from firmware.table.messages import (
    Address,
    ForgetPhone,
    Input,
    KeepAsked,
    PairAsked,
    Paired,
    PhoneUsed,
    Prefer,
    Repeat,
    Rewire,
)
from firmware.table.prefs import (
    BRIGHTNESS,
    PHONE_KIND,
    Prefs,
    brightness_level,
    is_phone,
    level_contrast,
)
from robinson_core import SEATS
from robinson_core.errors import quote
from robinson_core.texts import LANGUAGES

SWITCHES = {"voice": "voice", "story": "story"}  # intent -> the setting it switches
ADDRESS_MOST = 200


def wanted(message: Message, prefs: Prefs, config: Config | None = None) -> Input | str:
    """The input ``message`` asks for, with ``prefs`` the settings in force and ``config``
    the hardware's; or what is wrong with it, in one line."""
    value = message.get("value")
    match message.get("intent"):
        case "names":
            return _names(message.get("names"), prefs, message.get("was"))
        case "language":
            if value not in LANGUAGES:
                return f"language is one of {', '.join(LANGUAGES)}, not {_said(value)}"
            return Prefer(prefs.but(language=value))
        case "voice" | "story" as switch:
            if not isinstance(value, bool):
                return f"{switch} is true or false, not {_said(value)}"
            return Prefer(prefs.but(**{SWITCHES[switch]: value}))
        case "brightness":
            steps = len(BRIGHTNESS)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= steps:
                return f"brightness is a step from 1 (dimmest) to {steps} (brightest), not " \
                       f"{_said(value)}"
            return Prefer(prefs.but(contrast=level_contrast(value)))
        case "repeat":
            return Repeat()
        case "pair":
            return PairAsked()
        case "paired":
            proof, phone = message.get("proof"), message.get("phone")
            kind, day = message.get("kind", ""), message.get("day", 0)
            if not isinstance(proof, str) or not isinstance(phone, str) or not is_phone(phone):
                return "paired needs a proof (the code or its token) and a phone's digest"
            if not isinstance(kind, str) or (kind and not PHONE_KIND.fullmatch(kind)) \
                    or not _day(day):
                return "paired's kind is Browser/System, its day a day since 1970"
            return Paired(proof[:64], phone, kind, int(day))
        case "used" | "forget" as what:
            phone, day = message.get("phone"), message.get("day", 0)
            if not isinstance(phone, str) or not is_phone(phone) or not _day(day):
                return f"{what} needs a phone's digest (and used, a day since 1970)"
            return PhoneUsed(phone, int(day)) if what == "used" else \
                ForgetPhone(phone)
        case "hardware":
            return _hardware(message.get("changes"), config or Config())
        case "keep":
            return KeepAsked()
        case "address":
            if not isinstance(value, str) or len(value) > ADDRESS_MOST \
                    or not (value == "" or value.startswith(("http://", "https://"))) \
                    or not value.isprintable():
                return f"address is the page's http:// address, not {_said(value)}"
            return Address(value)
    return f"no such intent: {_said(message.get('intent'))} ({', '.join(INTENTS)})"


def _hardware(given: object, config: Config) -> Input | str:
    """``{"display.display": "sh1106"}``: those settings changed, checked as the config
    file is (``firmware.config.phone.changed``: one home for the checks); what the change made
    of the panel's size is said too, so the settings kept are the settings tried."""
    if not isinstance(given, dict) or not given or len(given) > len(PHONE_KEYS):
        return 'hardware is an object of settings, e.g. {"display.display": "sh1106"}'
    try:
        new = changed(config, given)
    except ConfigError as error:
        return str(error).removeprefix("phone: ")
    if "display.display" in given:
        given = {**given, "display.width": new.display.width,
                 "display.height": new.display.height}
    values = flat(hardware_table(new))
    return Rewire(tuple((key, values[key]) for key in given), new)


def level(prefs: Prefs) -> int:
    """The panel's brightness as a step from 1 (dimmest) to 4 (brightest)."""
    return brightness_level(prefs.contrast)


def _names(given: object, prefs: Prefs, was: object = None) -> Input | str:
    """``{"1": "Ana", "3": ""}``: those seats named (an empty name: the default again),
    the others as they are. ``was``, from a page's form, is each of those seats' name as
    the form was shown it: a seat named since (on another phone) is refused, never
    written over in silence."""
    if given == {} and isinstance(was, dict):  # a page's form with nothing changed
        return Prefer(prefs)
    if not isinstance(given, dict) or not given:
        return 'names is an object from seat to name, e.g. {"1": "Ana"}'
    if was is not None and not isinstance(was, dict):
        return "was is an object from seat to name, as the form was shown it"
    now = dict(prefs.names)
    naming: dict[int, str] = {}
    for key, name in given.items():
        seat = int(key) if isinstance(key, str) and key.isdigit() and len(key) < 3 else 0
        if seat not in SEATS:
            return f"seat {quote(str(key), 20)} is not one of {SEATS.start}-{SEATS.stop - 1}"
        if not isinstance(name, str):
            return f"the name of seat {seat} is not text"
        if why := kept_names.problem(seat, name):
            return why
        if was is not None and key in was and was[key] != now.get(seat, ""):
            named = quote(now[seat], 40) if now.get(seat) else "its own name again"
            return (f"seat {seat} was named {named} on another phone since this page was "
                    "opened: reload the page, then change it")
        naming[seat] = name
    return Prefer(prefs.but(names=kept_names.merged(prefs.names, naming)))


def _day(value: object) -> bool:
    """A day since 1970 (0: none given), as the page sends it."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10 ** 6


def _said(value: object) -> str:
    return quote(str(value), 40) if isinstance(value, str) else repr(value)[:40]
