"""What the banker says at each moment, in the table's language: the text given to the
synthesizer. Pure: a game and the names in, one string out.

After a result, the essentials of the screen's first page, in the order a player
needs them: who and the square their token goes to; the money (one payment as
the screen words it, several as each purse's change, alike ones said once); the
pot; what changes the next turns (a turn missed, a Friday, a death, a swap); the
square's story if the storyteller is on; and what happens next (whose turn, or who
decides and what each press does).

``Spoken(lang, given)`` is the voice's counterpart of the panel's ``Words``: the
language and the names chosen, and each moment's sentence from them.

>>> from robinson_core import Game, Roll
>>> game = Game((1, 2)).play(Roll(3))
>>> Spoken("en", {1: "Ana", 2: "Ben"}).result(game)
'Ana, square 3. Take 1 chip.'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence

from firmware.speech.words import spoken, story
from robinson_core import CHOICES, Choice, Game, GameState, Pending, Status, narrate
from robinson_core import events as ev
from robinson_core.engine import ring
from robinson_core.narrate import seat_names
from robinson_core.texts import instruction_key, ui

Names = Callable[[int], str]

SQUARE_SAYS = ("roll_again", "gallows", "shipwreck", "shipwreck_off")
"""The squares' instructions worth saying when nothing else was, and short: a warning
(20's five, 42's six) or why a token went where it did ("Ana, start" would not say
why). The others are payments, said as such, or a decision, whose options the next
sentence says (the tree's, the canoe's)."""


def speakable(name: str, lang: str) -> bool:
    """Whether ``lang``'s voice can say ``name``: espeak-ng's Japanese voice reads kana
    and Latin letters but not kanji; the other voices read no Japanese or Chinese
    script at all (they would say "Chinese letter" for each). Hangul every voice
    hands to espeak-ng's Korean (``espeak-ng -x``: "(ko)h'anna"), so a Korean name is
    said as itself."""
    for char in name:
        script = unicodedata.name(char, "").split(" ")[0]
        if script == "CJK" or (lang != "ja" and script in ("HIRAGANA", "KATAKANA",
                                                         "HALFWIDTH", "FULLWIDTH")):
            return False
    return True


def voice_names(lang: str, given: Mapping[int, str]) -> Names:
    """Each seat's name as spoken: the chosen one where the voice can say it, else the
    seat's default ("Player 3", "プレイヤー3")."""
    return seat_names(lang, {seat: name for seat, name in given.items()
                             if speakable(name, lang)})


