"""robinson sim: the real engine, many games, reproducible, a report and charts."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest

from firmware.cli import main
from firmware.tools.anchor import play_plainly
from firmware.tools.sim import kernel_batch, play_batch, report, simulate
from robinson_core import (
    CHOICES,
    Game,
    HouseRules,
    Pending,
    Roll,
    Square4,
    compiled,
)
from robinson_core import events as ev
from robinson_core.kernel import Tally

from .rule_sets import SEATINGS, rule_sets


def test_a_run_is_reproducible_whatever_the_jobs() -> None:
    one, _ = simulate((1, 2, 3, 4), 1, HouseRules(), 1500, seed=7, jobs=1)
    two, _ = simulate((1, 2, 3, 4), 1, HouseRules(), 1500, seed=7, jobs=2)
    assert one == two and one.games == 1500


def test_every_game_ends_and_the_books_balance() -> None:
    tally = kernel_batch((2, 5, 7), 5, HouseRules(), 400, (3, 0))
    won = sum(tally.winners.values())
    assert won + tally.no_winner == 400 == tally.games == tally.rolls.total()
    assert sum(tally.winner_order.values()) == won
    # Chips never exceed what was issued (3 x 20); after a win the pot is empty, so
    # every won game ends with all 60 chips in the players' hands.
    held = sum(chips * games for seat in (2, 5, 7) for chips, games in tally.chips[seat].items())
    assert 60 * won <= held <= 60 * 400 and won == 399


def test_house_rules_change_the_outcome() -> None:
    plain, _ = simulate((1, 2), 1, HouseRules(), 600, seed=1)
    poor, _ = simulate((1, 2), 1, HouseRules(purse=3, stake=3), 600, seed=1)
    assert poor.broke > plain.broke


def test_report_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "report.png"
    assert main(["sim", "--games", "300", "--players", "3", "--rule", "debt=true",
                 "--plot", str(chart)]) == 0
    out = capsys.readouterr().out
    for line in ("300 games, 3 players", "house rules: debt=true", "win rate by seat",
                 "win rate by order", "deaths on 42", "Friday bonds sworn", "pot at the win",
                 "final chips", "someone goes broke", "min at 20 s per roll"):
        assert line in out, line
    assert chart.stat().st_size > 20_000 and chart.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("args,message", [
    (["--games", "0"], "number of games"),
    (["--jobs", "-1"], "--jobs"),
    (["--players", "9"], "--players"),
    (["--rule", "purse=-3"], "purse"),
    (["--plot", "x.jpg"], "FILE.png"),
    (["--seconds-per-turn", "abc"], "seconds"),
])
def test_bad_sim_arguments(capsys: pytest.CaptureFixture[str], args: list[str],
                           message: str) -> None:
    assert main(["sim", "--games", "10", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_report_text_is_stable_for_a_seed() -> None:
    tally, _ = simulate((1, 2, 3, 4), 1, HouseRules(), 1000, seed=1)
    text = report(tally, (1, 2, 3, 4), HouseRules(), 20, 1.0, 1, 1)
    # Every figure, for this seed: a change to the simulator or to the rules shows here.
    assert text.splitlines() == [
        "Robinson simulator: 1,000 games, 4 players (seats 1,2,3,4), house rules: the "
        "defaults, seed 1",
        "  speed                 1,000 games/s on 1 job(s)",
        "  game length (rolls)   mean 52.1, median 51, 90% 65, max 88",
        "  game length (time)    mean 17.4 min at 20 s per roll",
        "  win rate by seat      1: 27.8%  2: 27.1%  3: 23.2%  4: 21.9%",
        "  win rate by order     1.: 27.8%  2.: 27.1%  3.: 23.2%  4.: 21.9%",
        "  no winner             0.0%",
        "  deaths on 42          0.14 per game; games with a death 12.3%",
        "  Friday bonds sworn    0.88 per game",
        "  pot at the win        mean 32.1, median 33",
        "  final chips (mean)    1: 20.9  2: 19.9  3: 19.4  4: 19.8",
        "  someone goes broke    1.2% of games"]


def test_the_simulator_counts_what_the_tables_game_records() -> None:
    # The same games, played again one action at a time through Game (the table's
    # path) with the simulator's die: every figure of the tally must agree.
    seats, games = (1, 2, 3, 4), 150
    tally = play_batch(seats, 2, HouseRules(purse=8, stake=4), games, (5, 0))
    random = Random("5:0").random
    rolls, winners, chips, fridays, deaths, broke = [], Counter[int](), [], 0, 0, 0
    for _ in range(games):
        game = Game(seats, 2, HouseRules(purse=8, stake=4))
        short = False
        while game.state.pending is not Pending.OVER:
            pending = game.state.pending
            game = game.play(Roll(int(random() * 6) + 1) if pending is Pending.ROLL
                             else CHOICES[pending][0])
            for event in game.events:
                fridays += isinstance(event, ev.FridaySworn)
                deaths += isinstance(event, ev.Eliminated)
                short |= (isinstance(event, ev.Transfer) and event.payer is not None
                          and event.amount < event.asked)
        rolls.append(sum(isinstance(a, Roll) for a in game.actions))
        if game.state.winner is not None:
            winners[game.state.winner] += 1
        chips.append(tuple(p.chips for p in game.state.players))
        broke += short
    assert tally.rolls == Counter(rolls) and tally.winners == winners
    assert tally.chips == {s: Counter(c[i] for c in chips) for i, s in enumerate(seats)}
    assert (tally.fridays, tally.eliminations, tally.broke) == (fridays, deaths, broke)
    assert broke > 0 and fridays > 0  # the comparison saw both


@pytest.fixture(params=["pure", "compiled"])
def kernel_built(request: pytest.FixtureRequest,
                 monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each kernel in turn, as ``robinson_core.compiled`` chooses it: the pure one, then
    the one mypyc built (tools/compile_kernel.py, from the bootstrap)."""
    compiled.kernel.cache_clear()
    if request.param == "pure":
        monkeypatch.setenv(compiled.CHOOSE, "pure")
    elif compiled.which() != "compiled":
        pytest.skip("NO COMPILED KERNEL: tools/compile_kernel.py did not build one here (it "
                    "says why: no C compiler, no Python headers or no mypyc)")
    assert compiled.which() == request.param
    yield request.param
    compiled.kernel.cache_clear()


