"""A game is its settings plus its actions: save writes them, load replays them.

>>> from robinson_core import Roll
>>> game = Game((1, 2)).play(Roll(3)).play(Roll(5))
>>> Game.load(game.save()) == game, game.undo().actions
(True, (Roll(face=3),))
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property

from .actions import Action, parse_action
from .engine import apply, new_game
from .errors import RobinsonError, SaveError
from .events import Event
from .house_rules import HouseRules
from .state import GameState

FORMAT = 1
MAGIC = "robinson-game"


@dataclass(frozen=True)
class Game:
    """Seats, first seat, house rules and every action so far."""

    seats: tuple[int, ...]
    first: int | None = None
    rules: HouseRules = field(default_factory=HouseRules)
    actions: tuple[Action, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(sorted(self.seats)))
        if self.first is None and self.seats:
            object.__setattr__(self, "first", self.seats[0])
        # Replaying here makes a bad game fail where it is made, not later.
        _ = self.history

    @cached_property
    def history(self) -> tuple[tuple[GameState, tuple[Event, ...]], ...]:
        """Each state from setup on, with the events of the action that led to it."""
        state = new_game(self.seats, self.first, self.rules)
        steps: list[tuple[GameState, tuple[Event, ...]]] = [(state, ())]
        for action in self.actions:
            state, events = apply(state, action)
            steps.append((state, events))
        return tuple(steps)

    @property
    def state(self) -> GameState:
        return self.history[-1][0]

    @property
    def events(self) -> tuple[Event, ...]:
        """What the last action caused."""
        return self.history[-1][1]

    def play(self, action: Action) -> Game:
        """This game one action on (raises IllegalActionError if it cannot take it)."""
        state, events = apply(self.state, action)
        longer = Game.__new__(Game)
        for name, value in (("seats", self.seats), ("first", self.first), ("rules", self.rules),
                            ("actions", self.actions + (action,))):
            object.__setattr__(longer, name, value)
        # Extend the history instead of replaying it all: play is on the press path.
        longer.__dict__["history"] = self.history + ((state, events),)
        return longer

    def undo(self) -> Game:
        """The same game without its last action."""
        if not self.actions:
            raise RobinsonError("there is nothing to undo: no action has been taken")
        return Game(self.seats, self.first, self.rules, self.actions[:-1])

    def restart(self) -> Game:
        """A new game with the same seats, first seat and rules."""
        return Game(self.seats, self.first, self.rules)

    # -- the saved form -------------------------------------------------------

    def save(self) -> str:
        """The versioned text form, ending in a checksum of everything above it."""
        rules = " ".join(f"{k}={v}" for k, v in self.rules.as_strings().items())
        body = (f"{MAGIC} {FORMAT}\n"
                f"seats {' '.join(map(str, self.seats))}\n"
                f"first {self.first}\n"
                f"rules {rules}\n"
                f"actions {' '.join(a.token for a in self.actions)}\n")
        return body + f"sha256 {_digest(body)}\n"

    @classmethod
    def load(cls, text: str) -> Game:
        """Read a saved game back and replay it; SaveError says what is wrong."""
        lines = text.split("\n")
        if not lines or not lines[0].startswith(MAGIC + " "):
            raise SaveError("not a Robinson saved game (the first line is wrong)")
        version = lines[0][len(MAGIC) + 1:].strip()
        if not version.isdigit():
            raise SaveError("the format version on the first line is damaged")
        if int(version) > FORMAT:
            raise SaveError(f"saved by a newer version (format {version}); "
                            f"this one reads format {FORMAT}: update the software")
        if int(version) < 1:
            raise SaveError(f"unknown format version {version}")
        fields_ = dict(_split(line) for line in lines if line)
        body_end = text.rfind("sha256 ")
        if "sha256" not in fields_ or body_end < 0:
            raise SaveError("the checksum line is missing: the file is cut short")
        if fields_["sha256"] != _digest(text[:body_end]):
            raise SaveError("the checksum does not match: the file was damaged or edited")
        try:
            seats = tuple(int(s) for s in fields_["seats"].split())
            first = int(fields_["first"])
            rules = HouseRules.from_strings(dict(_rule(r) for r in fields_["rules"].split()))
            actions = tuple(parse_action(t) for t in fields_["actions"].split())
            return cls(seats, first, rules, actions)
        except KeyError as missing:
            raise SaveError(f"the line {missing} is missing") from None
        except (ValueError, RobinsonError) as error:
            raise SaveError(f"the saved game does not replay: {error}") from None


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _split(line: str) -> tuple[str, str]:
    name, _, value = line.partition(" ")
    return name, value


def _rule(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep:
        raise SaveError(f"the house rule {text!r} has no value")
    return name, value
