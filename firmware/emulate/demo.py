"""A whole game played unattended (``robinson table --demo``), through the mock pins."""

from __future__ import annotations

import time

from firmware.emulate.hands import TAP, Hands
from firmware.runtime.loop import Loop
from firmware.shell.table import Table
from firmware.table.state import Mode
from robinson_core import Status


class Demo:
    """Plays a whole game: seats on, a long press to start, short presses on, then stops."""

    def __init__(self, hands: Hands, table: Table, loop: Loop, pause: float = 0.6) -> None:
        self.hands = hands
        self.table = table
        self.loop = loop
        self.pause = pause

    def run(self) -> None:
        """Drive the table from a thread of its own until the game is over."""
        table = self.table
        table.ready.wait(timeout=10)
        if table.state.mode is Mode.TITLE:  # the state is one value: read once, whole
            time.sleep(self.pause)
            table.ready.expect_press()
            self.hands.press(self.hands.long)  # a new game, not a resumed one
        for seat in range(1, 5):
            self.hands.seat(seat, True)
        while True:
            table.ready.wait(timeout=10)
            time.sleep(self.pause)
            state = table.state
            game = state.game
            if state.mode is Mode.SETUP and len(state.seats) >= 2:
                table.ready.expect_press()
                self.hands.press(self.hands.long)
            elif game is not None and game.state.status is not Status.PLAYING:
                time.sleep(self.pause * 4)
                self.loop.post(self.loop.stop)
                return
            else:
                table.ready.expect_press()
                self.hands.press(TAP)
