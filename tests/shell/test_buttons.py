"""The ROLL button and the seat switches on their own: debounce, press lengths, stuck buttons."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Button, DigitalInputDevice
from gpiozero.pins.mock import MockFactory

from firmware.runtime.loop import Loop, ManualClock, advance
from firmware.shell.buttons import Press, RollButton, SeatSwitches

DEBOUNCE, LONG, MENU = 0.02, 1.0, 3.0


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    made = MockFactory()
    yield made
    made.reset()


def rig(factory: MockFactory, down_at_start: bool = False):  # type: ignore[no-untyped-def]
    clock = ManualClock(100.0)
    loop = Loop(clock)
    device = Button(17, pull_up=True, bounce_time=None, pin_factory=factory)
    if down_at_start:
        factory.pin(17).drive_low()
    presses: list[Press] = []
    holds: list[Press | None] = []
    button = RollButton(device, loop, debounce=DEBOUNCE, long_press=LONG, menu_press=MENU,
                        on_press=presses.append, on_hold=holds.append)
    return clock, loop, factory.pin(17), button, presses, holds, device


def hold(clock: ManualClock, loop: Loop, pin, seconds: float) -> None:  # type: ignore[no-untyped-def]
    pin.drive_low()
    advance(loop, clock, seconds)
    pin.drive_high()
    advance(loop, clock, 0.1)


@pytest.mark.parametrize("seconds,kind", [(0.1, Press.SHORT), (0.99, Press.SHORT),
                                          (1.05, Press.LONG), (2.9, Press.LONG),
                                          (3.05, Press.MENU), (60.0, Press.MENU)])
def test_a_press_is_read_by_how_long_it_was_held(factory: MockFactory, seconds: float,
                                                 kind: Press) -> None:
    clock, loop, pin, _, presses, _, device = rig(factory)
    hold(clock, loop, pin, seconds)
    assert presses == [kind]
    device.close()


def test_while_held_the_thresholds_are_told_as_they_pass(factory: MockFactory) -> None:
    clock, loop, pin, _, presses, holds, device = rig(factory)
    pin.drive_low()
    advance(loop, clock, 1.5)
    assert holds == [Press.LONG] and presses == []
    advance(loop, clock, 2.0)
    assert holds == [Press.LONG, Press.MENU]
    device.close()


def test_a_bounce_storm_is_one_press(factory: MockFactory) -> None:
    clock, loop, pin, _, presses, _, device = rig(factory)
    for _ in range(25):  # contacts chattering for a few milliseconds
        pin.drive_low()
        clock.now += 0.0005
        loop.run_until_idle()
        pin.drive_high()
        clock.now += 0.0005
        loop.run_until_idle()
    pin.drive_low()
    advance(loop, clock, 0.2)
    pin.drive_high()
    advance(loop, clock, 0.2)
    assert presses == [Press.SHORT]
    device.close()


def test_a_button_down_at_start_gives_no_press_until_let_go(factory: MockFactory) -> None:
    clock, loop, pin, button, presses, holds, device = rig(factory, down_at_start=True)
    assert button.stuck
    advance(loop, clock, 10.0)
    pin.drive_high()
    advance(loop, clock, 0.1)
    assert presses == [] and holds == [None] and not button.stuck
    hold(clock, loop, pin, 0.1)
    assert presses == [Press.SHORT]
    device.close()


def test_seat_switches_settle_and_say_who_sits(factory: MockFactory) -> None:
    clock = ManualClock()
    loop = Loop(clock)
    devices = [DigitalInputDevice(p, pull_up=True, bounce_time=None, pin_factory=factory)
               for p in (5, 6, 13)]
    changes: list[tuple[int, bool]] = []
    seats = SeatSwitches(devices, loop, DEBOUNCE, lambda seat, on: changes.append((seat, on)))
    factory.pin(13).drive_low()
    factory.pin(5).drive_low()
    for _ in range(7):  # seat 6 chatters and ends off
        factory.pin(6).drive_low()
        loop.run_until_idle()
        factory.pin(6).drive_high()
        loop.run_until_idle()
    advance(loop, clock, 0.1)
    assert seats.occupied() == (1, 3) and sorted(changes) == [(1, True), (3, True)]
    for device in devices:
        device.close()
