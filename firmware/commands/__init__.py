"""The bodies of the ``robinson`` commands, a module per idea (``firmware.cli`` parses
the command line and hands each its arguments): ``game``, ``saves``, ``names``,
``running``."""

from __future__ import annotations

import sys


def say(message: str) -> None:
    """One line on stderr, whatever the message quotes (a path, an argument)."""
    printable = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    print(printable, file=sys.stderr)
