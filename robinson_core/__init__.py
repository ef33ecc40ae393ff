"""The Robinson banker's rules engine: pure, exact, and no I/O.

>>> from robinson_core import Game, Roll
>>> Game((1, 2, 3)).play(Roll(4)).state.player(1).position  # shipwrecked on 4
0

Each name is loaded from its module when first asked for (PEP 562): a reader of the
house rules or of the errors alone (the table's config, before its first frame) loads
neither the engine nor its events.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .actions import CHOICES, Action, Choice, Pending, Roll, parse_action
    from .board import BOARD, HOME, START, Effect, Square
    from .engine import apply, new_game
    from .errors import (
        BoardError,
        HouseRuleError,
        IllegalActionError,
        LanguageError,
        RobinsonError,
        SaveError,
        ScriptError,
        SetupError,
    )
    from .game import MAX_ACTIONS, Game
    from .house_rules import DeadChips, HouseRules, ShareWith, Square4, Square32, Square33
    from .script import play_script, script_actions, tokens
    from .seats import MAX_PLAYERS, MIN_PLAYERS, SEATS
    from .state import GameState, Player, Status

WHERE = {
    "actions": ("CHOICES", "Action", "Choice", "Pending", "Roll", "parse_action"),
    "board": ("BOARD", "HOME", "START", "Effect", "Square"),
    "engine": ("apply", "new_game"),
    "errors": ("BoardError", "HouseRuleError", "IllegalActionError", "LanguageError",
               "RobinsonError", "SaveError", "ScriptError", "SetupError"),
    "game": ("Game", "MAX_ACTIONS"),
    "house_rules": ("DeadChips", "HouseRules", "ShareWith", "Square4", "Square32", "Square33"),
    "script": ("play_script", "script_actions", "tokens"),
    "seats": ("MAX_PLAYERS", "MIN_PLAYERS", "SEATS"),
    "state": ("GameState", "Player", "Status"),
}
"""Each name the package gives, by the module it lives in."""

LIVES_IN = {name: module for module, names in WHERE.items() for name in names}


def __getattr__(name: str) -> object:
    module = LIVES_IN.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # asked once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *LIVES_IN})

__all__ = [
    "BOARD", "CHOICES", "HOME", "MAX_ACTIONS", "MAX_PLAYERS", "MIN_PLAYERS", "SEATS", "START",
    "Action",
    "BoardError", "Choice", "DeadChips", "Effect", "Game", "GameState", "HouseRuleError",
    "HouseRules", "IllegalActionError", "LanguageError", "Pending", "Player", "RobinsonError",
    "Roll", "SaveError", "ScriptError", "SetupError", "ShareWith", "Square", "Square4",
    "Square32", "Square33",
    "Status", "apply", "new_game", "parse_action", "play_script", "script_actions", "tokens",
]
