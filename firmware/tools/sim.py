"""``robinson sim``: many games, to see what house rules do.

The games run through the kernel (``robinson_core.kernel``: the rules without events,
3-4x a plain reading's speed; compiled by mypyc where it was built: ``compiled``);
``play_batch`` plays the same games through the table's own ``Play``, and a test keeps
the two tallies equal over 48,000 games, the kernel pure and compiled.

The die is a seeded generator here (a simulation, not a table); each batch of
games gets its own seed derived from --seed, so a run is reproducible whatever
--jobs is.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from random import Random

from robinson_core import CHOICES, HouseRules, Pending, Roll, compiled, kernel, new_game
from robinson_core.engine import Play
from robinson_core.events import Eliminated, FridaySworn, NoWinner, Transfer, Won
from robinson_core.kernel import Tally

BATCH = 1000
_ROLLS = tuple(Roll(face) for face in range(1, 7))
ROLL, OVER = Pending.ROLL, Pending.OVER


def kernel_batch(seats: tuple[int, ...], first: int, rules: HouseRules, games: int,
                 seed: tuple[int, int], coin: bool = False) -> Tally:
    """Play ``games`` games with defaults for every decision (what a short press does;
    ``coin``: either option, by a draw of the die's generator), through the kernel:
    what ``robinson sim`` runs."""
    tally = Tally()
    compiled.play(new_game(seats, first, rules), games, _die(seed), tally,
                  later=kernel.COIN if coin else kernel.FIRST)
    return tally


def play_batch(seats: tuple[int, ...], first: int, rules: HouseRules, games: int,
               seed: tuple[int, int], coin: bool = False) -> Tally:
    """The same games through the table's own ``Play`` and its events: the law the
    kernel is compared against (tests/core/test_sim.py), figure for figure."""
    random = _die(seed)
    start = new_game(seats, first, rules)
    order = seats[seats.index(first):] + seats[:seats.index(first)]
    tally = Tally(chips={seat: Counter() for seat in seats})
    for _ in range(games):
        play = Play(start)
        rolls = deaths = 0
        broke = False
        while (pending := play.pending) is not OVER:
            if pending is ROLL:
                # random() * 6 is how Random.choices picks too: uniform to 2**-53.
                events = play.apply(_ROLLS[int(random() * 6)])
                rolls += 1
                if len(events) == 2:  # Rolled and Moved, as every roll begins: nothing more
                    continue
            else:
                events = play.apply(CHOICES[pending][0 if not coin or random() < 0.5 else 1])
            for event in events:
                # type() is, not isinstance() or match: this loop sees millions of events.
                if type(event) is Transfer:
                    payer = event.payer
                    if payer is not None and (event.amount < event.asked
                                              or play.chips[payer] < 0):
                        broke = True
                elif type(event) is Won:
                    tally.winners[event.seat] += 1
                    tally.winner_order[order.index(event.seat)] += 1
                    tally.pots[event.pot] += 1
                elif type(event) is Eliminated:
                    deaths += 1
                elif type(event) is FridaySworn:
                    tally.fridays += 1
                elif type(event) is NoWinner:
                    tally.no_winner += 1
        tally.games += 1
        tally.rolls[rolls] += 1
        tally.eliminations += deaths
        tally.games_with_death += deaths > 0
        tally.broke += broke
        for seat in seats:
            tally.chips[seat][play.chips[seat]] += 1
    return tally


def _die(seed: tuple[int, int]) -> Callable[[], float]:
    """Each batch's own die, from --seed and the batch's number."""
    return Random(f"{seed[0]}:{seed[1]}").random


def simulate(seats: tuple[int, ...], first: int, rules: HouseRules, games: int, *,
             seed: int = 1, jobs: int = 1, progress: bool = False) -> tuple[Tally, float]:
    """Play ``games`` games on ``jobs`` processes; returns the tally and the seconds taken."""
    batches = [(i, min(BATCH, games - i * BATCH)) for i in range((games + BATCH - 1) // BATCH)]
    total = Tally(chips={seat: Counter() for seat in seats})
    began = time.perf_counter()
    if jobs == 1:
        for i, count in batches:
            total.add(kernel_batch(seats, first, rules, count, (seed, i)))
            _progress(progress, total.games, games, began)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(kernel_batch, seats, first, rules, count, (seed, i))
                       for i, count in batches]
            for future in futures:
                total.add(future.result())
                _progress(progress, total.games, games, began)
    if progress:
        sys.stderr.write("\n")
    return total, time.perf_counter() - began


def _progress(show: bool, done: int, games: int, began: float) -> None:
    if not show:
        return
    width = 30
    filled = width * done // games
    rate = done / max(1e-9, time.perf_counter() - began)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{games:,} games "
                     f"({rate:,.0f}/s)")
    sys.stderr.flush()


def report(tally: Tally, seats: Sequence[int], rules: HouseRules, seconds_per_turn: float,
           seconds: float, jobs: int, seed: int) -> str:
    n = tally.games
    rolls = tally.rolls

    def pct(count: int) -> str:
        return f"{100 * count / n:.1f}%"

    changed = ", ".join(f"{k}={v}" for k, v in rules.changed().items()) or "the defaults"
    minutes = mean(rolls) * seconds_per_turn / 60
    lines = [
        f"Robinson simulator: {n:,} games, {len(seats)} players (seats "
        f"{','.join(map(str, seats))}), house rules: {changed}, seed {seed}",
        f"  speed                 {n / seconds:,.0f} games/s on {jobs} job(s)",
        f"  game length (rolls)   mean {mean(rolls):.1f}, median {median(rolls):.0f}, "
        f"90% {nth(rolls, int(0.9 * (n - 1)))}, max {max(rolls)}",
        f"  game length (time)    mean {minutes:.1f} min at {seconds_per_turn:g} s per roll",
        "  win rate by seat      " + "  ".join(f"{s}: {pct(tally.winners[s])}" for s in seats),
        "  win rate by order     " + "  ".join(
            f"{i + 1}.: {pct(tally.winner_order[i])}" for i in range(len(seats))),
        f"  no winner             {pct(tally.no_winner)}",
        f"  deaths on 42          {tally.eliminations / n:.2f} per game; "
        f"games with a death {pct(tally.games_with_death)}",
        f"  Friday bonds sworn    {tally.fridays / n:.2f} per game",
        f"  pot at the win        mean {mean(tally.pots):.1f}, median "
        f"{median(tally.pots):.0f}" if tally.pots else "  pot at the win        —",
        "  final chips (mean)    " + "  ".join(
            f"{s}: {mean(tally.chips[s]):.1f}" for s in seats),
        f"  someone goes broke    {pct(tally.broke)} of games",
    ]
    return "\n".join(lines)


# A tally keeps counts, not one value a game (its memory is flat in the games): the
# figures of a distribution are read from its histogram.

def mean(counts: Counter[int]) -> float:
    return sum(value * count for value, count in counts.items()) / counts.total()


def nth(counts: Counter[int], k: int) -> int:
    """The ``k``-th smallest value (from 0), as ``sorted(values)[k]``."""
    for value in sorted(counts):
        k -= counts[value]
        if k < 0:
            return value
    raise IndexError(k)


def median(counts: Counter[int]) -> float:
    n = counts.total()
    return (nth(counts, (n - 1) // 2) + nth(counts, n // 2)) / 2


def quantile(counts: Counter[int], q: float) -> float:
    """As numpy's linear percentile (matplotlib's boxes)."""
    at = q * (counts.total() - 1)
    low, high = nth(counts, int(at)), nth(counts, min(int(at) + 1, counts.total() - 1))
    return low + (high - low) * (at - int(at))


def _box(counts: Counter[int], label: str) -> dict[str, object]:
    """What matplotlib's boxplot draws (whiskers to the last value within 1.5 IQR)."""
    q1, med, q3 = quantile(counts, 0.25), quantile(counts, 0.5), quantile(counts, 0.75)
    within = [v for v in counts if q1 - 1.5 * (q3 - q1) <= v <= q3 + 1.5 * (q3 - q1)]
    return {"label": label, "q1": q1, "med": med, "q3": q3, "whislo": min(within),
            "whishi": max(within), "fliers": []}


