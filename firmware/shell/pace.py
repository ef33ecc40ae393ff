"""Whether the table would take a press now, for what presses the button by program (the
emulator's keyboard read from a pipe, the demo), so that a script goes at the table's
pace and no press lands while the last one is still on its way.

Set after each input the table takes, unless it animates or a press announced with
``expect_press`` has not been taken yet. Without the announcement a press's release,
still on its way through the debounce under load, found the flag set from before the
press, and the next press went down at once: two presses ran together, and a roll a
script typed was lost (tests/shell/test_one_table.py, once in a loaded run).

>>> pace = Pace()
>>> pace.took(pressed=False, animating=False); pace.is_set()
True
>>> pace.expect_press(); pace.took(pressed=False, animating=False); pace.is_set()
False
>>> pace.took(pressed=True, animating=False); pace.is_set()
True
"""

from __future__ import annotations

import threading


class Pace:
    """Set while a press would be taken; see the module's text."""

    def __init__(self) -> None:
        self._ready = threading.Event()
        self._owed = False  # a press announced and not yet taken
        self._lock = threading.Lock()

    def expect_press(self) -> None:
        """A press is about to be made: not ready until the table has taken it."""
        with self._lock:
            self._owed = True
            self._ready.clear()

    def took(self, pressed: bool, animating: bool) -> None:
        """The table took inputs (``pressed``: a press among them)."""
        with self._lock:
            if pressed:
                self._owed = False
            if animating or self._owed:
                self._ready.clear()
            else:
                self._ready.set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._ready.wait(timeout)

    def is_set(self) -> bool:
        return self._ready.is_set()
