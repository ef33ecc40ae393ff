"""``robinson selftest``: each input live on the screen, each output in turn.

For bringing up a freshly wired table: press the button and flip every
switch, and watch the screen follow; each LED lights in turn and the buzzer
beeps. Holding the button for the menu time ends it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from firmware.devices import Rigging
from firmware.display.fonts import Fonts
from firmware.display.render import render
from firmware.display.screen import Screen
from firmware.display.words import Words
from firmware.revision import on_raspberry_pi
from firmware.runtime.outputs import Led
from firmware.runtime.tunes import BUZZER_MID
from firmware.saves.faults import StateDirectoryError, TableRunning
from firmware.saves.store import Store
from firmware.shell.buttons import Debounced
from firmware.shell.die import Die
from firmware.table.prefs import PREF_KEYS
from firmware.tools.fairness import Verdict, check

STEP = 0.5  # seconds per output


DICE_ROLLS = 600_000
# 99 % for the three tests together (Bonferroni): a fair die is called unfair
# one time in a hundred, not one in 34 as with 1 % for each.
DICE_ALPHA = 0.01 / 3


def dice_screen(words: Words, count: int, verdicts: list[Verdict]) -> Screen:
    """The fairness of the die, as the table shows it."""
    names = {"chi-square of the faces": "dice_faces", "runs of high and low": "dice_runs",
             "serial correlation": "dice_serial"}
    lines = []
    for verdict in verdicts:
        lines.append(words("dice_line", name=words(names[verdict.name]),
                           p=f"{verdict.p_value:.3f}",
                           verdict="✓" if verdict.passed(DICE_ALPHA) else "✗"))
    fair = all(v.passed(DICE_ALPHA) for v in verdicts)
    return Screen(title=words("dice_rolls", count=f"{count // 1000}k"), body=tuple(lines),
                  footer=words("dice_fair" if fair else "dice_unfair"))


class SelfTest:
    """Every input live on the panel, every output switched on in turn."""

    def __init__(self, rig: Rigging, *, lang: str, on_done: Callable[[], None],
                 fonts: Fonts | None = None) -> None:
        self.rig = rig
        self.words = Words(lang)
        self.fonts = fonts or Fonts()
        self.on_done = on_done
        debounce, pins = rig.config.timings.debounce, rig.wire()
        self.button = Debounced(pins.button, rig.loop, debounce, self._button)
        self.seats = [Debounced(seat, rig.loop, debounce, lambda level, at: self.draw())
                      for seat in pins.seats]
        self.outputs: list[tuple[str, Callable[[bool], None]]] = [
            (self.words("selftest_led", seat=seat), self._led(led))
            for seat, led in enumerate(pins.outputs.leds, start=1)]
        if pins.outputs.buzzer is not None:
            self.outputs.append((self.words("selftest_buzzer"), self._beep))
        self.step = 0
        self._down_at: float | None = None

    def start(self) -> None:
        self.draw()
        self._next_output()

    def stop(self) -> None:
        for _, switch in self.outputs:
            switch(False)

    def screen(self) -> Screen:
        w = self.words
        state = w("selftest_down") if self.button.level else w("selftest_up")
        seats = "".join(f"{n}{'●' if s.level else '○'}" for n, s in enumerate(self.seats, 1))
        output = (self.outputs[(self.step - 1) % len(self.outputs)][0] if self.outputs
                  else w("selftest_no_outputs"))
        return Screen(title=w("selftest_title"), footer=w("selftest_end"),
                      body=(w("selftest_button", state=state), w("selftest_seats", seats=seats),
                            output))

    def draw(self) -> None:
        self.rig.panel.show(render(self.screen(), self.fonts, 0, self.rig.config.display.layout))

    def _button(self, down: bool, at: float) -> None:
        if down:
            self._down_at = at
        elif self._down_at is not None and at - self._down_at >= self.rig.config.timings.menu_press:
            self.on_done()
        self.draw()

    def _next_output(self) -> None:
        if self.outputs:
            previous = self.outputs[(self.step - 1) % len(self.outputs)]
            previous[1](False)
            self.outputs[self.step % len(self.outputs)][1](True)
            self.step += 1
            self.draw()
        self.rig.loop.call_later(STEP, self._next_output)

    @staticmethod
    def _led(led: Led) -> Callable[[bool], None]:
        def switch(on: bool) -> None:
            led.value = on
        return switch

    def _beep(self, on: bool) -> None:
        buzzer = self.rig.wire().outputs.buzzer
        assert buzzer is not None  # only listed when there is one
        if on:
            buzzer.play(BUZZER_MID)
            self.rig.loop.call_later(STEP / 2, buzzer.stop)
        else:
            buzzer.stop()


def _not_beside_a_table(folder: Path) -> Store | None:
    """The table's lock, held while the selftest runs: a selftest beside a running table
    would take its pins and start its panel afresh under it. TableRunning (one line) if
    a table holds it; a folder this user may not use is the service's: no table test."""
    if not folder.is_dir():
        return None  # no table has run here
    store = Store(folder, pref_keys=PREF_KEYS)
    try:
        store.lock()
    except TableRunning:
        raise
    except StateDirectoryError:
        return None
    return store


