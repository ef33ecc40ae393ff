"""The game state: an immutable value, one per moment of the game."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .actions import CHOICES, DECISION_SQUARE, FACES, Action, Pending, Roll
from .house_rules import HouseRules

_ROLLS: tuple[Action, ...] = tuple(Roll(face) for face in FACES)


class Status(enum.Enum):
    """Where a game stands: still playing, won, or over with no winner."""

    PLAYING = "playing"
    WON = "won"
    NO_WINNER = "no_winner"


@dataclass(frozen=True)
class Player:
    """One seat's token and chips. ``position`` is 0 at start, None once eliminated."""

    seat: int
    position: int | None
    chips: int
    friday: int | None = None  # the seat of this player's Friday
    sits_out: bool = False  # will lose their next turn (12)

    @property
    def active(self) -> bool:
        return self.position is not None


@dataclass(frozen=True)
class GameState:
    """Everything the banker knows at one moment."""

    players: tuple[Player, ...]  # ordered by seat
    pot: int
    rules: HouseRules
    to_move: int | None  # the seat that must act next; None once over
    pending: Pending
    winner: int | None = None

    @property
    def status(self) -> Status:
        if self.pending is not Pending.OVER:
            return Status.PLAYING
        return Status.WON if self.winner is not None else Status.NO_WINNER

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players)

    @property
    def issued(self) -> int:
        """The chips handed out at setup: players' chips plus the pot always equal this."""
        return len(self.players) * self.rules.purse

    def player(self, seat: int) -> Player:
        for p in self.players:
            if p.seat == seat:
                return p
        raise KeyError(f"seat {seat} is not in this game")

    def master_of(self, seat: int) -> int | None:
        """The seat whose Friday ``seat`` is, if any."""
        for p in self.players:
            if p.friday == seat:
                return p.seat
        return None

    def legal_actions(self) -> tuple[Action, ...]:
        """What the game can take now: die faces, the two options, or nothing."""
        if self.pending is Pending.ROLL:
            return _ROLLS
        if self.pending is Pending.OVER:
            return ()
        return CHOICES[self.pending]

    def waiting_for(self) -> str:
        """What the game waits for, in words (for error messages)."""
        if self.pending is Pending.OVER:
            return "the game is over"
        if self.pending is Pending.ROLL:
            return f"the game waits for seat {self.to_move} to roll the die"
        first, second = CHOICES[self.pending]
        return (f"the game waits for seat {self.to_move} on square "
                f"{DECISION_SQUARE[self.pending]} to choose {first.value} or {second.value}")
