"""Events in words: one line per event, in the table's language.

>>> from robinson_core import Game, Roll
>>> game = Game((1, 2)).play(Roll(3))
>>> [describe(e, "en") for e in game.events]
['Player 1 rolls 3', 'Player 1: start → 3', 'Player 1 collects 1 from the bank']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from . import events as ev
from .actions import CHOICES, Choice
from .board import BOARD, HOME, START
from .engine import ring
from .game import Game
from .house_rules import HouseRules, ShareWith
from .state import GameState, Player, Status
from .texts import Name, caption, instruction, ui

Names = Callable[[int], str]


def seat_names(lang: str, names: dict[int, str] | None = None) -> Names:
    """A seat's name from ``names``, else the language's default ("Player 3", "Igrač 3"):
    a ``Name``, which knows its cases ("igraču 3", "igraču Ana")."""
    given = names or {}
    made: dict[int, str] = {}  # a screen names a seat a dozen times: each made once

    def name(seat: int) -> str:
        if seat not in made:
            chosen = given.get(seat)
            made[seat] = (Name(chosen) if chosen
                          else Name(ui(lang, "seat", seat=seat), str(seat)))
        return made[seat]

    return name


CHOICE_KEYS = {
    Choice.ROLL: "choice_roll",
    Choice.AGAIN: "choice_again",
    Choice.PASS: "choice_pass",
    Choice.JUMP: "choice_jump",
    Choice.RESTART: "choice_restart",
}
"""A decision taken, by its text key (staying has one per square: ``STAY_KEYS``)."""
STAY_KEYS = {7: "choice_stay_tree", 23: "choice_stay_boat", 4: "choice_stay_wreck"}
OPTION_KEYS = {Choice.ROLL: "opt_roll", Choice.STAY: "opt_stay", Choice.AGAIN: "opt_again",
               Choice.PASS: "opt_pass", Choice.JUMP: "opt_jump", Choice.RESTART: "opt_restart"}
"""A decision's option, one word, by its text key: the panel's and the voice's tables
each word it under the same key."""
EXCHANGES = frozenset({"swap", "everyone_pays", "collect_bank", "pay_bank", "pay_neighbour",
                       "friday", "collect_each", "collect_each_both", "collect_each_everyone",
                       "father_friday"})
"""The squares' instructions (by text key) that order an exchange, of places or chips. A
result says the exchange made; where none was (nobody on 41, nobody left to collect
from, no chips to pay, an empty pot) the square's instruction is not true of that
landing, and neither the panel nor the voice says it."""
_MOVE_KEYS = {
    ev.Cause.SHIPWRECK: "move_shipwreck",
    ev.Cause.GO_BACK: "move_go_back",
    ev.Cause.JUMP: "move_jump",
}


def decided_key(event: ev.Decided) -> str:
    """The text key of a decision taken (the panel's and the voice's tables each word it)."""
    if event.choice is Choice.STAY:  # stay is an option on 4, in the tree (7), on 23
        return STAY_KEYS[event.square]
    return CHOICE_KEYS[event.choice]


def mover(events: Sequence[ev.Event]) -> int | None:
    """Who took the action these events came of: who rolled, decided, or sat out."""
    for event in events:
        if isinstance(event, ev.Rolled | ev.Decided | ev.SatOut):
            return event.seat
    return None


def nets(events: Sequence[ev.Event]) -> dict[int, int]:
    """Each seat's chips gained (+) or lost (−) by these events, in the order first met."""
    change: dict[int, int] = {}

    def add(seat: int | None, amount: int) -> None:
        if seat is not None:
            change[seat] = change.get(seat, 0) + amount

    for event in events:
        if isinstance(event, ev.Transfer):
            add(event.payer, -event.amount)
            add(event.payee, event.amount)
        elif isinstance(event, ev.Won):
            add(event.seat, event.pot)
        elif isinstance(event, ev.Shared):
            add(event.winner, -event.amount)
            add(event.partner, event.amount)
    return {seat: amount for seat, amount in change.items() if amount}


LEFT_OUT_SEEN, LEFT_OUT_HEARD = 2, 0
"""How many players still in the game "everyone paid alike" may leave out, named with
their 0: the screen names up to two ("…, Cid 0"); the ear none, for a listener cannot
see who was left out of "everyone"."""


