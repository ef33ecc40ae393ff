"""A game is its settings plus its actions: save writes them, load replays them.

>>> from robinson_core import Roll
>>> game = Game((1, 2)).play(Roll(3)).play(Roll(5))
>>> Game.load(game.save()) == game, game.undo().actions
(True, (Roll(face=3),))
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from .actions import Action, parse_action
from .engine import apply, new_game
from .errors import RobinsonError, SaveError, quote
from .events import Event
from .house_rules import HouseRules
from .numbers import whole_number
from .state import GameState

FORMAT = 1
MAGIC = "robinson-game"
MAX_ACTIONS = 2000
"""The most actions a saved game may hold. Of 20,000 simulated games of 8 players the
longest took 178 rolls: a bound over ten times that refuses a file made to be slow to
read (160,000 legal moves took 2.4 s and 180 MB to load), never a game played."""
FIELDS = ("seats", "first", "rules", "actions")  # the lines of the saved form, in order


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
        return self.extended((action,), ((state, events),))

    def extended(self, actions: Sequence[Action],
                 steps: Sequence[tuple[GameState, tuple[Event, ...]]]) -> Game:
        """This game with ``actions`` taken, whose states and events are ``steps``.

        For callers that applied the actions themselves (``play``, a replay
        script): the history is extended, not replayed, so a long game is built
        in time linear in its actions.
        """
        assert len(actions) == len(steps)
        longer = Game.__new__(Game)
        for name, value in (("seats", self.seats), ("first", self.first), ("rules", self.rules),
                            ("actions", self.actions + tuple(actions))):
            object.__setattr__(longer, name, value)
        longer.__dict__["history"] = self.history + tuple(steps)
        return longer

    def audit(self) -> str | None:
        """What is wrong with the books, or None: every chip issued is held by a player
        or the pot, and the last action from the state before it gives this state again.

        Each state was audited as it came (and a loaded game is replayed whole), so
        the last step is all there is to check: a press costs the same at any length."""
        state = self.state
        held = sum(p.chips for p in state.players) + state.pot
        if held != state.issued:
            return f"{held} ≠ {state.issued}"
        if self.actions:
            try:
                again = apply(self.history[-2][0], self.actions[-1])
            except RobinsonError:
                return "replay"
            if again != self.history[-1]:
                return "replay"
        return None

    def undo(self) -> Game:
        """The same game without its last action."""
        if not self.actions:
            raise RobinsonError("there is nothing to undo: no action has been taken")
        return Game(self.seats, self.first, self.rules, self.actions[:-1])

    def restart(self) -> Game:
        """A new game with the same seats, first seat and rules."""
        return Game(self.seats, self.first, self.rules)

    def same_setup(self, other: Game) -> bool:
        """Whether ``other`` has this game's seats, first seat and rules (it may be this
        game further on, or undone, or another game begun the same way)."""
        return (self.seats, self.first, self.rules) == (other.seats, other.first, other.rules)

    def shared(self, other: Game) -> int:
        """How many actions, from the first, this game and ``other`` have in common."""
        return _shared(self.actions, other.actions)

    # -- the saved form -------------------------------------------------------

    def save(self) -> str:
        """The versioned text form, ending in a checksum of everything above it."""
        body = f"{self._head()}{' '.join(a.token for a in self.actions)}\n"
        return body + f"sha256 {_digest(body)}\n"

    def _head(self) -> str:
        """The saved form up to its first action: what the seats, first seat and rules
        make it."""
        return (f"{MAGIC} {FORMAT}\n"
                f"seats {' '.join(map(str, self.seats))}\n"
                f"first {self.first}\n"
                f"rules {self.rules.as_text()}\n"
                f"actions ")

    @classmethod
    def load(cls, text: str) -> Game:
        """Read a saved game back and replay it; SaveError says what is wrong."""
        first_line = text[:text.find("\n")]
        if not first_line.startswith(MAGIC + " "):
            raise SaveError("not a Robinson saved game (the first line is wrong)")
        version = whole_number(first_line[len(MAGIC) + 1:])
        if version is None:
            raise SaveError("the format version on the first line is damaged")
        if version > FORMAT:
            raise SaveError(f"saved by a newer version (format {version}); "
                            f"this one reads format {FORMAT}: update the software")
        if version < 1:
            raise SaveError(f"unknown format version {version}")
        # The checksum covers every byte before it, and nothing may follow it.
        body, found, digest = text.rpartition("\nsha256 ")
        if not found:
            raise SaveError("the checksum line is missing: the file is cut short")
        body += "\n"
        if digest.rstrip("\n") != _digest(body):
            raise SaveError("the checksum does not match: the file was damaged or edited")
        if digest != _digest(body) + "\n":
            raise SaveError("there is text after the checksum line: the file was edited")
        fields_: dict[str, str] = {}
        for line in body.split("\n")[1:-1]:
            name, value = _split(line)
            if name not in FIELDS:
                raise SaveError(f"the line {quote(line)} is not one of a saved game's")
            if name in fields_:
                raise SaveError(f"the line {name!r} is there twice: the file was edited")
            fields_[name] = value
        missing = [name for name in FIELDS if name not in fields_]
        if missing:
            raise SaveError(f"the line {missing[0]!r} is missing")
        return cls.from_fields(**fields_)

    @classmethod
    def from_fields(cls, *, seats: str, first: str, rules: str, actions: str) -> Game:
        """A game from the four fields of its saved form (as a database row holds them),
        replayed; SaveError says what is wrong."""
        tokens = actions.split()
        if len(tokens) > MAX_ACTIONS:
            raise SaveError(f"it holds {len(tokens)} actions, more than any game takes "
                            f"(at most {MAX_ACTIONS})")
        try:
            return cls(tuple(_number(s) for s in seats.split()), _number(first),
                       HouseRules.from_text(rules),
                       tuple(parse_action(t) for t in actions.split()))
        except (ValueError, RobinsonError) as error:
            raise SaveError(f"the saved game does not replay: {error}") from None


def _shared(one: tuple[Action, ...], other: tuple[Action, ...]) -> int:
    """How many actions, from the first, ``one`` and ``other`` have in common: one
    comparison of tuples where one goes on from the other (a game played on, or undone)."""
    shorter = min(len(one), len(other))
    if one[:shorter] == other[:shorter]:
        return shorter
    return next(n for n in range(shorter) if one[n] != other[n])


class SavedDigest:
    """sha256 of ``Game.save()``'s text (what the database keeps of the game in play),
    kept as one game is played on or undone: each action's token hashed once, not the
    whole text at every save (at 2,000 actions that text took 0.3 ms a press). The
    hash's state is kept every ``EVERY`` actions, so an undo goes back to the last one
    kept and hashes the few after it again.

    >>> from robinson_core import Roll
    >>> game = Game((1, 2)).play(Roll(3))
    >>> longer = game.play(Roll(4))
    >>> SavedDigest(game).of(longer) == hashlib.sha256(longer.save().encode()).hexdigest()
    True
    """

    EVERY = 64

    def __init__(self, game: Game) -> None:
        self.setup = (game.seats, game.first, game.rules)
        self._fed: tuple[Action, ...] = ()
        self._kept = [hashlib.sha256(game._head().encode("utf-8"))]  # after 0, EVERY, ...

    def fits(self, game: Game) -> bool:
        """Whether ``game`` is one this digest can follow: the same seats, first, rules."""
        return (game.seats, game.first, game.rules) == self.setup

    def of(self, game: Game) -> str:
        """``sha256(game.save())``, in hex; ``game`` must fit."""
        if not self.fits(game):
            raise ValueError("another game's digest")
        actions = game.actions
        start = min(_shared(self._fed, actions) // self.EVERY, len(self._kept) - 1)
        del self._kept[start + 1:]
        body = self._kept[start].copy()
        for n in range(start * self.EVERY, len(actions)):
            if n % self.EVERY == 0 and n > start * self.EVERY:
                self._kept.append(body.copy())
            body.update(((" " if n else "") + actions[n].token).encode("ascii"))
        self._fed = actions
        body.update(b"\n")
        whole = body.copy()
        whole.update(f"sha256 {body.hexdigest()}\n".encode("ascii"))
        return whole.hexdigest()


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _number(text: str) -> int:
    number = whole_number(text)
    if number is None:
        raise SaveError(f"{quote(text)} is not a seat number")
    return number


def _split(line: str) -> tuple[str, str]:
    name, _, value = line.partition(" ")
    return name, value

