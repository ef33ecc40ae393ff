"""What a screen says, as a value: a title bar, a body that wraps and pages, a prompt.

Pure data (no Pillow): the table's machine decides screens, ``render`` draws them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Picture(enum.Enum):
    """The small pictures a screen may carry."""

    DIE_1 = 1
    DIE_2 = 2
    DIE_3 = 3
    DIE_4 = 4
    DIE_5 = 5
    DIE_6 = 6
    PARROT = "parrot"
    GALLOWS = "gallows"
    HOME = "home"

    @classmethod
    def die(cls, face: int) -> Picture:
        return cls(face)


@dataclass(frozen=True)
class Screen:
    """What the table shows: a title bar, a body that wraps and pages, a prompt."""

    title: str = ""
    body: tuple[str, ...] = ()
    footer: str = ""
    picture: Picture | None = None
    badge: str = ""  # a word at the right of the title bar: RECALL, DEMO, 2/3
    big: str = ""  # one large word in the middle (the title screen)
    tilt: int = 0  # picture offset, for a tumbling die
    die: int = 0  # a small die showing this face in the title bar (a result)
    essential: int = 0  # the body's first lines a press must not skip (a result's money)
    more: str = ""  # the footer while a press only turns the page to those lines
    seat: int = 0  # whose screen it is: the title bar in their colour, their square marked
    board: tuple[tuple[int, int], ...] = ()  # (seat, square) of each token on the board
    side_title: str = ""  # the standings, for a panel with room beside the screen (WIDE)
    side: tuple[str, ...] = ()
    cursor: int = -1  # a body row that must stay in view (a menu's ▶)
    compact: tuple[str, ...] = ()  # the body where ``body`` would take more than one page
    shorter: tuple[str, ...] = ()  # titles to use, in turn, where ``title`` is too wide
    qr: str = ""  # a QR code of this text beside the body (a phone's pairing address)
    outline: bool = False  # a line on the panel's four edges (a test pattern: all in view?)
    glance: str = ""  # a result in one row, for a strip's page 1 beside the prompt: the
    # mover's chips as they changed, or the first thing the result says
    ledger: str = ""  # a result's mover's chips and the pot (the strip ends with it)


NAME = "ROBINSON"
"""The game's name: the title's big line, and the head of a message that stands alone."""


def title_name(badge: str = "") -> Screen:
    """The title's name alone, its lines not yet: the table's first frame
    (``firmware.app``), drawn before the rest of the table loads; the title (``screens``)
    is drawn over it."""
    return Screen(big=NAME, badge=badge)
