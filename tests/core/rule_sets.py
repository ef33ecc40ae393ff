"""The rule sets and seatings the kernel is compared over (tests/core/test_sim.py on this
machine, tests/core/pi_kernel_check.py on a Pi's Python): plain Python and the engine
only, so a Pi's Python with nothing installed imports it from the checkout."""

from __future__ import annotations

import itertools

from robinson_core import DeadChips, HouseRules, ShareWith, Square4, Square32, Square33

SEATINGS = ((1, 2), (3, 7), (1, 2, 3), (2, 5, 8), (1, 2, 3, 4), (2, 4, 6, 8), (1, 3, 4, 6, 7),
            (1, 2, 3, 4, 5, 6), (2, 3, 4, 5, 6, 7, 8), (1, 2, 3, 4, 5, 6, 7, 8))
PURSES = ((20, 10), (5, 2), (3, 3), (0, 0), (40, 5), (8, 4))


def rule_sets() -> list[HouseRules]:
    """Every combination of the rules that are a choice (576), each with a purse and
    stake in turn: the small ones make players go broke, and debt below zero."""
    combos = itertools.product((False, True), Square4, (False, True), DeadChips,
                               ShareWith, Square33, Square32)
    return [HouseRules(purse=PURSES[i % len(PURSES)][0], stake=PURSES[i % len(PURSES)][1],
                       debt=debt, square_4=square_4, chain_25_to_14=chain,
                       dead_chips=dead, share_with=share, square_33=s33, square_32=s32)
            for i, (debt, square_4, chain, dead, share, s33, s32) in enumerate(combos)]
