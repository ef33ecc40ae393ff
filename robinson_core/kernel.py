"""The simulator's kernel: whole games played from a state with a seeded die, tallied as
they go, with no events and no objects per action.

Why a second reading of the rules beside ``engine.Play``: the table needs ``Play``'s
events (every line of the panel and the voice is one), and a simulation needs none of
them. Measured on one machine, ``robinson sim`` through ``Play`` ran 0.57-0.69x the
games per CPU-second of a plain, naive reading of the rules: a fifth of the time went to
making events the sim only scanned again, the rest to dict look-ups by seat, enum
hashing and one method call per square. Here the seats are list indexes, the moves a
precomputed table, the squares integer codes in one loop, and the tally is counted where
it happens. ``Play`` stays the law: a test plays tens of thousands of games (every house
rule, seatings, first seats, decisions taken both ways) through both and compares every
figure of their tallies.

A payment is written out where it happens (a call a payment costs what a square's
whole effect does here), each in one form: the payer short of what was asked (in every
mode: with debt it goes below zero, without it pays less) marks the game as one where
someone went broke, as the sim counts it.

The die is ``random() * 6``, as ``Random.choices`` picks: the same draws give the same
faces as the sim's ``Play`` loop, so the two tallies are equal figure for figure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .actions import Pending
from .board import BOARD, HOME, Effect
from .engine import GALLOWS, GALLOWS_FACE, TREE
from .house_rules import DeadChips, HouseRules, ShareWith, Square4, Square32, Square33
from .state import GameState

# What a square does on landing, as small integers (0: nothing), the commonest first:
# the loop tells them apart by comparisons, in this order. _BACK_TO_COLLECT is 25 when
# house rule chain_25_to_14 has 14 act too (``_codes``).
(_NOTHING, _BACK_TO_COLLECT, _COLLECT_BANK, _FATHER, _PAY_BANK, _EVERYONE_PAYS, _GO_BACK,
 _SHIPWRECK, _ROLL_AGAIN, _JUMP, _WRECK_ASK, _SIT_OUT, _PAY_NEIGHBOUR, _FRIDAY, _COLLECT_EACH,
 _SWAP, _HOME, _HANGED) = range(18)
HANGED = HOME + 1  # where a 6 from the gallows takes a token: a square past the board
_CODE_OF = {Effect.EVERYONE_PAYS: _EVERYONE_PAYS, Effect.COLLECT_BANK: _COLLECT_BANK,
            Effect.SHIPWRECK: _SHIPWRECK, Effect.PAY_BANK: _PAY_BANK,
            Effect.PAY_NEIGHBOUR: _PAY_NEIGHBOUR, Effect.SIT_OUT: _SIT_OUT,
            Effect.ROLL_AGAIN: _ROLL_AGAIN, Effect.JUMP: _JUMP, Effect.GO_BACK: _GO_BACK,
            Effect.FRIDAY: _FRIDAY, Effect.COLLECT_EACH: _COLLECT_EACH,
            Effect.FATHER: _FATHER, Effect.SWAP: _SWAP, Effect.HOME: _HOME}
CODE = (*(_CODE_OF.get(square.effect, _NOTHING) for square in BOARD), _HANGED)
AMOUNT = (*(square.amount for square in BOARD), 0)
TARGET = tuple(-1 if square.target is None else square.target for square in BOARD)
MOVE = tuple(tuple(HANGED if (start, face) == (GALLOWS, GALLOWS_FACE) else
                   2 * HOME - start - face if start + face > HOME else start + face
                   for face in range(1, 7)) for start in range(HOME + 1))
"""``MOVE[start][face - 1]``: where a roll of ``face`` from ``start`` ends (back from
home by the excess), or HANGED."""

# What the game waits for, as small integers.
ROLL, TREE_ASK, AGAIN_ASK, JUMP_ASK, WRECK_ASK, OVER = range(6)
_PENDING = {Pending.ROLL: ROLL, Pending.TREE: TREE_ASK, Pending.AGAIN: AGAIN_ASK,
            Pending.JUMP: JUMP_ASK, Pending.WRECK: WRECK_ASK, Pending.OVER: OVER}
_DECISIONS = (TREE_ASK, AGAIN_ASK, JUMP_ASK, WRECK_ASK)
_DEAD, _NONE = -1, -1  # a position once eliminated; no Friday


def _codes(rules: HouseRules) -> tuple[int, ...]:
    """``CODE`` with the house rules that change what a square does compiled in."""
    codes = list(CODE)
    if rules.square_4 is Square4.STAY:
        codes[4] = _NOTHING
    elif rules.square_4 is Square4.ASK:
        codes[4] = _WRECK_ASK
    if rules.chain_25_to_14:
        assert CODE[TARGET[25]] == _COLLECT_BANK  # the board's 14: the loop counts on it
        codes[25] = _BACK_TO_COLLECT
    return tuple(codes)


@dataclass
class Tally:
    """What games came to; tallies add up. Every figure is a count (a histogram where a
    distribution is wanted), so a tally's size does not grow with the games."""

    games: int = 0
    rolls: Counter[int] = field(default_factory=Counter)  # rolls in a game -> games
    winners: Counter[int] = field(default_factory=Counter)  # by seat
    winner_order: Counter[int] = field(default_factory=Counter)  # 0 = the first to roll
    no_winner: int = 0
    eliminations: int = 0
    games_with_death: int = 0
    fridays: int = 0
    pots: Counter[int] = field(default_factory=Counter)  # the pot at the win -> games
    chips: dict[int, Counter[int]] = field(default_factory=dict)  # by seat: final chips
    broke: int = 0  # games where someone could not pay in full (or went below zero)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.rolls += other.rolls
        self.winners += other.winners
        self.winner_order += other.winner_order
        self.no_winner += other.no_winner
        self.eliminations += other.eliminations
        self.games_with_death += other.games_with_death
        self.fridays += other.fridays
        self.pots += other.pots
        for seat, values in other.chips.items():
            self.chips.setdefault(seat, Counter()).update(values)
        self.broke += other.broke