def alike(change: dict[int, int], playing: Sequence[int],
          left_out: int) -> tuple[tuple[int, ...], int, list[int]] | None:
    """Whether every purse that lost lost the same, at least two of them, with at most
    two gains (32 under square_32 = both: the mover and the Friday): (who gained, what
    each paid, the players in the game who neither paid nor gained); None if not, or if
    more than ``left_out`` were left out."""
    gains = tuple(seat for seat, amount in change.items() if amount > 0)
    lost = {amount for amount in change.values() if amount < 0}
    out = [seat for seat in playing if seat not in change]
    if len(lost) == 1 and len(gains) <= 2 and len(out) <= left_out \
            and len(change) - len(gains) >= 2 and set(change) <= set(playing):
        return gains, -lost.pop(), out
    return None


def fridays_apart(events: Sequence[ev.Event], playing: Sequence[int],
                  left_out: int) -> tuple[int, list[int], list[ev.Transfer]] | None:
    """Where everyone paid the bank alike but a Friday paid again for their master (1 on
    square 1 with seven players: "Everyone −1 · Cid (Friday) −1", not a row for each of
    seven): what each paid, who was left out, and the Fridays' own payments. None
    where the square's payments alone are not alike, or no Friday paid on top.

    >>> paid = [ev.Transfer(s, None, 1, 1, ev.Why.SQUARE) for s in (1, 2, 3)]
    >>> fridays_apart([*paid, ev.Transfer(3, None, 1, 1, ev.Why.FRIDAY)], [1, 2, 3], 0)
    (1, [], [Transfer(payer=3, payee=None, asked=1, amount=1, why=<Why.FRIDAY: 'friday'>)])
    """
    fridays = [e for e in events if isinstance(e, ev.Transfer) and e.why is ev.Why.FRIDAY
               and e.amount]
    if not fridays or any(e.payer is None for e in fridays):
        return None
    square = [e for e in events if isinstance(e, MONEY) and e not in fridays]
    if not all(isinstance(e, ev.Transfer) and e.payee is None for e in square):
        return None
    same = alike(nets(square), playing, left_out)
    if same is None or same[0]:
        return None
    return same[1], same[2], fridays


MONEY = (ev.Won, ev.Transfer, ev.Shared)
"""The events that move chips: a win's pot, a payment, a share of the pot."""


def friday_masters(events: Sequence[ev.Event]) -> dict[int, int]:
    """Each Friday who paid or collected by the Friday rule in ``events``, and whose
    Friday: the player whose payment with the bank the Friday's follows."""
    found: dict[int, int] = {}
    master = None
    for event in events:
        if not isinstance(event, ev.Transfer):
            continue
        seat = event.payer if event.payer is not None else event.payee
        if event.why is ev.Why.SQUARE:
            master = seat
        elif event.why is ev.Why.FRIDAY and seat is not None and master is not None:
            found[seat] = master
    return found


def describe_each(events: Sequence[ev.Event], lang: str,
                  name: Names | None = None) -> list[str]:
    """``describe`` of each event, a Friday's payment saying whose Friday pays or collects
    ("Cid (Ana's Friday) collects 1": ``friday_masters``)."""
    masters = friday_masters(events)
    lines = []
    for event in events:
        friday = None
        if isinstance(event, ev.Transfer) and event.why is ev.Why.FRIDAY:
            friday = event.payer if event.payer is not None else event.payee
        lines.append(describe(event, lang, name, masters.get(friday or 0)))  # 0: no seat
    return lines


def describe(event: ev.Event, lang: str, name: Names | None = None,
             master: int | None = None) -> str:
    """One line saying what ``event`` was (a Friday's payment: whose Friday, if
    ``master`` is given)."""
    name = name or seat_names(lang)
    if isinstance(event, ev.Rolled):
        return ui(lang, "rolled", name=name(event.seat), face=event.face)
    if isinstance(event, ev.Moved):
        if event.cause in _MOVE_KEYS:
            return ui(lang, _MOVE_KEYS[event.cause], name=name(event.seat), end=event.end)
        key = "moved_bounce" if event.bounced else "moved"
        start = ui(lang, "start") if event.start == START else event.start  # never "0"
        return ui(lang, key, name=name(event.seat), start=start, end=event.end)
    if isinstance(event, ev.Transfer):
        return _transfer(event, lang, name, master)
    if isinstance(event, ev.Decided):
        return ui(lang, decided_key(event), name=name(event.seat))
    if isinstance(event, ev.WillSitOut):
        return ui(lang, "will_sit_out", name=name(event.seat))
    if isinstance(event, ev.SatOut):
        return ui(lang, "sat_out", name=name(event.seat))
    if isinstance(event, ev.Parrot):
        return ui(lang, "parrot")
    if isinstance(event, ev.NoNeighbour):
        return ui(lang, "no_neighbour")
    if isinstance(event, ev.FridaySworn):
        return ui(lang, "friday_sworn", name=name(event.master), friday=name(event.friday))
    if isinstance(event, ev.BondEnded):
        return ui(lang, "bond_ended", name=name(event.master), friday=name(event.friday))
    if isinstance(event, ev.Swapped):
        return ui(lang, "swapped", name=name(event.seat), other=name(event.other))
    if isinstance(event, ev.Eliminated):
        return ui(lang, "eliminated", name=name(event.seat))
    if isinstance(event, ev.Won):
        return ui(lang, "won", name=name(event.seat), pot=event.pot)
    if isinstance(event, ev.Shared):
        key = "shared_friday" if event.as_friday else "shared"
        return ui(lang, key, other=name(event.partner), amount=event.amount)
    return ui(lang, "no_winner", pot=event.pot)


