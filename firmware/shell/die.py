"""The die: the operating system's CSPRNG on the table, a seeded one only for demos; and
the imagined dice of a decision's odds (``rollouts``)."""

from __future__ import annotations

import random
import secrets


class Die:
    """A fair die. ``secrets.randbelow`` draws by rejection, so there is no modulo bias."""

    seeded = False

    def roll(self) -> int:
        return secrets.randbelow(6) + 1


class SeededDie(Die):
    """A reproducible die for demos and tests; the screen says so whenever it is used."""

    seeded = True

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def roll(self) -> int:
        return self._random.randint(1, 6)


def rollouts(seed: int | None = None) -> random.Random:
    """The dice of the games a decision's odds play out (robinson_core.kernel.odds): a
    generator seeded from ``seed``, or from the operating system. Nothing on the board
    is rolled with them."""
    return random.Random(secrets.randbits(64) if seed is None else seed)