ROLLOUTS = 2000  # games played out per option of a decision: a chance to within ~1 %
FIRST, SECOND, COIN = 0, 1, 2  # how a decision is taken: a short press, a long one, or
# either with a chance of one half (``random() < 0.5``: the first)


def play(state: GameState, games: int, random: Callable[[], float], tally: Tally,
         option: int = FIRST, later: int = FIRST) -> None:
    """Play ``games`` games on from ``state`` into ``tally``: the decision ``state`` waits
    for, if any, taken by ``option``, every later one by ``later``. The winner order
    counts from the seat to move in ``state``."""
    rules = state.rules
    seats = state.seats
    n = len(seats)
    rings = tuple(tuple((i + k) % n for k in range(1, n)) for i in range(n))
    backs = tuple(ring[::-1] for ring in rings)
    debt = rules.debt
    dead_to_pot = rules.dead_chips is DeadChips.POT
    share_with = rules.share_with
    both_32 = rules.square_32 is Square32.BOTH
    everyone_32 = rules.square_32 is Square32.EVERYONE
    friday_33 = rules.square_33 is Square33.FRIDAY
    index = {seat: i for i, seat in enumerate(seats)}
    pos0 = [_DEAD if p.position is None else p.position for p in state.players]
    chips0 = [p.chips for p in state.players]
    fri0 = [_NONE if p.friday is None else index[p.friday] for p in state.players]
    sits0 = [p.sits_out for p in state.players]
    nxt0 = [next((s for s in rings[i] if pos0[s] != _DEAD), i) for i in range(n)]
    pending0 = _PENDING[state.pending]
    mover0 = 0 if state.to_move is None else index[state.to_move]
    order = {(mover0 + k) % n: k for k in range(n)}
    move, code_of, amount_of = MOVE, _codes(rules), AMOUNT
    go_back_to, jump_to, swap_with = TARGET[25], TARGET[23], TARGET[36]
    counted_rolls, winners, winner_order, pots = (tally.rolls, tally.winners,
                                                  tally.winner_order, tally.pots)
    final = [tally.chips.setdefault(seat, Counter()) for seat in seats]
    pot0 = state.pot
    decide0 = option if pending0 in _DECISIONS else later
    no_winner = eliminations = games_with_death = fridays = went_broke = 0
    for _ in range(games):
        pos, chips, fri, sits, nxt = pos0[:], chips0[:], fri0[:], sits0[:], nxt0[:]
        pot, mover, pending, decide = pot0, mover0, pending0, decide0
        rolls = deaths = 0
        broke = False
        while True:
            if pending == ROLL:
                face = int(random() * 6)  # the face less one
                rolls += 1
                end = pos[mover] = move[pos[mover]][face]
                if code := code_of[end]:
                    if code <= _FATHER:  # the bank pays (the mover's Friday 1 more)
                        if code == _BACK_TO_COLLECT:
                            end = pos[mover] = go_back_to
                        amount = amount_of[end]
                        friday = fri[mover]
                        if code == _FATHER and friday_33 and friday != _NONE:
                            paid = amount if pot >= amount else pot
                            pot -= paid
                            chips[friday] += paid
                        else:
                            paid = amount if pot >= amount else pot
                            pot -= paid
                            chips[mover] += paid
                            if friday != _NONE and pot:
                                pot -= 1
                                chips[friday] += 1
                    elif code <= _EVERYONE_PAYS:  # into the pot (each one's Friday 1 more)
                        amount = amount_of[end]
                        for payer in ((mover,) if code == _PAY_BANK else
                                      (mover, *[s for s in rings[mover] if pos[s] != _DEAD])):
                            have = chips[payer]
                            broke = broke or have < amount
                            paid = amount if debt or have >= amount else max(have, 0)
                            chips[payer] = have - paid
                            pot += paid
                            friday = fri[payer]
                            if friday != _NONE:
                                have = chips[friday]
                                broke = broke or have < 1
                                paid = 1 if debt or have >= 1 else max(have, 0)
                                chips[friday] = have - paid
                                pot += paid
                    elif code == _GO_BACK:
                        pos[mover] = go_back_to
                    elif code == _SHIPWRECK:
                        pos[mover] = 0
                    elif code == _ROLL_AGAIN:
                        pending = AGAIN_ASK
                        continue
                    elif code == _JUMP:
                        pending = JUMP_ASK
                        continue
                    elif code == _WRECK_ASK:
                        pending = WRECK_ASK
                        continue
                    elif code == _SIT_OUT:
                        sits[mover] = True
                    elif code in (_PAY_NEIGHBOUR, _FRIDAY):
                        for neighbour in backs[mover]:
                            if pos[neighbour] != _DEAD:
                                break
                        else:
                            neighbour = _NONE
                        if neighbour != _NONE:
                            payer, payee = ((mover, neighbour) if code == _PAY_NEIGHBOUR
                                            else (neighbour, mover))
                            amount, have = amount_of[end], chips[payer]
                            broke = broke or have < amount
                            paid = amount if debt or have >= amount else max(have, 0)
                            chips[payer] -= paid
                            chips[payee] += paid
                            if code == _FRIDAY and fri[mover] != neighbour:
                                for master in range(n):
                                    if fri[master] == neighbour:
                                        fri[master] = _NONE
                                fri[mover] = neighbour
                                fridays += 1
                    elif code == _COLLECT_EACH:
                        friday = fri[mover]
                        amount = amount_of[end]
                        for other in rings[mover]:
                            if pos[other] == _DEAD:
                                continue
                            if other != friday:
                                takers = ((mover, friday) if both_32 and friday != _NONE
                                          else (mover,))
                            elif everyone_32:
                                takers = (mover,)
                            else:
                                continue
                            for taker in takers:
                                have = chips[other]
                                broke = broke or have < amount
                                paid = amount if debt or have >= amount else max(have, 0)
                                chips[other] -= paid
                                chips[taker] += paid
                    elif code == _SWAP:
                        for other in rings[mover]:
                            if pos[other] == swap_with:
                                pos[mover], pos[other] = swap_with, end
                                break
                    elif code == _HOME:
                        won = pot
                        chips[mover] += pot
                        pot = 0
                        winners[seats[mover]] += 1
                        winner_order[order[mover]] += 1
                        pots[won] += 1
                        partner = fri[mover]
                        if partner != _NONE:
                            share = won // 3
                        else:
                            share = won // 2
                            others = [s for s in rings[mover] if pos[s] != _DEAD]
                            if not others or share_with is ShareWith.NONE:
                                partner = _NONE
                            elif share_with is ShareWith.RIGHT:
                                partner = others[-1]
                            elif share_with is ShareWith.LEFT:
                                partner = others[0]
                            else:  # the runner-up: the first of equals in turn order
                                partner = max(others, key=pos.__getitem__)
                        if partner != _NONE:
                            chips[mover] -= share
                            chips[partner] += share
                        break
                    else:  # hanged: a 6 rolled from the gallows
                        deaths += 1
                        fri[mover] = _NONE
                        for master in range(n):
                            if fri[master] == mover:
                                fri[master] = _NONE
                        if dead_to_pot and chips[mover] > 0:
                            pot += chips[mover]
                            chips[mover] = 0
                        pos[mover] = _DEAD
                        sits[mover] = False
                        if max(pos) == _DEAD:
                            no_winner += 1
                            break
                        for i in range(n):  # who follows whom, past the dead
                            nxt[i] = next((s for s in rings[i] if pos[s] != _DEAD), i)
            elif pending == OVER:
                break
            else:  # a decision
                asked, pending = pending, ROLL
                first = random() < 0.5 if decide == COIN else decide == FIRST
                decide = later
                if first:
                    if asked == JUMP_ASK:
                        pos[mover] = jump_to
                    elif asked == WRECK_ASK:
                        pos[mover] = 0
                    else:
                        continue  # roll on 7, roll again on 20: the same player rolls
            # The turn passes on: past the dead, past one who sits out (once).
            following = nxt[mover]
            while sits[following]:
                sits[following] = False
                following = nxt[following]
            mover = following
            if pos[following] == TREE:
                pending = TREE_ASK
        counted_rolls[rolls] += 1
        if deaths:
            eliminations += deaths
            games_with_death += 1
        if broke:
            went_broke += 1
        for i in range(n):
            final[i][chips[i]] += 1
    tally.games += games
    tally.no_winner += no_winner
    tally.eliminations += eliminations
    tally.games_with_death += games_with_death
    tally.fridays += fridays
    tally.broke += went_broke


@dataclass(frozen=True)
class Chance:
    """An option's estimated chance to win for the player deciding, from rollouts."""

    win: float  # the share of rollouts the decider won
    error: float  # its standard error: sqrt(p (1 - p) / n)
    rollouts: int


def odds(state: GameState, rollouts: int, random: Callable[[], float]) -> tuple[Chance, Chance]:
    """Each option of the decision ``state`` waits for (first, then second: as
    ``actions.CHOICES`` lists them), played out ``rollouts`` times from here with the die
    of ``random`` and every later decision taken with its first option: the deciding
    player's chance to win. Raises ValueError if ``state`` waits for no decision."""
    if _PENDING[state.pending] not in _DECISIONS:
        raise ValueError("no decision to weigh: the game waits for a roll, or is over")
    decider = state.to_move
    assert decider is not None
    found = []
    for option in (FIRST, SECOND):
        tally = Tally()
        play(state, rollouts, random, tally, option=option)
        win = tally.winners[decider] / rollouts
        found.append(Chance(win, (win * (1 - win) / rollouts) ** 0.5, rollouts))
    return found[0], found[1]