def _transfer(event: ev.Transfer, lang: str, name: Names, master: int | None) -> str:
    short = event.amount < event.asked
    if event.why is ev.Why.DEAD_CHIPS:
        assert event.payer is not None
        return ui(lang, "dead_chips", name=name(event.payer), amount=event.amount)
    if event.why is ev.Why.FRIDAY:
        collects = event.payer is None
        friday = event.payee if collects else event.payer
        assert friday is not None
        if master is None:
            key = "friday_collects" if collects else "friday_pays"
            return ui(lang, key, name=name(friday), amount=event.amount)
        key = "friday_collects_for" if collects else "friday_pays_for"
        return ui(lang, key, name=name(friday), master=name(master), amount=event.amount)
    if event.payer is None:
        assert event.payee is not None
        key = "collects_bank_short" if short else "collects_bank"
        return ui(lang, key, name=name(event.payee), amount=event.amount, asked=event.asked)
    if event.payee is None:
        key = "pays_bank_short" if short else "pays_bank"
        return ui(lang, key, name=name(event.payer), amount=event.amount, asked=event.asked)
    key = "pays_player_short" if short else "pays_player"
    return ui(lang, key, name=name(event.payer), other=name(event.payee),
              amount=event.amount, asked=event.asked)


def account(game: Game, lang: str, name: Names | None = None) -> list[str]:
    """The whole game, action by action, then the standings: a readable transcript."""
    name = name or seat_names(lang)
    rules = game.rules
    start = game.history[0][0]
    lines = [ui(lang, "setup", players=len(game.seats), stake=rules.stake, pot=start.pot)]
    for number, (after, events) in enumerate(game.history[1:], start=1):
        lines.append(ui(lang, "turn", number=number))
        for event, line in zip(events, describe_each(events, lang, name), strict=True):
            if isinstance(event, ev.Shared):  # who gets the half, and why them
                line = ui(lang, shared_key(event, rules), other=name(event.partner),
                          amount=event.amount)
                if passed := passed_over(event, after, rules):  # past the hanged
                    line += "; " + ui(lang, "passed_over", dead=listed(lang, map(name, passed)))
            if isinstance(event, ev.Moved) and event.cause is ev.Cause.ROLL and event.end:
                told = [caption(lang, event.end), instruction(lang, event.end, rules)]
                line += "  (" + " — ".join(t for t in told if t) + ")"
            lines.append("  " + line)
    return lines + standings(game.state, lang, name)


def standings(state: GameState, lang: str, name: Names | None = None) -> list[str]:
    """Where everyone stands, the pot, and what the game waits for."""
    name = name or seat_names(lang)
    lines = [standing(p, lang, name) for p in state.players]
    lines.append(ui(lang, "pot", pot=state.pot))
    lines.append(waiting(state, lang, name))
    return lines


def standing(p: Player, lang: str, name: Names) -> str:
    """Where one player stands: the square (or start, or out), the chips, the Friday."""
    if p.position is None:
        line = ui(lang, "standing_out", name=name(p.seat), chips=p.chips)
    elif p.position == START:
        line = ui(lang, "standing_start", name=name(p.seat), chips=p.chips)
    else:
        line = ui(lang, "standing", name=name(p.seat), position=p.position, chips=p.chips)
    if p.friday is not None:
        line += ", " + ui(lang, "with_friday", friday=name(p.friday))
    return line


