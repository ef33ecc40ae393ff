"""What a game can be given: a die face, or a decision on 7, 20 or 23 (and 4, where
house rule square_4 asks).

>>> parse_action("4"), parse_action("again")
(Roll(face=4), <Choice.AGAIN: 'again'>)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import IllegalActionError, quote
from .numbers import whole_number

FACES = range(1, 7)


class Pending(enum.Enum):
    """What the game is waiting for."""

    ROLL = "roll"  # a die face
    TREE = "tree"  # on 7 at the start of a turn: roll or stay
    AGAIN = "again"  # after landing on 20: again or pass
    JUMP = "jump"  # after landing on 23: jump or stay
    WRECK = "wreck"  # after landing on 4, with square_4 = ask: restart or stay
    OVER = "over"  # nothing: the game has ended


class Choice(enum.Enum):
    """A decision word."""

    ROLL = "roll"
    STAY = "stay"
    AGAIN = "again"
    PASS = "pass"
    JUMP = "jump"
    RESTART = "restart"

    @property
    def token(self) -> str:
        return self.value


@dataclass(frozen=True)
class Roll:
    """A die face, 1 to 6: the die is the caller's, never the engine's."""

    face: int

    def __post_init__(self) -> None:
        if type(self.face) is not int or self.face not in FACES:
            raise IllegalActionError(f"a die shows 1 to 6, not {self.face!r}")

    @property
    def token(self) -> str:
        return str(self.face)


Action = Roll | Choice

CHOICES: dict[Pending, tuple[Choice, Choice]] = {
    Pending.TREE: (Choice.ROLL, Choice.STAY),
    Pending.AGAIN: (Choice.AGAIN, Choice.PASS),
    Pending.JUMP: (Choice.JUMP, Choice.STAY),
    Pending.WRECK: (Choice.RESTART, Choice.STAY),
}
"""The two options of each decision; the first is the default (a short press)."""

DECISION_SQUARE = {Pending.TREE: 7, Pending.AGAIN: 20, Pending.JUMP: 23, Pending.WRECK: 4}


def parse_action(token: str) -> Action:
    """The action a script token or a saved token names."""
    word = token.strip().lower()
    face = whole_number(word)
    if face is not None and face in FACES:
        return Roll(face)
    for choice in Choice:
        if choice.value == word:
            return choice
    raise IllegalActionError(
        f"{quote(token)} is not a die face 1-6 or a decision word "
        f"({', '.join(c.value for c in Choice)})")
