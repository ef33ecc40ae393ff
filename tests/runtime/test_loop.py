"""The loop on its own: posts, timers in deadline order, cancelling, named timers."""

from __future__ import annotations

import functools
import threading

from firmware.runtime.loop import Loop, ManualClock, Timers, advance


def test_timers_fire_in_deadline_order_and_only_when_due() -> None:
    clock = ManualClock()
    loop, fired = Loop(clock), list[str]()
    for name, at in (("c", 3.0), ("a", 1.0), ("b", 2.0), ("a2", 1.0)):
        loop.call_at(at, functools.partial(fired.append, name))
    advance(loop, clock, 1.5)
    assert fired == ["a", "a2"]  # equal deadlines keep the order they were set in
    advance(loop, clock, 2.0)
    assert fired == ["a", "a2", "b", "c"]


def test_a_cancelled_timer_never_runs_and_does_not_pile_up() -> None:
    clock = ManualClock()
    loop, fired = Loop(clock), list[int]()
    for n in range(1000):
        loop.call_later(60.0, functools.partial(fired.append, n)).cancel()
    assert len(loop._timers) < 300  # purged now and then, as a moving screen saver needs
    advance(loop, clock, 120.0)
    assert fired == [] and loop.next_deadline() is None


def test_posts_from_another_thread_run_in_the_loop_thread() -> None:
    loop = Loop()
    ran_in: list[str] = []

    def work() -> None:
        loop.post(lambda: ran_in.append(threading.current_thread().name))
        loop.post(loop.stop)

    worker = threading.Thread(target=work)
    worker.start()
    loop.run()  # returns once the stop posted after the callback has run
    worker.join()
    assert ran_in == [threading.current_thread().name]


def test_named_timers_replace_each_other() -> None:
    clock = ManualClock()
    loop = Loop(clock)
    timers: Timers[str] = Timers(loop)
    fired: list[str] = []
    timers.after("dim", 10.0, lambda: fired.append("first"))
    timers.after("dim", 18.0, lambda: fired.append("second"))  # a press moved it on
    timers.after("shift", 5.0, lambda: fired.append("shift"))
    advance(loop, clock, 21.0)
    assert fired == ["shift", "second"]
    assert "dim" not in timers and "shift" not in timers
    timers.after("shift", 5.0, lambda: fired.append("shift"))
    timers.cancel_all()
    advance(loop, clock, 60.0)
    assert fired == ["shift", "second"]
