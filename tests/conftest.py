"""What the tests share: the tables a test builds (closed after it), and what a test
wants said at the end of the run, past pytest's output capture (the virtual Pi's
figures, or the one loud line saying why it was skipped)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from .rig import Rig

SAY: list[str] = []
"""Lines for the end of the run; tests append to it."""


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for line in SAY:
        terminalreporter.write_line(line, bold=True, red=line.startswith("!!!"))


@pytest.fixture(autouse=True)
def _companions_stopped() -> Iterator[None]:
    """After each test, the product's processes it started and left running (a failure
    before its own stop): tests/companion.py's, where a test used them."""
    yield
    companion = sys.modules.get("tests.companion")
    if companion is not None:
        companion.stop_all()


@pytest.fixture
def rigs() -> Iterator[list[Rig]]:
    """The tables (rigs) a test makes, each closed when it ends."""
    made: list[Rig] = []
    yield made
    for rig in made:
        rig.close()
