"""Run by a Pi's own Python (tests/core/test_pi_kernel.py: Debian's arm64 build, under
qemu-user), with the compiled kernel of the bundle's wheel beside the checkout: that
kernel against the pure one, game for game, over rule sets of every kind, and the odds
the table shows at each of the four decisions. What it found, as JSON on stdout. Plain
Python and the engine only: the Pi's Python has nothing else.

``python -m tests.core.pi_kernel_check EVERY GAMES``: every EVERY-th rule set, GAMES
games each; GAMES x 20 rollouts an option at each decision.
"""

from __future__ import annotations

import json
import os
import platform
import sys
from random import Random

from robinson_core import HouseRules, compiled, kernel, new_game
from robinson_core.kernel import Tally

from .rule_sets import ASKS_ON_4, DECISIONS, SEATINGS, game_at, rule_sets


def tally(choose: str, rules: HouseRules, index: int, games: int) -> tuple[str, Tally]:
    """The kernel ``compiled`` gives when told ``choose`` ("pure", or "" for the fastest
    here), and the tally of its games for ``rules``, the ``index``-th rule set."""
    os.environ[compiled.CHOOSE] = choose
    compiled.kernel.cache_clear()
    seats = SEATINGS[index % len(SEATINGS)]
    done = Tally()
    compiled.play(new_game(seats, seats[index % len(seats)], rules), games,
                  Random(index).random, done,
                  later=kernel.COIN if index % 2 == 0 else kernel.FIRST)
    return compiled.which(), done


def main(every: int, games: int) -> dict[str, object]:
    compared, unequal, kinds = 0, [], set()
    sets = rule_sets()
    for index in range(0, len(sets), every):
        fast_kind, fast = tally("", sets[index], index, games)
        pure_kind, pure = tally("pure", sets[index], index, games)
        kinds.add((fast_kind, pure_kind))
        if fast != pure:
            unequal.append(index)
        compared += fast.games
    weighed, odds_unequal = 0, []  # the table's odds at each decision, both options
    for square, script in sorted(DECISIONS.items()):
        state = game_at(script, rules=ASKS_ON_4 if square == "wreck" else None).state
        found = []
        for choose in ("", "pure"):
            os.environ[compiled.CHOOSE] = choose
            compiled.kernel.cache_clear()
            found.append(compiled.odds(state, games * 20, Random(square).random))
        if found[0] != found[1]:
            odds_unequal.append(square)
        weighed += 1
    built = sys.modules.get(compiled.NAME)
    return {"python": platform.python_version(), "machine": platform.machine(),
            "kernels": sorted(kinds), "file": getattr(built, "__file__", None),
            "compared": compared, "unequal": unequal,
            "odds_weighed": weighed, "odds_unequal": odds_unequal}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), int(sys.argv[2]))))
