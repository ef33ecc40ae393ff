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
from collections.abc import Callable
from dataclasses import dataclass, field

Clock = Callable[[], float]
PURGE_AT = 256


@dataclass(order=True)
class Timer:
    deadline: float
    order: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class Loop:
    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self._posted: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._timers: list[Timer] = []
        self._order = itertools.count()
        self._stopped = False
        self.on_wake: Callable[[], None] | None = None  # called each time the loop wakes

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

    @property
    def stopped(self) -> bool:
        return self._stopped

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

    def run(self, max_wait: float | None = None) -> None:
        """Run until stopped; ``max_wait`` caps each sleep (a watchdog wants regular wakes)."""
        while not self._stopped:
            self._run_due()
            deadline = self.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            if max_wait is not None:
                timeout = max_wait if timeout is None else min(timeout, max_wait)
            try:
                callback = self._posted.get(timeout=timeout)
            except queue.Empty:
                callback = None
            if self.on_wake is not None:
                self.on_wake()
            if callback is not None:
                callback()


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
