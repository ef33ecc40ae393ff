"""What an action caused: returned by the engine, turned into screens by the app.

Seats are ints; ``None`` as a payer or payee is the bank (the pot).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .actions import Choice


class Cause(enum.Enum):
    """Why a token moved."""

    ROLL = "roll"
    SHIPWRECK = "shipwreck"  # 4 -> start
    GO_BACK = "go_back"  # 25 -> 14
    JUMP = "jump"  # 23 -> 27
    SWAP = "swap"  # 36 <-> 41


class Why(enum.Enum):
    """Why chips moved."""

    SQUARE = "square"  # the square's own instruction
    FRIDAY = "friday"  # the Friday rule, following a master's transfer
    DEAD_CHIPS = "dead_chips"  # house rule dead_chips = pot


class BondEnd(enum.Enum):
    """Why a Friday bond ended."""

    REPLACED = "replaced"  # the master swore in a new Friday
    TAKEN = "taken"  # the Friday swore to a new master
    ELIMINATED = "eliminated"  # one of the two died on 42


@dataclass(frozen=True)
class Rolled:
    """The die showed ``face`` for ``seat``."""

    seat: int
    face: int


@dataclass(frozen=True)
class Moved:
    """``seat``'s token went from ``start`` to ``end``, and why."""

    seat: int
    start: int
    end: int
    cause: Cause = Cause.ROLL
    bounced: bool = False  # went past 45 and came back by the excess


@dataclass(frozen=True)
class Transfer:
    """Chips moving: ``asked`` is what the board said, ``amount`` what actually moved."""

    payer: int | None
    payee: int | None
    asked: int
    amount: int
    why: Why = Why.SQUARE


@dataclass(frozen=True)
class Decided:
    """``seat`` chose on square 4, 7, 20 or 23."""

    seat: int
    choice: Choice
    square: int  # 4 (house rule square_4 = ask), 7, 20 or 23


@dataclass(frozen=True)
class WillSitOut:
    """``seat`` landed on 12 and will miss the next turn."""

    seat: int


@dataclass(frozen=True)
class SatOut:
    """``seat``'s turn was spent sitting out."""

    seat: int


@dataclass(frozen=True)
class Parrot:
    """Square 17: everyone says "Poor Robinson!"."""

    seat: int


@dataclass(frozen=True)
class NoNeighbour:
    """The square names another player, but nobody else is left."""

    seat: int


@dataclass(frozen=True)
class FridaySworn:
    """``friday`` became ``master``'s Friday (square 29)."""

    master: int
    friday: int


@dataclass(frozen=True)
class BondEnded:
    """A Friday bond ended, and why."""

    master: int
    friday: int
    why: BondEnd


@dataclass(frozen=True)
class Swapped:
    """``seat`` on 36 and ``other`` on 41 swapped places."""

    seat: int  # the mover, now on 41
    other: int  # now on 36


@dataclass(frozen=True)
class Eliminated:
    """``seat`` rolled a 6 from 42 and is out of the game."""

    seat: int


@dataclass(frozen=True)
class Won:
    """``seat`` reached 45 and took the whole ``pot``."""

    seat: int
    pot: int


@dataclass(frozen=True)
class Shared:
    """The winner gave ``partner`` a share of the pot (a third to a Friday, else half)."""

    winner: int
    partner: int
    amount: int
    as_friday: bool  # the partner is the winner's Friday (a third), else the share (a half)


@dataclass(frozen=True)
class NoWinner:
    """Everyone died on 42: the pot stays unclaimed."""

    pot: int


Event = (Rolled | Moved | Transfer | Decided | WillSitOut | SatOut | Parrot | NoNeighbour
         | FridaySworn | BondEnded | Swapped | Eliminated | Won | Shared | NoWinner)
