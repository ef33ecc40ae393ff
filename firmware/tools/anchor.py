"""The bench's anchor for the simulator: the rules read plainly, as a newcomer would
write them (a class per player, a method per kind of square, the seats looked up by
number), with no thought for speed and none against it.

Why an anchor: games per second on a shared machine say more about the machine than
about the kernel. The bench plays the same games through this and through the kernel,
in interleaved pairs, and gives the ratio of their CPU times; a test keeps this reading
honest (its tally equal to the kernel's and to ``Play``'s, game for game). It plays
from the start with the first option of every decision, as ``robinson sim`` does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from robinson_core import DeadChips, HouseRules, ShareWith, Square4, Square32, Square33
from robinson_core.kernel import Tally


class Player:
    """A seat at the table, as it plays."""

    def __init__(self, seat: int, chips: int) -> None:
        self.seat = seat
        self.position = 0
        self.chips = chips
        self.alive = True
        self.friday: Player | None = None
        self.sits_out = False


class Game:
    """One game from the start: the players, the pot, whose turn, what is asked."""

    def __init__(self, seats: tuple[int, ...], first: int, rules: HouseRules) -> None:
        self.rules = rules
        self.players = [Player(seat, rules.purse - rules.stake) for seat in sorted(seats)]
        self.pot = rules.stake * len(seats)
        self.mover = self.by_seat(first)
        self.waiting = "roll"
        self.over = False
        self.winner: Player | None = None
        self.broke = False
        self.deaths = 0
        self.fridays = 0
        self.pot_won = 0

    def by_seat(self, seat: int) -> Player:
        for player in self.players:
            if player.seat == seat:
                return player
        raise KeyError(seat)

    def others_after(self, player: Player) -> list[Player]:
        i = self.players.index(player)
        ring = self.players[i + 1:] + self.players[:i]
        return [p for p in ring if p.alive]

    def right_neighbour(self, player: Player) -> Player | None:
        others = self.others_after(player)
        return others[-1] if others else None

    def pay(self, payer: Player, payee: Player | None, asked: int) -> None:
        """``payee`` None: the bank."""
        amount = asked if self.rules.debt else max(0, min(asked, payer.chips))
        payer.chips -= amount
        if payee is None:
            self.pot += amount
        else:
            payee.chips += amount
        if amount < asked or payer.chips < 0:
            self.broke = True

    def bank_pays(self, payee: Player, asked: int) -> None:
        amount = min(asked, self.pot)
        self.pot -= amount
        payee.chips += amount

    def pay_bank(self, payer: Player, asked: int) -> None:
        self.pay(payer, None, asked)
        if payer.friday is not None:  # Friday pays 1 beside his master
            self.pay(payer.friday, None, 1)

    def collect_bank(self, payee: Player, asked: int) -> None:
        self.bank_pays(payee, asked)
        if payee.friday is not None:
            self.bank_pays(payee.friday, 1)

    def roll(self, face: int) -> None:
        player = self.mover
        start = player.position
        end = start + face
        if end > 45:
            end = 90 - end
        player.position = end
        if start == 42 and face == 6:
            self.eliminate(player)
        else:
            self.land(player, end)
        if self.waiting == "roll" and not self.over:
            self.next_turn(player)

    def land(self, player: Player, square: int) -> None:
        if square == 1:
            for payer in [player, *self.others_after(player)]:
                self.pay_bank(payer, 1)
        elif square in (3, 11):
            self.collect_bank(player, 1)
        elif square == 14:
            self.collect_bank(player, 2)
        elif square in (18, 40):
            self.collect_bank(player, 4)
        elif square == 4:
            if self.rules.square_4 is Square4.BACK:
                player.position = 0
            elif self.rules.square_4 is Square4.ASK:
                self.waiting = "wreck"
        elif square in (8, 26):
            self.pay_bank(player, 3)
        elif square == 15:
            self.pay_bank(player, 2)
        elif square == 10:
            neighbour = self.right_neighbour(player)
            if neighbour is not None:
                self.pay(player, neighbour, 2)
        elif square == 12:
            player.sits_out = True
        elif square == 20:
            self.waiting = "again"
        elif square == 23:
            self.waiting = "jump"
        elif square == 25:
            player.position = 14
            if self.rules.chain_25_to_14:
                self.land(player, 14)
        elif square == 29:
            neighbour = self.right_neighbour(player)
            if neighbour is not None:
                self.pay(neighbour, player, 2)
                self.swear(player, neighbour)
        elif square == 32:
            self.collect_each(player)
        elif square == 33:
            if self.rules.square_33 is Square33.FRIDAY and player.friday is not None:
                self.bank_pays(player.friday, 3)
            else:
                self.collect_bank(player, 3)
        elif square == 36:
            for other in self.others_after(player):
                if other.position == 41:
                    other.position, player.position = player.position, 41
                    break
        elif square == 45:
            self.win(player)

    def collect_each(self, player: Player) -> None:
        rule = self.rules.square_32
        for other in self.others_after(player):
            if other is not player.friday:
                self.pay(other, player, 1)
                if rule is Square32.BOTH and player.friday is not None:
                    self.pay(other, player.friday, 1)
            elif rule is Square32.EVERYONE:
                self.pay(other, player, 1)

    def swear(self, master: Player, friday: Player) -> None:
        if master.friday is friday:
            return
        for p in self.players:
            if p.friday is friday:
                p.friday = None
        master.friday = friday
        self.fridays += 1

    def eliminate(self, player: Player) -> None:
        self.deaths += 1
        player.friday = None
        for p in self.players:
            if p.friday is player:
                p.friday = None
        if self.rules.dead_chips is DeadChips.POT and player.chips > 0:
            self.pot += player.chips
            player.chips = 0
        player.alive = False
        player.sits_out = False
        if not any(p.alive for p in self.players):
            self.over = True

    def win(self, player: Player) -> None:
        pot = self.pot
        self.pot_won = pot
        player.chips += pot
        self.pot = 0
        self.winner = player
        self.over = True
        if player.friday is not None:
            partner: Player | None = player.friday
            share = pot // 3
        else:
            partner = self.share_partner(player)
            share = pot // 2
        if partner is not None:
            player.chips -= share
            partner.chips += share

    def share_partner(self, player: Player) -> Player | None:
        others = self.others_after(player)
        if not others:
            return None
        rule = self.rules.share_with
        if rule is ShareWith.RIGHT:
            return others[-1]
        if rule is ShareWith.LEFT:
            return others[0]
        if rule is ShareWith.RUNNER_UP:
            best = others[0]
            for other in others:
                if other.position > best.position:
                    best = other
            return best
        return None

    def decide_first_option(self) -> None:
        if self.waiting in ("jump", "wreck"):  # sail on to 27; back to start
            self.mover.position = 27 if self.waiting == "jump" else 0
            self.waiting = "roll"
            self.next_turn(self.mover)
        else:  # roll from the tree, or roll again: the same player rolls
            self.waiting = "roll"

    def next_turn(self, player: Player) -> None:
        current = player
        while True:
            others = self.others_after(current)
            following = others[0] if others else current
            if following.sits_out:
                following.sits_out = False
                current = following
                continue
            self.mover = following
            if following.position == 7:
                self.waiting = "tree"
            return


def play_plainly(seats: tuple[int, ...], first: int, rules: HouseRules, games: int,
                 random: Callable[[], float]) -> Tally:
    """``games`` games from the start, tallied as the kernel tallies them."""
    order = sorted(seats)
    turn_order = order[order.index(first):] + order[:order.index(first)]
    tally = Tally(chips={seat: Counter() for seat in order})
    for _ in range(games):
        game = Game(seats, first, rules)
        rolls = 0
        while not game.over:
            if game.waiting == "roll":
                game.roll(int(random() * 6) + 1)
                rolls += 1
            else:
                game.decide_first_option()
        tally.games += 1
        tally.rolls[rolls] += 1
        if game.winner is not None:
            tally.winners[game.winner.seat] += 1
            tally.winner_order[turn_order.index(game.winner.seat)] += 1
            tally.pots[game.pot_won] += 1
        else:
            tally.no_winner += 1
        tally.eliminations += game.deaths
        tally.games_with_death += game.deaths > 0
        tally.fridays += game.fridays
        tally.broke += game.broke
        for player in game.players:
            tally.chips[player.seat][player.chips] += 1
    return tally
