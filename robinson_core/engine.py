"""The rules: set up a game, and apply one action to a state.

Chance is the caller's: the engine never rolls, it waits for a face.

>>> state = new_game([1, 2])
>>> state, events = apply(state, Roll(3))
>>> state.player(1).position, state.player(1).chips, state.to_move
(3, 11, 2)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from . import events as ev
from .actions import CHOICES, DECISION_SQUARE, Action, Choice, Pending, Roll
from .board import BOARD, HOME, START, Effect
from .errors import IllegalActionError, SetupError
from .house_rules import DeadChips, HouseRules, ShareWith
from .state import GameState, Player

MIN_PLAYERS, MAX_PLAYERS = 2, 8
SEATS = range(1, MAX_PLAYERS + 1)
GALLOWS, GALLOWS_FACE = 42, 6


def new_game(seats: Iterable[int], first: int | None = None,
             rules: HouseRules | None = None) -> GameState:
    """The state before the first roll: stakes in the pot, tokens at start."""
    rules = rules or HouseRules()
    seated = tuple(seats)
    if len(set(seated)) != len(seated):
        raise SetupError(f"a seat is named twice in {list(seated)}")
    bad = [s for s in seated if type(s) is not int or s not in SEATS]
    if bad:
        raise SetupError(f"seats are numbered 1 to {MAX_PLAYERS}, not {bad[0]!r}")
    if not MIN_PLAYERS <= len(seated) <= MAX_PLAYERS:
        raise SetupError(
            f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seated)}")
    ordered = tuple(sorted(seated))
    if first is None:
        first = ordered[0]
    if first not in ordered:
        raise SetupError(f"the first seat must be one of {list(ordered)}, not {first!r}")
    players = tuple(Player(seat, START, rules.purse - rules.stake) for seat in ordered)
    return GameState(players, rules.stake * len(ordered), rules, first, Pending.ROLL)


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[ev.Event, ...]]:
    """The state after ``action``, and the events it caused, in order."""
    play = Play(state)
    events = play.apply(action)
    return play.state, tuple(events)


class Play:
    """A game moving forward in place: the same rules as ``apply``, without a frozen state
    per action. For the simulator, where millions of actions matter; ``state`` freezes one.

    >>> play = Play(new_game([1, 2]))
    >>> [type(e).__name__ for e in play.apply(Roll(3))], play.state.player(1).chips
    (['Rolled', 'Moved', 'Transfer'], 11)
    """

    def __init__(self, state: GameState) -> None:
        self._table = _Table(state)

    @property
    def pending(self) -> Pending:
        return self._table.pending

    @property
    def to_move(self) -> int | None:
        return self._table.to_move

    @property
    def state(self) -> GameState:
        return self._table.freeze()

    def chips(self, seat: int) -> int:
        return self._table.chips[seat]

    def position(self, seat: int) -> int | None:
        return self._table.position[seat]

    def apply(self, action: Action) -> list[ev.Event]:
        table = self._table
        if not _takes(table.pending, action):
            raise IllegalActionError(
                f"{table.freeze().waiting_for()}; {_name(action)} is not possible there")
        table.events = []
        seat = table.to_move
        assert seat is not None
        if isinstance(action, Roll):
            table.roll(seat, action.face)
        else:
            table.decide(seat, table.pending, action)
        return table.events


def _takes(pending: Pending, action: Action) -> bool:
    """Whether ``action`` is among the legal actions, without building them (hot path)."""
    if pending is Pending.ROLL:
        return isinstance(action, Roll)  # a Roll is 1..6 by construction
    return pending in CHOICES and action in CHOICES[pending]


@functools.lru_cache(maxsize=1024)
def _ring(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """The other seats in turn order, starting after ``seat``."""
    i = seats.index(seat)
    return seats[i + 1:] + seats[:i]


def _name(action: Action) -> str:
    return f"a roll of {action.face}" if isinstance(action, Roll) else repr(action.value)


class _Table:
    """A mutable working copy of one state, for the length of one action."""

    def __init__(self, state: GameState) -> None:
        self.rules = state.rules
        self.players = state.players
        self.position: dict[int, int | None] = {}
        self.chips: dict[int, int] = {}
        self.friday: dict[int, int | None] = {}
        self.sits_out: dict[int, bool] = {}
        for p in state.players:
            self.position[p.seat] = p.position
            self.chips[p.seat] = p.chips
            self.friday[p.seat] = p.friday
            self.sits_out[p.seat] = p.sits_out
        self.seats = tuple(self.position)
        self.pot = state.pot
        self.to_move = state.to_move
        self.pending = state.pending
        self.winner = state.winner
        self.events: list[ev.Event] = []

    def freeze(self) -> GameState:
        players = tuple(self._player(p) for p in self.players)
        return GameState(players, self.pot, self.rules, self.to_move, self.pending, self.winner)

    def _player(self, old: Player) -> Player:
        """``old`` as it is now: the same object if nothing about it changed."""
        s = old.seat
        now = (self.position[s], self.chips[s], self.friday[s], self.sits_out[s])
        if now == (old.position, old.chips, old.friday, old.sits_out):
            return old
        return Player(s, *now)

    # -- who is where at the table ------------------------------------------

    def active(self, seat: int) -> bool:
        return self.position[seat] is not None

    def after(self, seat: int) -> list[int]:
        """The other active seats in turn order, starting after ``seat``."""
        position = self.position
        return [s for s in _ring(self.seats, seat) if position[s] is not None]

    def right_neighbour(self, seat: int) -> int | None:
        """The previous active seat in turn order (whose turn came just before)."""
        others = self.after(seat)
        return others[-1] if others else None

    def master_of(self, seat: int) -> int | None:
        for master, friday in self.friday.items():
            if friday == seat:
                return master
        return None

    # -- money ----------------------------------------------------------------

    def _affordable(self, seat: int, asked: int) -> int:
        return asked if self.rules.debt else max(0, min(asked, self.chips[seat]))

    def pay_bank(self, seat: int, asked: int, why: ev.Why = ev.Why.SQUARE) -> None:
        amount = self._affordable(seat, asked)
        self.chips[seat] -= amount
        self.pot += amount
        self.events.append(ev.Transfer(seat, None, asked, amount, why))
        friday = self.friday[seat]
        if why is ev.Why.SQUARE and friday is not None:
            self.pay_bank(friday, 1, ev.Why.FRIDAY)

    def collect_bank(self, seat: int, asked: int, why: ev.Why = ev.Why.SQUARE) -> None:
        amount = min(asked, self.pot)
        self.pot -= amount
        self.chips[seat] += amount
        self.events.append(ev.Transfer(None, seat, asked, amount, why))
        friday = self.friday[seat]
        if why is ev.Why.SQUARE and friday is not None:
            self.collect_bank(friday, 1, ev.Why.FRIDAY)

    def pay_player(self, payer: int, payee: int, asked: int) -> None:
        amount = self._affordable(payer, asked)
        self.chips[payer] -= amount
        self.chips[payee] += amount
        self.events.append(ev.Transfer(payer, payee, asked, amount))

    # -- a turn ---------------------------------------------------------------

    def roll(self, seat: int, face: int) -> None:
        self.events.append(ev.Rolled(seat, face))
        start = self.position[seat]
        assert start is not None
        total = start + face
        end = 2 * HOME - total if total > HOME else total
        self.position[seat] = end
        self.events.append(ev.Moved(seat, start, end, ev.Cause.ROLL, total > HOME))
        if start == GALLOWS and face == GALLOWS_FACE:
            self.eliminate(seat)
        else:
            self.land(seat, end)
        self.finish_turn(seat)

    def decide(self, seat: int, pending: Pending, choice: Choice) -> None:
        self.events.append(ev.Decided(seat, choice, DECISION_SQUARE[pending]))
        self.pending = Pending.ROLL
        if choice is CHOICES[pending][0]:  # roll on 7, again on 20, jump on 23
            if choice is Choice.JUMP:
                target = BOARD[23].target
                assert target is not None
                self.move(seat, target, ev.Cause.JUMP)
                self.finish_turn(seat)
            return
        self.finish_turn(seat)

    def move(self, seat: int, end: int, cause: ev.Cause) -> None:
        start = self.position[seat]
        assert start is not None
        self.position[seat] = end
        self.events.append(ev.Moved(seat, start, end, cause))

    def land(self, seat: int, number: int) -> None:
        """Resolve the square ``seat`` landed on."""
        square = BOARD[number]
        effect, amount = square.effect, square.amount
        if effect is Effect.EVERYONE_PAYS:
            for s in [seat, *self.after(seat)]:
                self.pay_bank(s, amount)
        elif effect is Effect.COLLECT_BANK:
            self.collect_bank(seat, amount)
        elif effect is Effect.PAY_BANK:
            self.pay_bank(seat, amount)
        elif effect is Effect.SHIPWRECK:
            if self.rules.restart_on_4:
                assert square.target is not None
                self.move(seat, square.target, ev.Cause.SHIPWRECK)
        elif effect is Effect.PAY_NEIGHBOUR:
            neighbour = self.right_neighbour(seat)
            if neighbour is None:
                self.events.append(ev.NoNeighbour(seat))
            else:
                self.pay_player(seat, neighbour, amount)
        elif effect is Effect.SIT_OUT:
            self.sits_out[seat] = True
            self.events.append(ev.WillSitOut(seat))
        elif effect is Effect.PARROT:
            self.events.append(ev.Parrot(seat))
        elif effect is Effect.ROLL_AGAIN:
            self.pending = Pending.AGAIN
        elif effect is Effect.JUMP:
            self.pending = Pending.JUMP
        elif effect is Effect.GO_BACK:
            assert square.target is not None
            self.move(seat, square.target, ev.Cause.GO_BACK)
            if self.rules.chain_25_to_14:
                self.land(seat, square.target)
        elif effect is Effect.FRIDAY:
            neighbour = self.right_neighbour(seat)
            if neighbour is None:
                self.events.append(ev.NoNeighbour(seat))
            else:
                self.pay_player(neighbour, seat, amount)
                self.swear(seat, neighbour)
        elif effect is Effect.COLLECT_EACH:
            for other in self.after(seat):
                self.pay_player(other, seat, amount)
        elif effect is Effect.SWAP:
            assert square.target is not None
            self.swap(seat, square.target)
        elif effect is Effect.HOME:
            self.win(seat)
        # NONE, TREE (asked on later turns) and GALLOWS (acts on leaving) do nothing here.

    def swear(self, master: int, friday: int) -> None:
        """``friday`` becomes ``master``'s Friday; older bonds of either give way."""
        if self.friday[master] == friday:
            return
        old = self.friday[master]
        if old is not None:
            self.events.append(ev.BondEnded(master, old, ev.BondEnd.REPLACED))
        previous = self.master_of(friday)
        if previous is not None:
            self.friday[previous] = None
            self.events.append(ev.BondEnded(previous, friday, ev.BondEnd.TAKEN))
        self.friday[master] = friday
        self.events.append(ev.FridaySworn(master, friday))

    def swap(self, seat: int, square: int) -> None:
        for other in self.after(seat):
            if self.position[other] == square:
                here = self.position[seat]
                assert here is not None
                self.position[seat], self.position[other] = square, here
                self.events.append(ev.Swapped(seat, other))
                return

    def eliminate(self, seat: int) -> None:
        self.events.append(ev.Eliminated(seat))
        friday = self.friday[seat]
        if friday is not None:
            self.friday[seat] = None
            self.events.append(ev.BondEnded(seat, friday, ev.BondEnd.ELIMINATED))
        master = self.master_of(seat)
        if master is not None:
            self.friday[master] = None
            self.events.append(ev.BondEnded(master, seat, ev.BondEnd.ELIMINATED))
        # Ruling: only chips go to the pot; a debt (house rule debt) dies with its owner.
        chips = self.chips[seat]
        if self.rules.dead_chips is DeadChips.POT and chips > 0:
            self.chips[seat] = 0
            self.pot += chips
            self.events.append(ev.Transfer(seat, None, chips, chips, ev.Why.DEAD_CHIPS))
        self.position[seat] = None
        self.sits_out[seat] = False
        if not any(self.active(s) for s in self.seats):
            self.events.append(ev.NoWinner(self.pot))
            self.game_over(None)

    def win(self, seat: int) -> None:
        pot = self.pot
        self.chips[seat] += pot
        self.pot = 0
        self.events.append(ev.Won(seat, pot))
        partner = self.friday[seat]
        if partner is not None:
            share, as_friday = pot // 3, True
        else:
            partner, share, as_friday = self.share_partner(seat), pot // 2, False
        if partner is not None:
            self.chips[seat] -= share
            self.chips[partner] += share
            self.events.append(ev.Shared(seat, partner, share, as_friday))
        self.game_over(seat)

    def share_partner(self, winner: int) -> int | None:
        others = self.after(winner)
        if not others:
            return None
        rule = self.rules.share_with
        if rule is ShareWith.RIGHT:
            return others[-1]
        if rule is ShareWith.LEFT:
            return others[0]
        if rule is ShareWith.RUNNER_UP:
            # max() keeps the first of equals: the first after the winner in turn order.
            return max(others, key=lambda s: self.position[s] or 0)
        return None

    def game_over(self, winner: int | None) -> None:
        self.winner = winner
        self.pending = Pending.OVER
        self.to_move = None

    def finish_turn(self, seat: int) -> None:
        """Pass play on, unless the game ended or the mover has a decision to make."""
        if self.pending is not Pending.ROLL:
            return
        current = seat
        while True:
            others = self.after(current)
            following = others[0] if others else (current if self.active(current) else None)
            assert following is not None  # the game would be over
            if self.sits_out[following]:
                self.sits_out[following] = False
                self.events.append(ev.SatOut(following))
                current = following
                continue
            self.to_move = following
            self.pending = Pending.TREE if self.position[following] == 7 else Pending.ROLL
            return
