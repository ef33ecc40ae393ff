"""The simulator's reference as a whole process: the rules read plainly
(``firmware.tools.anchor``: a class per player, a method per kind of square, no thought
for speed), ``--games`` games of four from the start with the first option of every
decision, as ``robinson sim`` plays them; it prints the games and how many were won.

The bench times this and ``robinson sim`` as whole processes, start-up included (a
fifth of a 20,000-game run is start-up), in interleaved runs: a ratio this machine's
load cancels out of. A test keeps the plain reading's tally equal to the kernel's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware.tools.anchor import play_plainly
from robinson_core import HouseRules


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tally = play_plainly((1, 2, 3, 4), 1, HouseRules(), args.games, Random(args.seed).random)
    print(f"{tally.games} games, {tally.games - tally.no_winner} won")
    return 0


if __name__ == "__main__":
    sys.exit(main())
