"""The table's die, the very code path the button uses, is fair: 600,000 rolls, three tests.

The thresholds are such that a fair die fails with probability below one in a
million per test, so the test is not flaky; a biased die is shown to fail.
"""

from __future__ import annotations

import random

import pytest

from firmware.shell.die import Die
from firmware.tools.fairness import check, chi_square_sf, face_counts, runs, serial_correlation

ROLLS = 600_000
ALPHA = 1e-6


def test_the_table_die_is_fair() -> None:
    verdicts = check(Die().roll, ROLLS)
    for verdict in verdicts:
        print(f"\n{verdict.name}: statistic {verdict.statistic:.4f}, p = {verdict.p_value:.4f}")
        assert verdict.passed(ALPHA), verdict


def test_a_modulo_biased_die_is_caught() -> None:
    rng = random.Random(6)
    biased = [rng.getrandbits(8) % 6 + 1 for _ in range(ROLLS)]  # faces 1-4 a little likelier
    assert not face_counts(biased).passed(ALPHA)


def test_a_streaky_die_is_caught() -> None:
    rng = random.Random(7)
    rolls, last = [], 1
    for _ in range(ROLLS):
        last = last if rng.random() < 0.3 else rng.randint(1, 6)  # sometimes repeats itself
        rolls.append(last)
    assert not runs(rolls).passed(ALPHA) or not serial_correlation(rolls).passed(ALPHA)


@pytest.mark.parametrize("x,df,p", [(11.0705, 5, 0.05), (15.0863, 5, 0.01), (3.8415, 1, 0.05),
                                    (37.0, 5, 5.9e-7), (0.5543, 5, 0.99)])
def test_chi_square_tail_matches_the_tables(x: float, df: int, p: float) -> None:
    assert chi_square_sf(x, df) == pytest.approx(p, rel=0.02)


def test_selftest_dice_shows_the_verdict() -> None:
    # The seeded demo die, so the verdict is the same on every run: the table's
    # own die is tested above, where a fair die fails one run in a million, not
    # one in a hundred as at the table's 99 %.
    import subprocess
    import sys
    from pathlib import Path

    robinson = Path(sys.executable).with_name("robinson")
    run = subprocess.run([robinson, "selftest", "--dice", "--emulate", "--seed", "1"],
                         capture_output=True, text=True, timeout=120,
                         stdin=subprocess.DEVNULL, check=False)
    assert run.returncode == 0, run.stderr
    # The three tests' figures for this die, exactly: a change to any test shows here.
    assert run.stdout.strip().splitlines()[-4:] == [
        "chi-square of the faces: statistic 4.1297, p = 0.5309",
        "runs of high and low: statistic -0.8751, p = 0.3815",
        "serial correlation: statistic 0.0013, p = 0.3278",
        "Fair at 99 %"]


def test_the_verdict_is_99_percent_for_the_three_tests_together() -> None:
    from firmware.display.words import Words
    from firmware.tools.fairness import Verdict
    from firmware.tools.selftest import dice_screen

    # p = 0.006 fails a single test at 1 %, but not one of three at 1 % together.
    verdicts = [Verdict("chi-square of the faces", 3.0, 0.7),
                Verdict("runs of high and low", 2.7, 0.006),
                Verdict("serial correlation", 0.0, 0.5)]
    assert dice_screen(Words("en"), 600_000, verdicts).footer == "Fair at 99 %"
    verdicts[1] = Verdict("runs of high and low", 3.0, 0.003)
    assert dice_screen(Words("en"), 600_000, verdicts).footer == "NOT fair at 99 %"


def test_an_unfair_verdict_is_shown_as_such() -> None:
    from firmware.display.words import Words
    from firmware.tools.fairness import Verdict
    from firmware.tools.selftest import dice_screen

    screen = dice_screen(Words("en"), 600_000, [Verdict("chi-square of the faces", 99.0, 1e-9),
                                                Verdict("runs of high and low", 0.1, 0.9),
                                                Verdict("serial correlation", 0.0, 0.5)])
    assert screen.footer == "NOT fair at 99 %" and "✗" in screen.body[0]
