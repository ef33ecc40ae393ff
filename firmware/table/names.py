"""The players' names the table keeps (``robinson names 1=Ana 2=Ben``), in its prefs.

A name set here goes before the config's ``[table] seat_names`` and the language's
default ("Player 3", "Igrač 3"). Kept as one pref, a JSON object from seat to
name; a damaged or stale entry (a seat that cannot be, a name too long for the
panel) is left out and said (in one line, however many), never a reason not to start.
"""

from __future__ import annotations

import json

from firmware.display.layout import NAME_LETTERS, name_fits
from robinson_core import SEATS
from robinson_core.errors import quote

PREF = "names"

Names = tuple[tuple[int, str], ...]


WIDE_LETTERS = NAME_LETTERS * 3 // 4
"""The longest seat name in Japanese characters (each as wide as 4/3 of a letter)."""


def fault(name: str) -> str:
    """What is wrong with ``name`` as a seat's: "bad" (not printable, or spaces around
    it), "long" (wider than NAME_LETTERS letters), or '' (fine; empty: the default's).
    One rule, said in each one's words: here, and on the page in a phone's language."""
    if name and (not name.isprintable() or name != name.strip()):
        return "bad"
    if name and not name_fits(name):
        return "long"
    return ""


def problem(seat: int, name: str) -> str:
    """Why ``name`` cannot be seat ``seat``'s, or '' (an empty name: the default's)."""
    if seat not in SEATS:
        return f"seat {seat} is not one of {SEATS.start}-{SEATS.stop - 1}"
    wrong = fault(name)
    if wrong == "bad":
        return f"the name of seat {seat} must be printable letters, without spaces around"
    if wrong == "long":
        return (f"the name of seat {seat} is longer than {NAME_LETTERS} letters "
                f"({WIDE_LETTERS} Japanese characters): {quote(name, 40)}")
    return ""


def merged(kept: Names, given: dict[int, str], clear: bool = False) -> Names:
    """The names once ``given`` is laid over ``kept`` (over none, with ``clear``): an
    empty name gives its seat the default again. ``robinson names`` and a phone's form
    both name seats by this."""
    now = {} if clear else dict(kept)
    now.update(given)
    return tuple(sorted((seat, name) for seat, name in now.items() if name))


def from_pref(text: str) -> tuple[Names, list[str]]:
    """The names kept in the pref, and what was wrong with any left out."""
    if not text:
        return (), []
    try:
        kept = json.loads(text)
    except ValueError:
        return (), ["the kept names are not readable: set them again with robinson names"]
    if not isinstance(kept, dict):
        return (), ["the kept names are not readable: set them again with robinson names"]
    names, wrong = [], []
    for key, name in kept.items():
        seat = int(key) if isinstance(key, str) and key.isdigit() and len(key) < 3 else 0
        why = problem(seat, name) if isinstance(name, str) else (
            f"seat {quote(str(key), 20)}: not a name")
        if why:
            wrong.append(why)
        elif name:
            names.append((seat, name))
    if len(wrong) > 1:  # one line, however many were planted
        wrong = [f"{wrong[0]} (and {len(wrong) - 1} more left out)"]
    return tuple(sorted(names)), wrong


def to_pref(names: Names) -> str:
    """The pref that keeps ``names``."""
    return json.dumps({str(seat): name for seat, name in sorted(names)}, ensure_ascii=False)
