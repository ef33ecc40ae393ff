"""Replay scripts: die faces and decision words, as the ``robinson replay`` contract reads them.

A die face where the game waits for a decision takes the default option first,
then is used for the roll that follows.

>>> [a.token for a in script_actions(Game((1, 2)), "5 6 5 6 6 4 3, 2")]
['5', '6', '5', '6', '6', '4', 'again', '3', 'jump', '2']
"""

from __future__ import annotations

import re

from .actions import CHOICES, Choice, Pending, Roll, parse_action
from .errors import IllegalActionError, ScriptError
from .game import Game


def tokens(script: str) -> list[str]:
    """The tokens of a script: separated by spaces or commas."""
    return [t for t in re.split(r"[\s,]+", script) if t]


def script_actions(game: Game, script: str) -> list[Roll | Choice]:
    """The explicit actions a script makes of ``game``, defaults written out."""
    return list(play_script(game, script).actions[len(game.actions):])


def play_script(game: Game, script: str) -> Game:
    """``game`` with every token of ``script`` played; ScriptError names the bad token."""
    for index, token in enumerate(tokens(script), start=1):
        where = f"token {index} of the script ({token!r})"
        try:
            action = parse_action(token)
        except IllegalActionError as error:
            raise ScriptError(f"{where}: {error}", index) from None
        state = game.state
        if state.pending is Pending.OVER:
            raise ScriptError(f"{where}: the game is already over", index)
        if isinstance(action, Roll):
            while state.pending in CHOICES:
                game = game.play(CHOICES[state.pending][0])
                state = game.state
            if state.pending is Pending.OVER:
                raise ScriptError(f"{where}: the game is already over", index)
        elif action not in state.legal_actions():
            raise ScriptError(f"{where}: {state.waiting_for()}", index)
        game = game.play(action)
    return game
