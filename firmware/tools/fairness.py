"""Is the die fair? Three classic tests over many rolls of the table's own die.

- chi-square on the face counts (every face 1/6 of the time),
- a runs test on high (4-6) against low (1-3) rolls (no streakiness),
- the serial correlation of consecutive rolls (no memory).

Each gives a p-value: the chance that a fair die looks at least this odd.

>>> chi_square_sf(11.07, 5) > 0.049  # the 95 % point of chi-square with 5 degrees
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

FACES = 6


@dataclass(frozen=True)
class Verdict:
    """One test of the die: its statistic and p-value."""

    name: str
    statistic: float
    p_value: float

    def passed(self, alpha: float) -> bool:
        return self.p_value >= alpha


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for chi-square with ``df`` degrees of freedom (the regularised upper gamma)."""
    if x <= 0:
        return 1.0
    a, z = df / 2, x / 2
    if z < a + 1:  # series for the lower gamma, then the complement
        term = total = 1 / a
        n = a
        while term > total * 1e-15:
            n += 1
            term *= z / n
            total += term
        return max(0.0, 1 - total * math.exp(-z + a * math.log(z) - math.lgamma(a)))
    # continued fraction for the upper gamma (Lentz)
    tiny = 1e-300
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return h * math.exp(-z + a * math.log(z) - math.lgamma(a))


def _two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def face_counts(rolls: Sequence[int]) -> Verdict:
    n = len(rolls)
    expected = n / FACES
    counts = [0] * FACES
    for roll in rolls:
        counts[roll - 1] += 1
    x = sum((c - expected) ** 2 / expected for c in counts)
    return Verdict("chi-square of the faces", x, chi_square_sf(x, FACES - 1))


def runs(rolls: Sequence[int]) -> Verdict:
    high = [r >= 4 for r in rolls]
    n1 = sum(high)
    n0 = len(high) - n1
    n = n0 + n1
    observed = 1 + sum(a != b for a, b in itertools.pairwise(high))
    mean = 1 + 2 * n0 * n1 / n
    variance = 2 * n0 * n1 * (2 * n0 * n1 - n) / (n * n * (n - 1))
    z = (observed - mean) / math.sqrt(variance)
    return Verdict("runs of high and low", z, _two_sided(z))


def serial_correlation(rolls: Sequence[int]) -> Verdict:
    n = len(rolls)
    mean = sum(rolls) / n
    centred = [r - mean for r in rolls]
    r = (sum(a * b for a, b in itertools.pairwise(centred))
         / sum(c * c for c in centred))
    z = r * math.sqrt(n)
    return Verdict("serial correlation", r, _two_sided(z))


def check(roll: Callable[[], int], count: int) -> list[Verdict]:
    """Roll ``count`` times with ``roll`` and judge the result three ways."""
    rolls = [roll() for _ in range(count)]
    if any(r not in range(1, FACES + 1) for r in rolls):
        raise ValueError("a die roll outside 1..6")
    return [face_counts(rolls), runs(rolls), serial_correlation(rolls)]
