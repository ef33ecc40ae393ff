"""Whole numbers read from text, checked by length before they are converted.

Python's ``int()`` refuses more than 4,300 digits with a ``ValueError`` and is
slow long before that; a script token, a house rule or a seat never needs more
than a few digits, so anything longer is refused as what it is: not a number
this game can use.

>>> whole_number("12"), whole_number("1" * 5000), whole_number("-3"), whole_number("٣")
(12, None, None, None)
"""

from __future__ import annotations

MAX_DIGITS = 9


def whole_number(text: str) -> int | None:
    """The number that ``text`` spells in at most MAX_DIGITS ASCII digits, or None."""
    word = text.strip()
    if 0 < len(word) <= MAX_DIGITS and word.isascii() and word.isdigit():
        return int(word)
    return None
