"""A decision's odds, weighed beside the loop: one worker thread plays each option out
(``robinson_core.kernel.odds``) and posts the answer to the loop as an input.

Why a thread, not a process: the rollouts take some 50-100 ms here (a few hundred on a
Zero), a process would cost its start and some 20 MB on a 512 MB board, and nothing
waits for the answer: the loop takes every press as it comes (Python hands the
interpreter to the loop's thread within its 5 ms switch interval), and an answer for a
game that has moved on is dropped by the machine. Only the newest question is kept: a
question asked while another is weighed replaces any still waiting.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from firmware.shell.die import rollouts
from robinson_core import Game
from robinson_core.compiled import odds
from robinson_core.kernel import ROLLOUTS

log = logging.getLogger(__name__)


class Weigher:
    """Weighs decisions on its own thread; ``answer(game, win)`` is called on that thread
    with the decider's chance to win with each option, in whole percent."""

    def __init__(self, answer: Callable[[Game, tuple[int, int]], None],
                 games: int = ROLLOUTS, seed: int | None = None) -> None:
        self._answer, self._games, self._seed = answer, games, seed
        self._asked: Game | None = None
        self._closed = False
        self._wake = threading.Condition()
        self._thread = threading.Thread(target=self._work, name="odds", daemon=True)
        self._thread.start()

    def ask(self, game: Game) -> None:
        """Weigh the decision ``game`` waits for (the newest question replaces one
        waiting)."""
        with self._wake:
            self._asked = game
            self._wake.notify()

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify()
        self._thread.join(timeout=5.0)

    def _work(self) -> None:
        die = rollouts(self._seed)
        while True:
            with self._wake:
                while self._asked is None and not self._closed:
                    self._wake.wait()
                game, self._asked = self._asked, None
                if self._closed or game is None:
                    return
            try:
                first, second = odds(game.state, self._games, die.random)
            except ValueError:  # no decision after all: nothing to say
                continue
            except Exception:  # a fault of ours must not end the thread: said, not shown
                log.exception("the odds could not be weighed")
                continue
            self._answer(game, (round(100 * first.win), round(100 * second.win)))
