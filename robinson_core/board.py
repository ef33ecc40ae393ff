"""The board as data: the 45 squares and what each one does.

>>> BOARD[8].effect, BOARD[8].amount
(<Effect.PAY_BANK: 'pay_bank'>, 3)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import BoardError

HOME = 45
START = 0


class Effect(enum.Enum):
    """What landing on a square does (the instruction after the dash)."""

    NONE = "none"
    EVERYONE_PAYS = "everyone_pays"  # 1: every active player pays the bank
    COLLECT_BANK = "collect_bank"
    SHIPWRECK = "shipwreck"  # 4: back to start
    TREE = "tree"  # 7: may stay on later turns
    PAY_BANK = "pay_bank"
    PAY_NEIGHBOUR = "pay_neighbour"  # 10: pay the right-hand neighbour
    SIT_OUT = "sit_out"  # 12
    PARROT = "parrot"  # 17
    ROLL_AGAIN = "roll_again"  # 20
    JUMP = "jump"  # 23: may jump to ``target``
    GO_BACK = "go_back"  # 25: back to ``target``
    FRIDAY = "friday"  # 29: collect from the neighbour, who becomes your Friday
    COLLECT_EACH = "collect_each"  # 32: from each other player but the mover's Friday
    FATHER = "father"  # 33: collect from the bank; house rule square_33 says who
    SWAP = "swap"  # 36: swap with a player on ``target``
    GALLOWS = "gallows"  # 42: a 6 from here kills
    HOME = "home"  # 45: the win


# Effects whose square names an amount, and those that name another square.
_WITH_AMOUNT = {
    Effect.EVERYONE_PAYS,
    Effect.COLLECT_BANK,
    Effect.PAY_BANK,
    Effect.PAY_NEIGHBOUR,
    Effect.FRIDAY,
    Effect.COLLECT_EACH,
    Effect.FATHER,
}
_WITH_TARGET = {Effect.SHIPWRECK, Effect.JUMP, Effect.GO_BACK, Effect.SWAP}


@dataclass(frozen=True)
class Square:
    """One square of the board: its number, its effect and the effect's numbers."""

    number: int
    effect: Effect = Effect.NONE
    amount: int = 0
    target: int | None = None


_TABLE: tuple[Square, ...] = (
    Square(1, Effect.EVERYONE_PAYS, 1),
    Square(3, Effect.COLLECT_BANK, 1),
    Square(4, Effect.SHIPWRECK, target=START),
    Square(7, Effect.TREE),
    Square(8, Effect.PAY_BANK, 3),
    Square(10, Effect.PAY_NEIGHBOUR, 2),
    Square(11, Effect.COLLECT_BANK, 1),
    Square(12, Effect.SIT_OUT),
    Square(14, Effect.COLLECT_BANK, 2),
    Square(15, Effect.PAY_BANK, 2),
    Square(17, Effect.PARROT),
    Square(18, Effect.COLLECT_BANK, 4),
    Square(20, Effect.ROLL_AGAIN),
    Square(23, Effect.JUMP, target=27),
    Square(25, Effect.GO_BACK, target=14),
    Square(26, Effect.PAY_BANK, 3),
    Square(29, Effect.FRIDAY, 2),
    Square(32, Effect.COLLECT_EACH, 1),
    Square(33, Effect.FATHER, 3),
    Square(36, Effect.SWAP, target=41),
    Square(40, Effect.COLLECT_BANK, 4),
    Square(42, Effect.GALLOWS),
    Square(HOME, Effect.HOME),
)


def _build(table: tuple[Square, ...]) -> tuple[Square, ...]:
    """Check the table once and index it by square number (index 0 = start)."""
    by_number: dict[int, Square] = {}
    for square in table:
        if not 1 <= square.number <= HOME:
            raise BoardError(f"square {square.number} is off the board (1..{HOME})")
        if square.number in by_number:
            raise BoardError(f"square {square.number} is listed twice")
        if (square.amount > 0) != (square.effect in _WITH_AMOUNT):
            raise BoardError(f"square {square.number}: {square.effect.value} amount is wrong")
        if (square.target is not None) != (square.effect in _WITH_TARGET):
            raise BoardError(f"square {square.number}: {square.effect.value} target is wrong")
        if square.target is not None and not START <= square.target < HOME:
            raise BoardError(f"square {square.number} points off the board")
        by_number[square.number] = square
    if by_number.get(HOME, Square(HOME)).effect is not Effect.HOME:
        raise BoardError(f"square {HOME} must be home")
    return (Square(START),) + tuple(by_number.get(n, Square(n)) for n in range(1, HOME + 1))


BOARD: tuple[Square, ...] = _build(_TABLE)
"""``BOARD[n]`` is square n; ``BOARD[0]`` is the start, off the board."""
