"""The Robinson banker's rules engine: pure, exact, and no I/O.

>>> from robinson_core import Game, Roll
>>> Game((1, 2, 3)).play(Roll(4)).state.player(1).position  # shipwrecked on 4
0
"""

from .actions import CHOICES, Action, Choice, Pending, Roll, parse_action
from .board import BOARD, HOME, START, Effect, Square
from .engine import MAX_PLAYERS, MIN_PLAYERS, SEATS, apply, new_game
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
from .game import Game
from .house_rules import DeadChips, HouseRules, ShareWith, Square4, Square32, Square33
from .script import play_script, script_actions, tokens
from .state import GameState, Player, Status

__all__ = [
    "BOARD", "CHOICES", "HOME", "MAX_PLAYERS", "MIN_PLAYERS", "SEATS", "START", "Action",
    "BoardError", "Choice", "DeadChips", "Effect", "Game", "GameState", "HouseRuleError",
    "HouseRules", "IllegalActionError", "LanguageError", "Pending", "Player", "RobinsonError",
    "Roll", "SaveError", "ScriptError", "SetupError", "ShareWith", "Square", "Square4",
    "Square32", "Square33",
    "Status", "apply", "new_game", "parse_action", "play_script", "script_actions", "tokens",
]