def run_selftest(args: argparse.Namespace) -> int:
    """``robinson selftest``: every input live on the screen, every output in turn."""
    from firmware.emulate.keyboard import AlwaysReady
    from firmware.errors import ConfigError
    from firmware.saves.folder import state_dir
    from firmware.shell.die import SeededDie
    from firmware.startup import (
        config_and_mode,
        keyboard,
        on_signals,
        raw_keyboard,
        rigging,
        start_logging,
    )

    config, emulated = config_and_mode(args.config, args.hardware, emulate=args.emulate)
    if args.seed is not None and not (emulated and args.dice):
        raise ConfigError("--seed is only for --dice when emulated, never on "
                          "the table: it tests the demo die")
    # Wired pins and panel only: an emulated selftest shares nothing with a table.
    table = None if emulated else _not_beside_a_table(state_dir(None, on_raspberry_pi()))
    show_terminal = emulated and sys.stdout.isatty()
    start_logging(None if not show_terminal else state_dir(None, on_raspberry_pi()))
    rig, capture = rigging(config, emulated=emulated, show_terminal=show_terminal,
                           capture_to=args.capture, seats_on=args.seats)
    lang = args.lang or config.language
    try:
        if args.dice:
            die = SeededDie(args.seed) if args.seed is not None else Die()
            return dice(rig, die, lang, to_stdout=not show_terminal)
        test = SelfTest(rig, lang=lang, on_done=rig.loop.stop)
        on_signals(rig.loop)
        test.start()
        try:
            with raw_keyboard(show_terminal):
                for thread in keyboard(rig, AlwaysReady()):
                    thread.start()
                rig.loop.run()
        finally:
            test.stop()
            rig.close()
        return 0
    finally:
        if capture is not None:
            capture.close()
        if table is not None:
            table.unlock()


def dice(rig: Rigging, die: Die, lang: str, to_stdout: bool) -> int:
    """``robinson selftest --dice``: the fairness tests at 99 %, on the screen and stdout."""
    try:
        verdicts = check(die.roll, DICE_ROLLS)  # the very die the button would roll
        screen = dice_screen(Words(lang), DICE_ROLLS, verdicts)
        rig.panel.show(render(screen, Fonts(), 0, rig.config.display.layout))
        if to_stdout:
            for verdict in verdicts:
                print(f"{verdict.name}: statistic {verdict.statistic:.4f}, "
                      f"p = {verdict.p_value:.4f}")
            print(screen.footer)
    finally:
        rig.close()
    return 0 if all(v.passed(DICE_ALPHA) for v in verdicts) else 1
