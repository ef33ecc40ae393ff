"""What a test wants said at the end of the run, past pytest's output capture: the
virtual Pi's figures, or the one loud line saying why it was skipped."""

from __future__ import annotations

import pytest

SAY: list[str] = []
"""Lines for the end of the run; tests append to it."""


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for line in SAY:
        terminalreporter.write_line(line, bold=True, red=line.startswith("!!!"))
