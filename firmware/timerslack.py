"""The timer slack of the threads lgpio starts: fine where a buzzer plays, coarse otherwise.

The unit gives the table a 10 ms timer slack (``TimerSlackNSec``), so the kernel gathers
the wake-ups of lgpio's alert thread (a 0.5 ms poll while any pin is watched) into about
a hundred a second. lgpio's PWM thread plays the buzzer's tones and sleeps until each
edge: with that slack the kernel may wake it up to 10 ms late, and a C7 (239 us
half-periods) would come out in bursts, a buzz. (The virtual Pi cannot show it: under
TCG other interrupts end the slack early, and its tones were in tune with either.)

A thread's slack can be set by that thread alone (another's needs CAP_SYS_NICE), a new
thread takes its creator's, and lgpio starts both of its threads at once, when the
process opens its first GPIO chip (``lgGpiochipOpen``; its Python module's notification
thread starts on import, also within). So a table with a buzzer opens the chip with a
fine slack, and its alert thread's wake-ups are the price of a true tone (in the
virtual Pi: 0.17-0.24 of the guest's core at rest, against 0.04-0.14); a table without
one keeps the unit's slack in every thread.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

log = logging.getLogger("robinson.devices")

PR_SET_TIMERSLACK, PR_GET_TIMERSLACK = 29, 30  # <linux/prctl.h>
TONE_NS = 1_000
"""The slack of lgpio's threads where a buzzer plays: well under a tone's tolerance (5 %
of the highest note's half-period, C8's 119 us, is 6 us)."""


@contextlib.contextmanager
def threads_started_with(slack_ns: int | None) -> Iterator[None]:
    """Within, this thread's timer slack is ``slack_ns`` (None: left as it is), and so is
    that of every thread it starts; after, its own is what it was."""
    if slack_ns is None:
        yield
        return
    import ctypes  # only where a slack is set: a table's start loads it after its first frame

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        before = libc.prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0)
        changed = before >= 0 and libc.prctl(PR_SET_TIMERSLACK, ctypes.c_ulong(slack_ns),
                                             0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux's libc: nothing to change
        before, changed = -1, False
    if not changed:
        log.warning("timer slack: could not be set to %d ns (errno %d): the buzzer's tones "
                    "may sound rough", slack_ns, ctypes.get_errno())
    try:
        yield
    finally:
        if changed:
            libc.prctl(PR_SET_TIMERSLACK, ctypes.c_ulong(before), 0, 0, 0)
