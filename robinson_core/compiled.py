"""The simulator's kernel as fast as this machine has it.

``robinson_core.kernel`` compiled by mypyc where it was built (``tools/compile_kernel.py``:
the bootstrap builds it into the venv where there is a C compiler and Python's headers),
and only if it was built from the very source beside this file; else the pure-Python
kernel, which is always there and always the law's equal (tests/core/test_sim.py plays
48,000 games through each). ``ROBINSON_KERNEL=pure`` chooses the pure one (the bench
prints both figures).

What comes back is the pure kernel's own ``Tally`` and ``Chance``, whichever ran: a
compiled class is another class, and a tally is added to, pickled and compared as one.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from . import kernel as pure
from .state import GameState

NAME = "robinson_core_kernel"
"""The compiled kernel's module: beside the installed packages, not in the checkout."""
CHOOSE = "ROBINSON_KERNEL"  # "pure": the pure-Python kernel whatever is built


def source_digest() -> str:
    """The pure kernel's source, as the compiled one records what it was built from."""
    return hashlib.sha256(Path(pure.__file__).read_bytes()).hexdigest()


@functools.cache
def kernel() -> ModuleType:
    """The compiled kernel if it is here and was built from this source; else the pure."""
    if os.environ.get(CHOOSE) == "pure":
        return pure
    try:
        built = importlib.import_module(NAME)
    except ImportError:
        return pure
    if getattr(built, "COMPILED_FROM", None) != source_digest():
        return pure  # built from another version of the kernel: not this one's equal
    return built


def which() -> str:
    """"compiled" or "pure": the kernel ``kernel`` gives."""
    return "pure" if kernel() is pure else "compiled"


def play(state: GameState, games: int, random: Callable[[], float], tally: pure.Tally,
         later: int = pure.FIRST) -> None:
    """``kernel.play`` through the fastest kernel here, its figures added to ``tally``."""
    chosen = kernel()
    if chosen is pure:
        pure.play(state, games, random, tally, later=later)
        return
    theirs = chosen.Tally()
    chosen.play(state, games, random, theirs, later=later)
    tally.add(_as(pure.Tally, theirs))


def odds(state: GameState, rollouts: int,
         random: Callable[[], float]) -> tuple[pure.Chance, pure.Chance]:
    """``kernel.odds`` through the fastest kernel here."""
    first, second = kernel().odds(state, rollouts, random)
    return _as(pure.Chance, first), _as(pure.Chance, second)


def _as(kind: type[Any], value: object) -> Any:
    """``value`` (a dataclass of either kernel) as the pure kernel's ``kind``."""
    if isinstance(value, kind):
        return value
    return kind(**{f.name: getattr(value, f.name) for f in dataclasses.fields(kind)})