def plot(tally: Tally, seats: Sequence[int], path: str, title: str) -> None:
    """Four charts a person would rather look at than a table."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = tally.games
    figure, axes = plt.subplots(2, 2, figsize=(11, 7.5))
    figure.suptitle(title)
    ax = axes[0][0]
    ax.hist(list(tally.rolls), weights=list(tally.rolls.values()),
            bins=range(0, max(tally.rolls) + 5, 4), color="#4477aa")
    ax.set(title="Game length", xlabel="rolls in the game", ylabel="games")
    ax = axes[0][1]
    labels = [str(s) for s in seats]
    ax.bar([x - 0.2 for x in range(len(seats))], [100 * tally.winners[s] / n for s in seats],
           width=0.4, label="by seat", color="#4477aa")
    ax.bar([x + 0.2 for x in range(len(seats))],
           [100 * tally.winner_order[i] / n for i in range(len(seats))], width=0.4,
           label="by order of play (1 = first)", color="#ee6677")
    ax.axhline(100 / len(seats), color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(range(len(seats)), labels)
    ax.set(title="Who wins", xlabel="seat / place in the order", ylabel="% of games")
    ax.legend(fontsize=8, loc="lower right", framealpha=0.9)
    ax = axes[1][0]
    if tally.pots:
        ax.hist(list(tally.pots), weights=list(tally.pots.values()),
                bins=range(0, max(tally.pots) + 3, 2), color="#228833")
    ax.set(title="Pot at the win", xlabel="chips", ylabel="games")
    ax = axes[1][1]
    ax.bxp([_box(tally.chips[s], label) for s, label in zip(seats, labels, strict=True)],
           showfliers=False)
    ax.set(title="Final chips by seat", xlabel="seat", ylabel="chips")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def jobs_wanted(jobs: int) -> int:
    """--jobs 0 means every core."""
    return (os.cpu_count() or 1) if jobs == 0 else jobs
