"""Setting a table for a rules test: tokens, chips and bonds where the test needs them."""

from __future__ import annotations

from collections.abc import Iterable

from robinson_core import Action, GameState, HouseRules, Pending, Player, Roll, apply
from robinson_core.events import Event


def table(positions: dict[int, int | None], *, chips: dict[int, int] | None = None,
          friday: dict[int, int] | None = None, sits_out: Iterable[int] = (),
          to_move: int | None = None, rules: HouseRules | None = None,
          pending: Pending = Pending.ROLL) -> GameState:
    """A mid-game state: seats at ``positions`` (None = eliminated), 10 chips each by default.

    The pot holds the rest of what was issued, so chips are conserved from here on.
    """
    rules = rules or HouseRules()
    chips = chips or {}
    friday = friday or {}
    out = set(sits_out)
    players = tuple(
        Player(seat, pos, chips.get(seat, 10), friday.get(seat), seat in out)
        for seat, pos in sorted(positions.items()))
    pot = len(players) * rules.purse - sum(p.chips for p in players)
    assert pot >= 0, "the test handed out more chips than were issued"
    first = to_move if to_move is not None else players[0].seat
    return GameState(players, pot, rules, first, pending)


def play(state: GameState, *actions: Action | int) -> tuple[GameState, list[Event]]:
    """Apply actions (ints are die faces) and collect every event."""
    events: list[Event] = []
    for action in actions:
        state, caused = apply(state, Roll(action) if isinstance(action, int) else action)
        events.extend(caused)
    return state, events


def positions(state: GameState) -> dict[int, int | None]:
    return {p.seat: p.position for p in state.players}


def chips(state: GameState) -> dict[int, int]:
    return {p.seat: p.chips for p in state.players}
