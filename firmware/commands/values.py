"""What each of the ``robinson`` command line's values must be (``firmware.cli``'s
argument types): each one refused in one line that says what it should be."""

from __future__ import annotations

import argparse

from robinson_core import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    SEATS,
)
from robinson_core.errors import HouseRuleError, quote
from robinson_core.house_rules import split_rule
from robinson_core.numbers import MAX_DIGITS, whole_number


def players(text: str) -> tuple[int, ...]:
    number = whole_number(text)
    if number is None or not MIN_PLAYERS <= number <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"--players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, "
            f"not {quote(text)}")
    return tuple(range(1, number + 1))


def seats(text: str) -> tuple[int, ...]:
    seats = [whole_number(p) for p in text.split(",")]
    if not all(s is not None and s in SEATS for s in seats):
        raise argparse.ArgumentTypeError(
            f"--seats takes seat numbers 1-{MAX_PLAYERS} separated by commas, not {quote(text)}")
    if len(set(seats)) != len(seats):
        raise argparse.ArgumentTypeError(f"--seats names a seat twice: {quote(text)}")
    return tuple(s for s in seats if s is not None)


def _within(text: str, low: int, high: int, wanted: str) -> int:
    """``text`` as a whole number from ``low`` to ``high``; else ``wanted`` (what it
    should be), and what it is."""
    number = whole_number(text)
    if number is None or not low <= number <= high:
        raise argparse.ArgumentTypeError(f"{wanted}, not {quote(text)}")
    return number


def seat(text: str) -> int:
    return _within(text, SEATS.start, SEATS.stop - 1, f"a seat is a number 1-{MAX_PLAYERS}")


def count(text: str) -> int:
    return _within(text, 1, 10_000_000, "a number of games from 1 to 10000000")


def jobs(text: str) -> int:
    return _within(text, 0, 256, "--jobs takes 0 (all cores) to 256")


def rollouts(text: str) -> int:
    return _within(text, 1, 1_000_000, "--rollouts takes 1 to 1000000")


def seed(text: str) -> int:
    number = whole_number(text)
    if number is None:
        raise argparse.ArgumentTypeError(
            f"--seed takes a whole number of up to {MAX_DIGITS} digits, not {quote(text)}")
    return number


def directory(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("--state-dir needs a folder, not an empty name")
    return text


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"seconds from 0 to 3600, not {quote(text)}")
    return value


def rule(text: str) -> tuple[str, str]:
    try:
        return split_rule(text)
    except HouseRuleError:
        raise argparse.ArgumentTypeError(f"--rule takes NAME=VALUE, not {quote(text)}") from None