ASK_KEYS = {pending: f"ask_{pending.value}" for pending in CHOICES}
"""The text that asks each decision's question (the decisions: ``CHOICES``'s)."""


def waiting(state: GameState, lang: str, name: Names | None = None) -> str:
    """What the game waits for, or how it ended, in words."""
    name = name or seat_names(lang)
    if state.status is Status.WON:
        assert state.winner is not None
        return ui(lang, "game_over_won", name=name(state.winner))
    if state.status is Status.NO_WINNER:
        return ui(lang, "game_over_none")
    assert state.to_move is not None
    key = ASK_KEYS.get(state.pending, "to_roll")
    return ui(lang, key, name=name(state.to_move))


def rolled(events: Sequence[ev.Event]) -> ev.Moved | None:
    """The move the die made, if the action rolled: where the way begins."""
    return next((e for e in events if isinstance(e, ev.Moved) and e.cause is ev.Cause.ROLL),
                None)


def oath(events: Sequence[ev.Event]) -> tuple[ev.Transfer, ev.FridaySworn] | None:
    """Square 29's payment from the new Friday to the master, and the oath, if both."""
    sworn = next((e for e in events if isinstance(e, ev.FridaySworn)), None)
    if sworn is None:
        return None
    payment = next((e for e in events if isinstance(e, ev.Transfer)
                    and (e.payer, e.payee) == (sworn.friday, sworn.master)), None)
    return None if payment is None else (payment, sworn)


def way(events: Sequence[ev.Event], rolled: ev.Moved) -> list[int]:
    """The squares the token the roll moved went to, in turn, after its start: the far
    end it bounced from, where the die took it, and where that square sent it on (the
    reason a token is not where the die said).

    >>> from robinson_core import Game, Roll
    >>> game = Game((1, 2)).play(Roll(4))
    >>> way(game.events, next(e for e in game.events if isinstance(e, ev.Moved)))
    [4, 0]
    """
    later = events[events.index(rolled) + 1:]
    ends = [e.end for e in later if isinstance(e, ev.Moved) and e.seat == rolled.seat]
    ends += [BOARD[rolled.end].target or rolled.end for e in later
             if isinstance(e, ev.Swapped) and e.seat == rolled.seat]
    return [*([HOME] if rolled.bounced else []), rolled.end, *ends]


def shared_key(event: ev.Shared, rules: HouseRules, passed: Sequence[int] = ()) -> str:
    """The text key of a share-out: the Friday's third, or the half and why that player
    (on the right, on the left, the next furthest on: house rule ``share_with``), and
    for the voice, whether it went past the hanged (``passed``: ``passed_over``; the
    panel says them in a line of their own, "passed_over")."""
    if event.as_friday:
        return "shared_friday"
    return SHARED_PAST[rules.share_with] if passed else SHARED[rules.share_with]


def listed(lang: str, names: Iterable[str]) -> str:
    """Names in a row, as the panel lists them: "Ana, Ben"; "アナ、ベン"."""
    return ("、" if lang == "ja" else ", ").join(names)


def passed_over(event: ev.Shared, state: GameState, rules: HouseRules) -> list[int]:
    """The hanged a half to the right or the left went past, nearest the winner first: at
    the table they sit between the two, and "on the right" would name them.

    >>> from dataclasses import replace
    >>> from robinson_core import Game
    >>> from robinson_core.state import Player
    >>> won = replace(Game((1, 2, 3)).state, players=(
    ...     Player(1, 45, 10), Player(2, 9, 10), Player(3, None, 10)))
    >>> passed_over(ev.Shared(1, 2, 5, False), won, won.rules)  # 3 is on 1's right
    [3]
    """
    if event.as_friday or rules.share_with not in SHARED_PAST:
        return []
    others = ring(tuple(p.seat for p in state.players), event.winner)  # the left first
    if rules.share_with is ShareWith.RIGHT:
        others = others[::-1]
    between = others[:others.index(event.partner)]
    return [seat for seat in between if state.player(seat).position is None]


SHARED = {ShareWith.RIGHT: "shared_right", ShareWith.LEFT: "shared_left",
          ShareWith.RUNNER_UP: "shared_runner_up", ShareWith.NONE: "shared"}
"""Each rule's half, said with why that player (``none`` shares nothing: never said)."""
SHARED_PAST = {ShareWith.RIGHT: "shared_right_past", ShareWith.LEFT: "shared_left_past"}
"""The right's and the left's half that went past the hanged, said with their names."""