class Spoken:
    """The voice's language and the seats' names: each method is one moment's sentence."""

    def __init__(self, lang: str, given: Mapping[int, str] | None = None) -> None:
        self.lang = lang
        self.given = dict(given or {})  # the names chosen (kept ones, then the config's)
        self.name = voice_names(lang, self.given)

    def __call__(self, key: str, **values: object) -> str:
        return spoken(self.lang, key, **values)

    def result(self, game: Game, storyteller: bool = False) -> str:
        """What the last action did, and what comes next."""
        name = self.name
        state, events = game.state, game.events
        seat = narrate.mover(events)
        if seat is None:
            return self.turn(state)
        square = state.player(seat).position
        if square is None:  # hanged: where the token was when it left the board, not start
            # (a hanging is a roll from 42: its events always move the mover)
            square = next(e.end for e in events if isinstance(e, ev.Moved) and e.seat == seat)
        landed = narrate.rolled(events)
        way = narrate.way(events, landed)[int(landed.bounced):] if landed is not None else []
        swapped = any(isinstance(e, ev.Swapped) for e in events)
        if len(way) > 1 and square and not swapped:  # a square sent the token on: "Cy,
            # square 25, then 14." (not a bounce, heard often and long; nor a swap or a
            # shipwreck's start: what is said of them says why)
            said = [self("where_via", name=name(seat), n=square,
                         via=self("comma").join(self._square(s) for s in way[:-1]))]
        elif state.status is Status.WON:  # "Ville wins": home says where, and whose
            said = []
        else:
            said = [self("where", name=name(seat), square=self._square(square))]
        said += [self(narrate.decided_key(e))  # the mover's: their name was just said
                 for e in events if isinstance(e, ev.Decided)]
        paid = [e for e in events if isinstance(e, ev.Transfer) and e.amount]
        oath = narrate.oath(events)  # 29, to the mover: the 2 and the oath, one sentence
        if oath is not None and (oath[1].master != seat or paid != [oath[0]]):
            oath = None
        money = [] if oath else self.money(events, state, seat)
        changes = [self("friday_oath", friday=name(oath[1].friday),
                        amount=oath[0].amount)] if oath else []
        changes += [line for e in events if not isinstance(e, ev.SatOut)
                    and not (oath and isinstance(e, ev.FridaySworn))
                    and (line := self._change(e, seat))]
        sat_out = [name(e.seat) for e in events if isinstance(e, ev.SatOut)]  # the last
        if len(sat_out) > 1:  # events of a turn: several who sit out in a row, said once
            changes.append(self("sat_out_many", names=self.listed(sat_out)))
        elif sat_out:
            changes.append(self("sat_out", name=sat_out[0]))
        if any(isinstance(e, ev.Eliminated | ev.NoWinner) for e in events):  # the death
            said += changes + money  # first (and that nobody is left), then the chips
        else:
            said += money + changes
        dead = any(isinstance(e, ev.Eliminated) for e in events)
        moneyed = any(isinstance(e, ev.Transfer | ev.Won | ev.NoWinner) for e in events)
        if landed is not None and not dead and not changes and not moneyed:
            key = instruction_key(landed.end, game.rules)
            if key in SQUARE_SAYS and not (key == "roll_again"
                                           and state.pending is Pending.AGAIN):
                said.append(self(key))  # 20's five: on the panel beside the options,
                # which the voice says (both made 5 to 6 s, the longest result there was)
        if storyteller and landed is not None and landed.end:
            said.append(story(self.lang, landed.end))
        skipped = {e.seat for e in events if isinstance(e, ev.SatOut)}
        if state.status is Status.PLAYING and (
                state.pending is not Pending.ROLL
                or state.to_move != _next_in_turn(state, seat, skipped)):
            said.append(self.next(state, seat))  # not the order heard: a decision, a skip
        return " ".join(line for line in said if line)  # not said, a roll again

    def next(self, state: GameState, mover: int) -> str:
        """After a result, what comes next: the mover's own decision's options (their name
        was just said), that another player decides (their options are said with their
        screen, a press later: chained here they made results of 10 s), or whose turn."""
        if state.pending is Pending.ROLL and state.to_move == mover:
            return ""  # the mover rolls on (7's roll, 20's again): nothing to tell
        if state.pending is Pending.ROLL or state.to_move is None:
            return self.turn(state)
        if state.to_move != mover:
            return self("decides", name=self.name(state.to_move))
        short, long = CHOICES[state.pending]
        return self("decide_own", short=self._option(short), long=self._option(long))

    def _square(self, square: int) -> str:
        return self("start") if square == 0 else self("square", n=square)

    def money(self, events: Sequence[ev.Event], state: GameState, mover: int) -> list[str]:
        """The money of one action: a win and its shares, or one payment as the screen
        says it, or each purse's change (everyone alike said once)."""
        name = self.name
        won = next((e for e in events if isinstance(e, ev.Won)), None)
        if won is not None:
            said = [self("won", name=name(won.seat), pot=won.pot)]
            for e in events:
                if isinstance(e, ev.Shared) and e.amount:
                    passed = narrate.passed_over(e, state, state.rules)
                    said.append(self(narrate.shared_key(e, state.rules, passed),
                                     other=name(e.partner), amount=e.amount,
                                     dead=self.listed([name(seat) for seat in passed])))
            return said
        lost = next((e for e in events if isinstance(e, ev.NoWinner)), None)
        paid = [e for e in events if isinstance(e, ev.Transfer) and e.amount]
        if lost is not None:  # the last one hanged: their chips into the pot that stays
            return [*(self._payment(e, mover) for e in paid if e.why is ev.Why.DEAD_CHIPS),
                    self("no_winner", pot=lost.pot)]
        if not paid:
            return []
        if len(paid) == 1:
            said = [self._payment(paid[0], mover)]
            if paid[0].payer is None and paid[0].amount < paid[0].asked:
                said.append(self("bank_empty"))
        else:
            said = self._changes(paid, state, mover)
        return said  # the pot is on the panel: said, it made every payment a second longer

    def _payment(self, event: ev.Transfer, mover: int) -> str:
        """One payment, said to the mover ("Pay the bank 3") or about another player; a
        hanged player's chips as going into the pot, not as a fine."""
        if event.why is ev.Why.DEAD_CHIPS:
            assert event.payer is not None
            return self("dead_chips", name=self.name(event.payer), amount=event.amount)
        if event.payer is None:
            key, seat = "collect_bank", event.payee
        elif event.payee is None:
            key, seat = "pay_bank", event.payer
        else:
            key, seat = "pay_player", event.payer
        if seat != mover:
            key = "pay_you" if key == "pay_player" and event.payee == mover else key + "_other"
        assert seat is not None
        other = self.name(event.payee) if event.payee is not None else ""
        return self(key, name=self.name(seat), other=other, amount=event.amount)

    def _changes(self, paid: Sequence[ev.Transfer], state: GameState,
                 mover: int) -> list[str]:
        """Each purse's change, gains first; "everyone pays 1" when every player in the
        game but one winner (or none) lost the same (none left out: the ear cannot see
        who was), and "everyone pays you 1" when that winner is the mover (whose name
        was just said: the gain is theirs, and not said twice)."""
        change = narrate.nets(paid)
        playing = [p.seat for p in state.players if p.position is not None]
        if (same := narrate.alike(change, playing, narrate.LEFT_OUT_HEARD)) is not None:
            gained, amount, _ = same
            if not gained:
                return [self("everyone_pays", amount=amount)]
            if gained == (mover,):
                return [self("others_pay_own", amount=amount)]
            if len(gained) == 1:
                return [self("others_pay", name=self.name(gained[0]), gain=change[gained[0]],
                             amount=amount)]
            one, other = gained
            if change[one] == change[other]:  # 32, square_32 = both: the mover and Friday
                return [self("others_pay_two", name=self.name(one), other=self.name(other),
                             gain=change[one], amount=amount)]
        if (apart := narrate.fridays_apart(paid, playing, narrate.LEFT_OUT_HEARD)) is not None:
            each, _, fridays = apart  # square 1: everyone, and a Friday again for the master
            return [self("everyone_pays", amount=each),
                    *(self("friday_pays_more_own" if e.payer == mover else "friday_pays_more",
                           name=self.name(e.payer), amount=e.amount)
                      for e in fridays if e.payer is not None)]
        gains = [seat for seat, amount in change.items() if amount > 0]
        losers = [seat for seat, amount in change.items() if amount < 0]
        return ([self("gets_own" if seat == mover else "gets", name=self.name(seat),
                      amount=change[seat]) for seat in gains]
                + [self("pays_own" if seat == mover else "pays", name=self.name(seat),
                        amount=-change[seat]) for seat in losers])

    def _change(self, event: ev.Event, mover: int) -> str:
        """What changes the next turns, or "" if ``event`` changes none."""
        name = self.name
        match event:
            case ev.Eliminated(seat):
                return self("hanged", name=name(seat))
            case ev.WillSitOut(seat):
                return (self("will_sit_out_own") if seat == mover
                        else self("will_sit_out", name=name(seat)))
            case ev.FridaySworn(master, friday):
                return self("friday_sworn", name=name(master), friday=name(friday))
            case ev.BondEnded(master, friday, _):
                return self("bond_ended", name=name(master), friday=name(friday))
            case ev.Swapped(seat, other):
                return self("swapped", name=name(seat), other=name(other))
            case ev.Parrot():
                return self("parrot")
            case ev.NoNeighbour():
                return self("no_neighbour")
        return ""

    def turn(self, state: GameState) -> str:
        """What comes next: who decides and what each press does, or whose turn it is."""
        if state.status is not Status.PLAYING or state.to_move is None:
            return ""
        if state.pending is Pending.ROLL:
            return self("turn", name=self.name(state.to_move))
        short, long = CHOICES[state.pending]
        return self("decide", name=self.name(state.to_move), short=self._option(short),
                    long=self._option(long))

    def odds(self, state: GameState, win: tuple[int, int]) -> str:
        """A decision's chances to win, option by option: "Chance to win: roll, 41
        percent; stay, 38 percent."."""
        short, long = CHOICES[state.pending]
        return self("odds", short=self._option(short), a=win[0], long=self._option(long),
                    b=win[1])

    def _option(self, choice: Choice) -> str:
        return ui(self.lang, narrate.OPTION_KEYS[choice])  # the panel's word, one home

    def listed(self, names: Sequence[str]) -> str:
        """"Ana, Ben and Cid"."""
        if len(names) < 2:
            return "".join(names)
        return self("comma").join(names[:-1]) + self("and") + names[-1]

    def setup(self, seats: Sequence[int], first: int | None, ready: bool) -> str:
        """Who plays and who starts, and how to begin (``ready``: enough seats are on)."""
        if not ready or first is None:
            return self("setup_need")
        return self("setup", first=self.name(first))  # who plays: on the panel (said,
        # the names made it 6 to 8 s, and the count still 4.6 s in Finnish)

    def resumed(self, game: Game) -> str:
        """A game taken up again: who plays, and whose turn it is (or how it ended)."""
        state = game.state
        playing = [self.name(p.seat) for p in state.players if p.position is not None]
        key = "resume" if len(playing) > 1 else "resume_one" if playing else "resume_none"
        said = [self(key, names=self.listed(playing))]
        if state.status is Status.PLAYING:
            said.append(self.turn(state))
        else:
            said.append(self.result(game))
        return " ".join(said)

    def begun(self, game: Game) -> str:
        """A new game: it begins, and whose turn it is."""
        return self("begin") + " " + self.turn(game.state)

    def switched(self, key: str) -> str:
        """A setting changed in the menu: "Voice on.", "Storyteller off."."""
        return self(key)


def _next_in_turn(state: GameState, seat: int, skipped: set[int]) -> int | None:
    """The seat after ``seat`` in the table's order among those still in the game, past
    those just said to miss this turn (``skipped``): whose roll it is if nobody else
    misses a turn or rolls again (the voice need not say it: "Eve misses this turn."
    says Ann is next)."""
    seats = tuple(p.seat for p in state.players if p.position is not None or p.seat == seat)
    return next((other for other in ring(seats, seat) if other not in skipped), None)


