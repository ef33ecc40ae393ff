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


LONGEST_FIRST = ("test_web.py", "test_machine.py", "test_kill_points.py", "test_ledger.py",
                 "test_bench.py", "test_glance.py", "test_soak.py", "test_panels.py",
                 "test_voice.py", "test_store_faults.py", "test_power_loss.py",
                 "test_installer.py", "test_seam.py", "test_service.py", "test_browser.py",
                 "test_odds.py", "test_sim.py")
"""The host's longest files, longest first (as ./test.sh's --durations found them), handed
out before the rest: pytest-xdist gives each worker a file at a time in the order
collected (./test.sh turns off its own order, by count of tests, which sent the
bench's two minute-long tests out last, to one worker, the other idle). A file's own
tests keep their order."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: n for n, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # (stable)


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
