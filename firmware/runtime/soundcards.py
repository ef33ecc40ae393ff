"""Which ALSA device the voice plays to when the config says ``device = "auto"``.

ALSA's ``default`` is card 0, and card 0 is rarely the speaker: on a Pi 3 or 4 it is
the 3.5 mm jack, on a Pi 5 the first HDMI port (``vc4hdmi0``, then ``vc4hdmi1``), and
an I2S amplifier or a USB speaker comes after them (on a Zero 2 W, in probe order).
So the card is named, never numbered: the MAX98357A's overlay names its card
``MAX98357A``; a USB speaker's name is its own, found by its driver (``USB-Audio``);
the jack's card is ``Headphones``. ``plughw`` converts espeak-ng's 22.05 kHz mono to
what the card takes (``hw`` refuses it: the amplifier plays stereo only).

The cards are read from ``/proc/asound/cards`` for each utterance (a few lines), so a
USB speaker plugged in during a game is found at the next result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

AUTO = "auto"
AMPLIFIER = "MAX98357A"  # the card's name, from the max98357a overlay's simple-audio-card
JACK = "Headphones"  # the Pi 3/4's 3.5 mm jack (bcm2835's card)
CARDS = Path("/proc/asound/cards")

ALSA_DEVICE_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_-:,=.")
PLAYING_DEVICES = frozenset({"default", "sysdefault", "hw", "plughw", "dmix", "front", "null",
                             "pulse", "pipewire"})
"""ALSA's device kinds that play to a card (or nowhere: ``null``); ``file``, ``tee``,
``shm`` and the like write sound elsewhere (``file:FILE=robinson.db`` would overwrite the
saves), and a nested plugin (a second ``:``) could name one."""


def playing_device(device: str) -> bool:
    """``device`` is one of PLAYING_DEVICES, alone or with its card's arguments."""
    kind, _, args = device.partition(":")
    return kind in PLAYING_DEVICES and ":" not in args


_CARD = re.compile(r"^\s*(\d+)\s+\[(\S+)\s*\]:\s+(\S+)")


@dataclass(frozen=True)
class Card:
    """One line of /proc/asound/cards: `` 1 [MAX98357A      ]: simple-card - MAX98357A``."""

    index: int
    name: str
    driver: str


def cards(text: str) -> list[Card]:
    """The cards listed in ``text`` (the contents of /proc/asound/cards), in order."""
    found = []
    for line in text.splitlines():
        match = _CARD.match(line)
        if match:
            found.append(Card(int(match[1]), match[2], match[3]))
    return found


def plughw(name: str) -> str:
    return f"plughw:CARD={name},DEV=0"


def chosen(device: str, *, amplifier: bool, listed: list[Card]) -> str:
    """The device to play to: ``device`` as the config gives it, or for ``auto`` the
    amplifier's card (with ``i2s_amplifier``: by name, present or not, so that a missing
    one is said as missing, not heard from another card), else a USB speaker, else the
    jack, else ALSA's default."""
    if device != AUTO:
        return device
    if amplifier:
        return plughw(AMPLIFIER)
    for card in listed:
        if card.driver == "USB-Audio":
            return plughw(card.name)
    if any(card.name == JACK for card in listed):
        return plughw(JACK)
    return "default"


def read_cards(path: Path = CARDS) -> list[Card]:
    """The machine's cards; none where there is no sound at all (no /proc/asound)."""
    try:
        return cards(path.read_text(encoding="ascii", errors="replace"))
    except OSError:
        return []
