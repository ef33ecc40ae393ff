"""One exception tree for the app: what stops the table, said in one line.

The engine's own misuse errors are ``robinson_core.RobinsonError``; the
``robinson`` command catches these roots and nothing else. Each says its exit
status: the unit starts the table again after a missing part (3), never after
bad input (2: ``RestartPreventExitStatus``), which only the owner can mend.
"""


class TableError(Exception):
    """Base of every error the app reports as one line and an exit status (2 here)."""

    status = 2


class ConfigError(TableError):
    """A config file (or a command-line setting) the table cannot run with."""


class NoBoard(TableError):
    """Not a Raspberry Pi, where the table was to drive one: nothing to try again."""


class HardwareError(TableError):
    """The pins or the panel cannot be opened: what to do about it, in one line. Exit
    status 3: a part wired, mended or probed later is found at the next start."""

    status = 3


class UsageError(TableError):
    """Bad command-line input."""
