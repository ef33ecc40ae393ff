"""The language each phone reads the page in, whatever the table's is.

A phone's own choice (its cookie, chosen on Settings: no pairing needed, it changes
nothing at the table) comes first; then the first of its browser's languages the page
has (``Accept-Language``, in the order of its weights); then the table's own (the
panel's and the voice's), for a browser set to none of the four. The table's language
is a setting of the table, changed by a paired phone; a phone's is its own.
"""

from __future__ import annotations

from typing import NamedTuple

from robinson_core.texts import LANGUAGES

COOKIE = "robinson_lang"
KEEP_DAYS = 400  # the longest a browser keeps a cookie (Chromium's cap)
ACCEPT_MOST = 32  # languages of Accept-Language weighed; the rest are not read


def of_browser(accept: str) -> str | None:
    """The first of ``accept``'s languages (an ``Accept-Language`` header) the page has,
    by weight, then order: "hr-HR,hr;q=0.9,en;q=0.8" is "hr"; None if it names none."""
    weighed: list[tuple[float, int, str]] = []
    for order, part in enumerate(accept.split(",")[:ACCEPT_MOST]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        primary = tag.strip().split("-")[0].lower()
        if primary in LANGUAGES and 0 < weight <= 1:
            weighed.append((-weight, order, primary))
    return min(weighed)[2] if weighed else None


def chosen(cookie: str | None) -> str | None:
    """The phone's own choice, if its cookie holds one of the four (else none)."""
    return cookie if cookie in LANGUAGES else None


class Reading(NamedTuple):
    """What decides a phone's language: its own choice, its browser's, the table's."""

    chosen: str | None
    browser: str | None
    table: str

    @classmethod
    def of(cls, cookie: str | None, accept: str, table: str) -> Reading:
        return cls(chosen(cookie), of_browser(accept), table)

    @property
    def language(self) -> str:
        """The language this phone reads the page in (see the module's doc)."""
        return self.chosen or self.browser or self.table
