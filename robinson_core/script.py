"""Replay scripts: die faces and decision words, as the ``robinson replay`` contract reads them.

A die face where the game waits for a decision takes the default option first,
then is used for the roll that follows.

>>> [a.token for a in script_actions(Game((1, 2)), "5 6 5 6 6 4 3, 2")]
['5', '6', '5', '6', '6', '4', 'again', '3', 'jump', '2']
"""

from __future__ import annotations

import re

from .actions import CHOICES, Action, Choice, Pending, Roll, parse_action
from .engine import apply
from .errors import IllegalActionError, ScriptError, quote
from .events import Event
from .game import Game
from .state import GameState


def tokens(script: str) -> list[str]:
    """The tokens of a script: separated by spaces or commas."""
    return [t for t in re.split(r"[\s,]+", script) if t]


def script_actions(game: Game, script: str) -> list[Roll | Choice]:
    """The explicit actions a script makes of ``game``, defaults written out."""
    return list(play_script(game, script).actions[len(game.actions):])


def play_script(game: Game, script: str) -> Game:
    """``game`` with every token of ``script`` played; ScriptError names the bad token.

    Every token is checked for form before the first is played, so a
    malformed token anywhere is reported at once; the game is then played in
    time linear in the script's length.
    """
    words = tokens(script)
    parsed: list[Action] = []
    for index, token in enumerate(words, start=1):
        try:
            parsed.append(parse_action(token))
        except IllegalActionError as error:
            raise ScriptError(f"{_where(index, token)}: {error}", index) from None
    actions: list[Action] = []
    steps: list[tuple[GameState, tuple[Event, ...]]] = []
    state = game.state

    def take(action: Action) -> GameState:
        after, events = apply(state, action)
        actions.append(action)
        steps.append((after, events))
        return after

    for index, action in enumerate(parsed, start=1):
        if isinstance(action, Roll):
            while state.pending in CHOICES:
                state = take(CHOICES[state.pending][0])
        if state.pending is Pending.OVER:
            raise ScriptError(f"{_where(index, words[index - 1])}: the game is already over",
                              index)
        if action not in state.legal_actions():
            raise ScriptError(f"{_where(index, words[index - 1])}: {state.waiting_for()}", index)
        state = take(action)
    return game.extended(actions, steps)


def _where(index: int, token: str) -> str:
    return f"token {index} of the script ({quote(token)})"