def test_the_kernel_tallies_what_play_does_over_48000_games(kernel_built: str) -> None:
    """``robinson sim``'s kernel against the table's own Play: every rule set, ten
    seatings of 2 to 8, each seat's turn to start, decisions taken by a coin (both
    options of 4, 7, 20 and 23) in half the sets and by a short press in the others;
    every figure of the tally equal, set by set; the kernel pure, and compiled by mypyc
    (issue 63)."""
    picks = Random(48)
    compared, total, kinds = 0, Tally(), Counter[str]()
    for i, rules in enumerate(rule_sets()):
        seats = SEATINGS[i % len(SEATINGS)]
        first = picks.choice(seats)
        coin = i % 2 == 0
        law = play_batch(seats, first, rules, 84, (i, 0), coin=coin)
        fast = kernel_batch(seats, first, rules, 84, (i, 0), coin=coin)
        assert fast == law, (i, rules, seats, first, coin)
        compared += fast.games
        total.add(fast)
        kinds.update({"coin": coin, "debt": rules.debt, "first": first != min(seats),
                      "asked on 4, by a coin": coin and rules.square_4 is Square4.ASK})
    assert compared == 48_384 == total.games
    assert (kinds["coin"], kinds["debt"], kinds["asked on 4, by a coin"]) == (288, 288, 96)
    assert kinds["first"] > 300
    # the games reached what every rule acts on
    assert min(total.no_winner, total.fridays, total.eliminations, total.broke,
               len(total.pots)) > 100 and len(total.winner_order) == 8, total


def test_a_kernel_built_from_another_source_is_never_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A compiled kernel records the source it was built from: one built from another
    version of kernel.py (the checkout changed since) is passed over for the pure one."""
    (tmp_path / f"{compiled.NAME}.py").write_text('COMPILED_FROM = "another"\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, compiled.NAME, raising=False)
    compiled.kernel.cache_clear()
    try:
        assert compiled.which() == "pure"
        (tmp_path / f"{compiled.NAME}.py").write_text(
            f'from robinson_core.kernel import *\nCOMPILED_FROM = "{compiled.source_digest()}"\n')
        monkeypatch.delitem(sys.modules, compiled.NAME, raising=False)
        compiled.kernel.cache_clear()
        assert compiled.which() == "compiled"  # (the same source: taken)
    finally:
        monkeypatch.delitem(sys.modules, compiled.NAME, raising=False)
        compiled.kernel.cache_clear()


def test_the_benchs_plain_reading_tallies_what_the_kernel_does() -> None:
    """The bench's anchor (firmware/tools/anchor.py) plays the same games: a ratio to
    it measures speed, not a different game."""
    compared = 0
    for i, rules in enumerate(rule_sets()):
        seats = SEATINGS[i % len(SEATINGS)]
        plain = play_plainly(seats, seats[i % len(seats)], rules, 20, Random(f"{i}:1").random)
        assert plain == kernel_batch(seats, seats[i % len(seats)], rules, 20, (i, 1)), (
            i, rules, seats)
        compared += plain.games
    assert compared == 11_520


def test_the_simulators_memory_does_not_grow_with_the_games() -> None:
    """A tally is counts: 20,000 games take a few kB more than 10,000 (a histogram's
    tail widens: 5 kB with the kernel compiled, 9 kB pure, here), where the per-game
    lists it kept grew 75 B a game (750 kB here). (From 1,000 games, ten batches'
    tallies and the compiled kernel's copies were 17 to 23 kB more: not growth.)"""
    import tracemalloc

    peaks = []
    for games in (10_000, 20_000):
        tracemalloc.start()
        simulate((1, 2, 3, 4), 1, HouseRules(), games, seed=3)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < peaks[0] + 50_000, peaks


def test_sim_and_odds_start_without_the_tables_modules() -> None:
    """``robinson sim`` and ``robinson odds`` load neither the config's, the store's, the
    panels' nor the page's modules (a fifth of a 20,000-game run was their start-up:
    issue 63); ``robinson --help`` still names every command."""
    check = ("import contextlib, io, sys; from firmware.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             "    main(sys.argv[1:])\n"
             "print(sorted(m for m in sys.modules if m.startswith(('firmware.config', "
             "'firmware.saves', 'firmware.web', 'firmware.display', 'luma', 'gpiozero'))))")
    loaded = {}
    for command in (["sim", "--games", "10"],
                    ["odds", "--players", "4", "--script", "4 4 6 2 1 3 1 6 3 4",  # the tree
                     "--rollouts", "10"]):
        run = subprocess.run([sys.executable, "-c", check, *command], capture_output=True,
                             text=True, check=False, timeout=60)
        loaded[command[0]] = run.stdout.strip().splitlines()[-1:]
    assert loaded == {"sim": ["[]"], "odds": ["[]"]}, loaded
    listed = subprocess.run([sys.executable, "-c", "from firmware.cli import main; "
                             "main(['--help'])"], capture_output=True, text=True, check=False,
                            timeout=60).stdout
    assert all(name in listed for name in ("sim", "table", "web", "history", "restore"))
