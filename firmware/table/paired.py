"""Phones paired with the table: who may pair, and the list of phones kept, as pure
functions of the values (the code on the panel, the first boot's owner code, the phones
paired, oldest first). The step that applies them is ``phones.py``'s.

>>> from firmware.table.messages import Code
>>> phone = "a" * 64
>>> proof("123456", phone, Code("123456", "tok"), owner="", phones=())
'code'
>>> proof("654321", phone, Code("123456", "tok"), owner="", phones=())  # not the one shown
>>> [p.digest == phone for p in joined((), phone, "Chrome/Android", day=20000)]
[True]
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from firmware.table.messages import Code
from firmware.table.prefs import PHONES_MOST, Phone, is_phone

Phones = tuple[Phone, ...]
"""The phones paired, oldest first."""


def proof(given: str, phone: str, pairing: Code | None, owner: str,
          phones: Phones) -> Literal["code", "owner"] | None:
    """What ``given`` pairs ``phone`` with: the code (or its QR token) on the panel, or
    the first boot's owner code while no phone is paired; None: nothing (another code,
    or a phone not written as the table keeps one)."""
    if not is_phone(phone):
        return None
    if owner and not phones and given == owner:
        return "owner"
    if pairing is not None and given in (pairing.digits, pairing.token):
        return "code"
    return None


def joined(phones: Phones, phone: str, kind: str, day: int) -> Phones:
    """``phones`` with ``phone`` paired ``day`` as the newest (paired before: its old
    entry goes), those unused too long forgotten, and at most PHONES_MOST kept (the
    oldest go)."""
    kept = tuple(p for p in phones if p.digest != phone and not p.expired(day))
    return (*kept, Phone(phone, kind, day, day))[-PHONES_MOST:]


def used(phones: Phones, phone: str, day: int) -> Phones:
    """``phone``'s use on ``day`` (a clock behind never makes a use older), and the others
    unused too long forgotten."""
    return tuple(replace(p, used=max(p.used, day)) if p.digest == phone else p
                 for p in phones if p.digest == phone or not p.expired(day))


def forgotten(phones: Phones, phone: str) -> Phones:
    """``phones`` without ``phone``."""
    return tuple(p for p in phones if p.digest != phone)
