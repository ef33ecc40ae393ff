"""The rule sets, seatings and decisions the kernel is compared over (tests/core/test_sim.py
and test_odds.py on this machine, tests/core/pi_kernel_check.py on a Pi's Python): plain
Python and the engine only, so a Pi's Python with nothing installed imports it from the
checkout."""

from __future__ import annotations

import itertools

from robinson_core import (
    CHOICES,
    DeadChips,
    Game,
    HouseRules,
    Roll,
    ShareWith,
    Square4,
    Square32,
    Square33,
)

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


DECISIONS = {  # a game of four up to a decision on each of the four squares
    "tree": "4 4 6 2 1 3 1 6 3 4",
    "again": "5 3 6 3 6 6 6 5 1 4 2 6 1 2 1 3 4 2 4 5 1 5",
    "jump": "3 4 3 4 1 6 5 3 1 5 5 3 1 3 5 5 3 5 3 3 2 4",
    "wreck": "3 2 5 5 1",  # with house rule square_4 = ask
}
ASKS_ON_4 = HouseRules(square_4=Square4.ASK)


def game_at(script: str, seats: tuple[int, ...] = (1, 2, 3, 4),
            rules: object = None) -> Game:
    game = Game(seats) if rules is None else Game(seats, rules=rules)  # type: ignore[arg-type]
    for token in script.split():
        game = game.play(Roll(int(token)) if token.isdigit() else
                         next(c for c in CHOICES[game.state.pending] if c.value == token))
    return game
