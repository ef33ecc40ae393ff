"""One thread runs the table: callbacks from any thread are posted to it, timers fire in it.

No polling: the loop sleeps in ``queue.get`` until the next post or the next
timer is due, so an idle table uses no CPU.

>>> loop = Loop(clock=lambda: 0.0)
>>> _ = loop.call_at(0.0, lambda: print("due"))
>>> loop.run_until_idle()
due
"""

from __future__ import annotations

import heapq
import itertools
import queue
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Clock = Callable[[], float]
PURGE_AT = 256
Name = TypeVar("Name", bound=Hashable)


@dataclass(order=True)
class Timer:
    """A callback due at ``deadline``; ``cancel`` keeps it from running."""

    deadline: float
    order: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class Loop:
    """The table's one thread: ``post`` from anywhere, timers by deadline, ``run`` to serve."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self._posted: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._timers: list[Timer] = []
        self._order = itertools.count()
        self._stopped = False

    def post(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` in the loop thread soon (safe from any thread)."""
        self._posted.put(callback)

    def call_at(self, deadline: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` in the loop thread at ``deadline`` (loop thread only)."""
        timer = Timer(deadline, next(self._order), callback)
        if len(self._timers) >= PURGE_AT:
            # Timers cancelled long before they are due (the screen saver's, moved on by
            # every press) would pile up: drop them now and then.
            self._timers = [t for t in self._timers if not t.cancelled]
            heapq.heapify(self._timers)
        heapq.heappush(self._timers, timer)
        return timer

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self.call_at(self.clock() + delay, callback)

    def stop(self) -> None:
        self.post(self._stop)

    def _stop(self) -> None:
        self._stopped = True

    def next_deadline(self) -> float | None:
        while self._timers and self._timers[0].cancelled:
            heapq.heappop(self._timers)
        return self._timers[0].deadline if self._timers else None

    def _run_due(self) -> bool:
        ran = False
        now = self.clock()
        while (deadline := self.next_deadline()) is not None and deadline <= now:
            heapq.heappop(self._timers).callback()
            ran = True
        return ran

    def run_until_idle(self) -> None:
        """Run everything posted and every timer due now, without waiting (tests, demos)."""
        while True:
            ran = self._run_due()
            try:
                self._posted.get_nowait()()
                ran = True
            except queue.Empty:
                pass
            if not ran or self._stopped:
                return

    def run(self) -> None:
        """Run until stopped, asleep between a post or a timer and the next."""
        while not self._stopped:
            self._run_due()
            deadline = self.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            try:
                callback = self._posted.get(timeout=timeout)
            except queue.Empty:
                continue
            callback()


class Timers(Generic[Name]):
    """Named timers on a loop: setting a name again replaces its timer.

    >>> loop = Loop(clock=lambda: 0.0)
    >>> timers: Timers[str] = Timers(loop)
    >>> timers.after("dim", 0.0, lambda: print("dim"))
    >>> timers.after("dim", 0.0, lambda: print("dim again"))
    >>> "dim" in timers, loop.run_until_idle(), "dim" in timers
    dim again
    (True, None, False)
    """

    def __init__(self, loop: Loop) -> None:
        self.loop = loop
        self._timers: dict[Name, Timer] = {}

    def __contains__(self, name: object) -> bool:
        return name in self._timers

    def after(self, name: Name, delay: float, callback: Callable[[], None]) -> None:
        """Run ``callback`` once, ``delay`` seconds from now."""
        self.cancel(name)

        def fire() -> None:
            self._timers.pop(name, None)
            callback()

        self._timers[name] = self.loop.call_later(delay, fire)

    def cancel(self, name: Name) -> None:
        timer = self._timers.pop(name, None)
        if timer is not None:
            timer.cancel()

    def cancel_all(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()


class ManualClock:
    """A clock that moves only when told: for tests and the bench, where time is not waited."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def advance(loop: Loop, clock: ManualClock, seconds: float) -> None:
    """Let ``seconds`` pass on ``clock``, running every timer on the way, in order."""
    end = clock.now + seconds
    loop.run_until_idle()
    while (deadline := loop.next_deadline()) is not None and deadline <= end:
        clock.now = max(clock.now, deadline)
        loop.run_until_idle()
    clock.now = end
    loop.run_until_idle()
