"""The rules: set up a game, and apply one action to a state.

Chance is the caller's: the engine never rolls, it waits for a face.

>>> state = new_game([1, 2])
>>> state, events = apply(state, Roll(3))
>>> state.player(1).position, state.player(1).chips, state.to_move
(3, 11, 2)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from . import events as ev
from .actions import CHOICES, DECISION_SQUARE, Action, Choice, Pending, Roll
from .board import BOARD, HOME, START, Effect, Square
from .errors import IllegalActionError, SetupError
from .house_rules import DeadChips, HouseRules, ShareWith, Square4, Square32, Square33
from .seats import MAX_PLAYERS, MIN_PLAYERS, SEATS
from .state import GameState, Player

GALLOWS, GALLOWS_FACE = 42, 6
TREE = 7

# Module constants: the hot path reads a global, not an enum class attribute.
_ROLL, _TREE, _OVER = Pending.ROLL, Pending.TREE, Pending.OVER
_SQUARE, _FRIDAY = ev.Why.SQUARE, ev.Why.FRIDAY


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
    """A game moving forward in place: ``apply`` is this on a copy of one state.

    The rules live here once. ``apply`` above freezes a new state after every
    action; the simulator keeps one ``Play`` for a whole game and reads its
    tables (``position``, ``chips``: look, don't write).

    >>> play = Play(new_game([1, 2]))
    >>> [type(e).__name__ for e in play.apply(Roll(3))], play.chips[1], play.pending
    (['Rolled', 'Moved', 'Transfer'], 11, <Pending.ROLL: 'roll'>)
    """

    __slots__ = ("_rings", "chips", "events", "friday", "pending", "players", "position",
                 "pot", "rules", "seats", "sits_out", "to_move", "winner")

    def __init__(self, state: GameState) -> None:
        self.rules = state.rules
        self.players = state.players
        self.seats = state.seats
        self.position: dict[int, int | None] = {p.seat: p.position for p in state.players}
        self.chips: dict[int, int] = {p.seat: p.chips for p in state.players}
        self.friday: dict[int, int | None] = {p.seat: p.friday for p in state.players}
        self.sits_out: dict[int, bool] = {p.seat: p.sits_out for p in state.players}
        self.pot = state.pot
        self.to_move = state.to_move
        self.pending = state.pending
        self.winner = state.winner
        self.events: list[ev.Event] = []
        # Each seat's turn order of the others, starting after it.
        self._rings = {seat: ring(self.seats, seat) for seat in self.seats}

    @property
    def state(self) -> GameState:
        """The game as it is now, frozen."""
        players = tuple(self._player(p) for p in self.players)
        return GameState(players, self.pot, self.rules, self.to_move, self.pending, self.winner)

    def _player(self, old: Player) -> Player:
        """``old`` as it is now: the same object if nothing about it changed."""
        s = old.seat
        now = (self.position[s], self.chips[s], self.friday[s], self.sits_out[s])
        if now == (old.position, old.chips, old.friday, old.sits_out):
            return old
        return Player(s, *now)

    def apply(self, action: Action) -> list[ev.Event]:
        """Take ``action``; the events it caused, in order."""
        pending, seat = self.pending, self.to_move
        # Legality without building the legal actions: this is the hot path.
        if pending is _ROLL and isinstance(action, Roll):  # a Roll is 1..6 by construction
            assert seat is not None
            self.roll(seat, action.face)
        elif pending in CHOICES and action in CHOICES[pending]:
            assert seat is not None and isinstance(action, Choice)
            self.decide(seat, pending, action)
        else:
            raise IllegalActionError(
                f"{self.state.waiting_for()}; {_name(action)} is not possible there")
        return self.events

    # -- who is where at the table ------------------------------------------

    def after(self, seat: int) -> list[int]:
        """The other active seats in turn order, starting after ``seat``."""
        position = self.position
        return [s for s in self._rings[seat] if position[s] is not None]

    def right_neighbour(self, seat: int) -> int | None:
        """The previous active seat in turn order (whose turn came just before), whom
        squares 10 and 29 name; if nobody else is left, there is none and the table is told.
        """
        position = self.position
        for s in reversed(self._rings[seat]):
            if position[s] is not None:
                return s
        self.events.append(ev.NoNeighbour(seat))
        return None

    def master_of(self, seat: int) -> int | None:
        for master, friday in self.friday.items():
            if friday == seat:
                return master
        return None

    # -- money ----------------------------------------------------------------

    def pay_bank(self, seat: int, asked: int, why: ev.Why = _SQUARE) -> None:
        amount = asked if self.rules.debt else max(0, min(asked, self.chips[seat]))
        self.chips[seat] -= amount
        self.pot += amount
        self.events.append(_transfer(seat, None, asked, amount, why))
        friday = self.friday[seat]
        if why is _SQUARE and friday is not None:
            self.pay_bank(friday, 1, _FRIDAY)

    def collect_bank(self, seat: int, asked: int, why: ev.Why = _SQUARE) -> None:
        self.bank_pays(seat, asked, why)
        friday = self.friday[seat]
        if why is _SQUARE and friday is not None:
            self.bank_pays(friday, 1, _FRIDAY)

    def bank_pays(self, seat: int, asked: int, why: ev.Why = _SQUARE) -> None:
        """The pot pays ``seat`` what it can of ``asked``; no Friday rule."""
        amount = min(asked, self.pot)
        self.pot -= amount
        self.chips[seat] += amount
        self.events.append(_transfer(None, seat, asked, amount, why))

    def pay_player(self, payer: int, payee: int, asked: int) -> None:
        chips = self.chips
        amount = asked if self.rules.debt else max(0, min(asked, chips[payer]))
        chips[payer] -= amount
        chips[payee] += amount
        self.events.append(_transfer(payer, payee, asked, amount))

    # -- a turn ---------------------------------------------------------------

    def roll(self, seat: int, face: int) -> None:
        position = self.position
        start = position[seat]
        assert start is not None
        rolled, moved = _roll_events(seat, start, face)
        self.events = [rolled, moved]
        position[seat] = end = moved.end
        if start == GALLOWS and face == GALLOWS_FACE:
            self.eliminate(seat)
        elif (on_landing := _ON_LANDING[end]) is not None:  # self.land(), inlined: hot path
            on_landing(self, seat, BOARD[end])
        if self.pending is _ROLL:
            self.finish_turn(seat)

    def decide(self, seat: int, pending: Pending, choice: Choice) -> None:
        self.events = [ev.Decided(seat, choice, DECISION_SQUARE[pending])]
        self.pending = _ROLL
        if choice is Choice.JUMP or choice is Choice.RESTART:  # 23 -> 27, 4 -> start
            square = BOARD[DECISION_SQUARE[pending]]
            assert square.target is not None
            self.move(seat, square.target,
                      ev.Cause.JUMP if choice is Choice.JUMP else ev.Cause.SHIPWRECK)
        elif choice is CHOICES[pending][0]:  # roll on 7, again on 20: the same player rolls
            return
        self.finish_turn(seat)

    def move(self, seat: int, end: int, cause: ev.Cause) -> None:
        start = self.position[seat]
        assert start is not None
        self.position[seat] = end
        self.events.append(ev.Moved(seat, start, end, cause))

    def land(self, seat: int, number: int) -> None:
        """Resolve the square ``seat`` landed on."""
        on_landing = _ON_LANDING[number]
        if on_landing is not None:
            on_landing(self, seat, BOARD[number])

    # What each kind of square does; NONE, TREE (asked on later turns) and
    # GALLOWS (acts on leaving) do nothing on landing.

    def _everyone_pays(self, seat: int, square: Square) -> None:
        for s in [seat, *self.after(seat)]:
            self.pay_bank(s, square.amount)

    def _collect_bank(self, seat: int, square: Square) -> None:
        self.collect_bank(seat, square.amount)

    def _pay_bank(self, seat: int, square: Square) -> None:
        self.pay_bank(seat, square.amount)

    def _shipwreck(self, seat: int, square: Square) -> None:
        rule = self.rules.square_4
        if rule is Square4.BACK:
            assert square.target is not None
            self.move(seat, square.target, ev.Cause.SHIPWRECK)
        elif rule is Square4.ASK:
            self.pending = Pending.WRECK

    def _pay_neighbour(self, seat: int, square: Square) -> None:
        neighbour = self.right_neighbour(seat)
        if neighbour is not None:
            self.pay_player(seat, neighbour, square.amount)

    def _sit_out(self, seat: int, square: Square) -> None:
        self.sits_out[seat] = True
        self.events.append(ev.WillSitOut(seat))

    def _parrot(self, seat: int, square: Square) -> None:
        self.events.append(ev.Parrot(seat))

    def _roll_again(self, seat: int, square: Square) -> None:
        self.pending = Pending.AGAIN

    def _jump(self, seat: int, square: Square) -> None:
        self.pending = Pending.JUMP

    def _go_back(self, seat: int, square: Square) -> None:
        assert square.target is not None
        self.move(seat, square.target, ev.Cause.GO_BACK)
        if self.rules.chain_25_to_14:
            self.land(seat, square.target)

    def _friday(self, seat: int, square: Square) -> None:
        neighbour = self.right_neighbour(seat)
        if neighbour is not None:
            self.pay_player(neighbour, seat, square.amount)
            self.swear(seat, neighbour)

    def _collect_each(self, seat: int, square: Square) -> None:
        # The sheet says *they* collect: Robinson and his Friday fight side by side,
        # so the mover's own Friday neither pays nor collects (house rule square_32:
        # or both collect, each payer paying the mover first; or Friday pays too).
        friday, rule = self.friday[seat], self.rules.square_32
        for other in self.after(seat):
            if other != friday:
                self.pay_player(other, seat, square.amount)
                if rule is Square32.BOTH and friday is not None:
                    self.pay_player(other, friday, square.amount)
            elif rule is Square32.EVERYONE:
                self.pay_player(other, seat, square.amount)

    def _father(self, seat: int, square: Square) -> None:
        friday = self.friday[seat]
        if self.rules.square_33 is Square33.FRIDAY and friday is not None:
            self.bank_pays(friday, square.amount)  # Friday's own reward: no Friday rule on top
        else:
            self.collect_bank(seat, square.amount)

    def _swap(self, seat: int, square: Square) -> None:
        assert square.target is not None
        self.swap(seat, square.target)

    def _home(self, seat: int, square: Square) -> None:
        self.win(seat)

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
            self.events.append(_transfer(seat, None, chips, chips, ev.Why.DEAD_CHIPS))
        self.position[seat] = None
        self.sits_out[seat] = False
        if all(p is None for p in self.position.values()):
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
        self.pending = _OVER
        self.to_move = None

    def finish_turn(self, seat: int) -> None:
        """Pass play on, unless the game ended or the mover has a decision to make."""
        if self.pending is not _ROLL:
            return
        position, sits_out, rings = self.position, self.sits_out, self._rings
        current = seat
        while True:
            for following in rings[current]:
                if position[following] is not None:
                    break
            else:  # nobody else is left: the last one plays on (not over, so alive)
                following = current
                assert position[following] is not None
            if sits_out[following]:
                sits_out[following] = False
                self.events.append(ev.SatOut(following))
                current = following
                continue
            self.to_move = following
            if position[following] == TREE:
                self.pending = _TREE
            return


_ON_EFFECT: dict[Effect, Callable[[Play, int, Square], None]] = {
    Effect.EVERYONE_PAYS: Play._everyone_pays,
    Effect.COLLECT_BANK: Play._collect_bank,
    Effect.PAY_BANK: Play._pay_bank,
    Effect.SHIPWRECK: Play._shipwreck,
    Effect.PAY_NEIGHBOUR: Play._pay_neighbour,
    Effect.SIT_OUT: Play._sit_out,
    Effect.PARROT: Play._parrot,
    Effect.ROLL_AGAIN: Play._roll_again,
    Effect.JUMP: Play._jump,
    Effect.GO_BACK: Play._go_back,
    Effect.FRIDAY: Play._friday,
    Effect.COLLECT_EACH: Play._collect_each,
    Effect.FATHER: Play._father,
    Effect.SWAP: Play._swap,
    Effect.HOME: Play._home,
}
_ON_LANDING = tuple(_ON_EFFECT.get(square.effect) for square in BOARD)
"""``_ON_LANDING[n]``: what landing on square n does, or None."""


# Events are frozen values, so equal ones can be one object: the engine makes the
# common ones once and shares them (the simulator asks for millions; a frozen
# dataclass costs ~0.4 us to build, a cache hit ~0.1). The caches stay small:
# at most 8 seats x 46 squares x 6 faces rolls, and transfers between 9
# parties (the bank too) of the board's 1 to 4 chips or a dead player's chips.

@functools.cache
def _roll_events(seat: int, start: int, face: int) -> tuple[ev.Rolled, ev.Moved]:
    """A roll's first two events: the face, and the move it makes."""
    total = start + face
    end = 2 * HOME - total if total > HOME else total  # past home: back by the excess
    return ev.Rolled(seat, face), ev.Moved(seat, start, end, ev.Cause.ROLL, total > HOME)


@functools.cache
def _transfer(payer: int | None, payee: int | None, asked: int, amount: int,
              why: ev.Why = _SQUARE) -> ev.Transfer:
    return ev.Transfer(payer, payee, asked, amount, why)


@functools.lru_cache(maxsize=1024)
def ring(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """The other seats in turn order, starting after ``seat`` (its last is the seat on
    ``seat``'s right: whose turn came just before)."""
    i = seats.index(seat)
    return seats[i + 1:] + seats[:i]


def _name(action: Action) -> str:
    return f"a roll of {action.face}" if isinstance(action, Roll) else repr(action.value)
