"""One exception tree for the app: what stops the table, said in one line.

The engine's own misuse errors are ``robinson_core.RobinsonError``; the
``robinson`` command catches these two roots and nothing else.
"""


class TableError(Exception):
    """Base of every error the app reports as one line and exit status 2."""


class ConfigError(TableError):
    """A config file (or a command-line setting) the table cannot run with."""


class HardwareError(TableError):
    """The pins or the panel cannot be opened: what to do about it, in one line."""


class UsageError(TableError):
    """Bad command-line input."""
