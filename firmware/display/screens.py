"""What each moment of the table looks like: game and app state in, a Screen out. Pure."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence
from typing import Any, Protocol

from firmware.display.screen import Picture, Screen, title_name
from firmware.display.words import Words
from robinson_core import (
    CHOICES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    START,
    Game,
    GameState,
    HouseRules,
    Pending,
    Status,
    narrate,
)
from robinson_core import events as ev
from robinson_core.narrate import (
    ASK_KEYS,
    EXCHANGES,
    MONEY,
    describe,
    describe_each,
    friday_masters,
    listed,
    oath,
    passed_over,
    rolled,
    shared_key,
    way,
)
from robinson_core.texts import caption, instruction, instruction_key


class PastGame(Protocol):
    """A game put away, in brief, as the store lists it (``firmware.saves.rows.Summary``):
    how it ended (``won``, ``no_winner``, ``abandoned``), when, and who won."""

    @property
    def ended(self) -> str: ...

    @property
    def finished_at(self) -> datetime.datetime | None: ...

    @property
    def winner(self) -> int | None: ...


def prompt(w: Words, state: GameState) -> str:
    """The footer: what the next press does."""
    if state.status is not Status.PLAYING:
        return w("keys_new_game")
    assert state.to_move is not None
    if state.pending is Pending.ROLL:
        return w("next_roll", name=w.name(state.to_move))
    short, long = CHOICES[state.pending]
    return w("keys_choice", short=w.option(state.pending, short),
             long=w.option(state.pending, long))


def odds_prompt(w: Words, state: GameState, win: tuple[int, int]) -> str:
    """The decision's footer with each option's chance to win for the decider, beside
    the press that takes it: "Short: again 41%" / "Long: pass 38%"."""
    short, long = CHOICES[state.pending]
    return w("keys_choice_odds", short=w.option(state.pending, short), a=win[0],
             long=w.option(state.pending, long), b=win[1])


def title_screen(w: Words, resume: bool, notes: Sequence[str] = (), badge: str = "",
                 over: bool = False) -> Screen:
    """The table switched on: a game to take up (``resume``; ``over``: it has ended, and
    a short press shows how), or setup on its way."""
    name = title_name(badge)  # the first frame: the title is its name with its lines
    if resume:
        return dataclasses.replace(
            name, body=(w("title_over" if over else "title_resume"), *notes),
            footer=w("title_keys_over" if over else "title_keys_resume"))
    return dataclasses.replace(name, body=(w("title_starting"), *notes))


def setup_screen(w: Words, seats: Sequence[int], first: int | None, rules: HouseRules,
                 badge: str = "", wired: int = MAX_PLAYERS) -> Screen:
    """Who starts (the sheet's youngest: a short press picks who that is, so it comes
    first, where the change shows), who plays and the stake; ``wired`` is how many seat
    switches the table has."""
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS or first is None:
        return Screen(title=w("setup_title"), badge=badge,
                      body=(w("setup_need", most=min(wired, MAX_PLAYERS)),
                            w("setup_players", seats=_seats(w, seats))))
    return Screen(title=w("setup_title"), badge=badge, footer=w("setup_keys"), body=(
        w("setup_first", name=w.name(first)),
        w("setup_players", seats=_seats(w, seats)),
        w("setup_stake", stake=rules.stake, pot=rules.stake * len(seats))))


def _seats(w: Words, seats: Sequence[int]) -> str:
    """The seats switched on: their numbers, or their names if any has a chosen one
    ("Ana, Ben, Player 3")."""
    if not any(seat in w.given for seat in seats):
        return " ".join(map(str, seats)) or "–"
    return ", ".join(w.name(seat) for seat in seats)


def turn_screen(w: Words, state: GameState, badge: str = "") -> Screen:
    """Whose turn, where, chips and pot, and the question if there is one."""
    if state.status is not Status.PLAYING:
        return over_screen(w, state, badge)
    assert state.to_move is not None
    player = state.player(state.to_move)
    position = player.position or 0
    body = [w("ledger", chips=player.chips, pot=state.pot)]
    if player.friday is not None:
        body.append(w("with_friday", friday=w.name(player.friday)))
    if state.pending in ASK_KEYS:
        body.insert(0, w(ASK_KEYS[state.pending], name=w.name(state.to_move)))
    elif position:
        body.append(caption(w.lang, position))
    return Screen(title=w("turn_title", name=w.name(state.to_move), square=w.square(position)),
                  body=tuple(body), footer=prompt(w, state), badge=badge,
                  **around(w, state, state.to_move))


def rolling_screen(w: Words, seat: int, face: int, tilt: int, badge: str = "") -> Screen:
    return Screen(title=w("rolling", name=w.name(seat)), picture=Picture.die(face), tilt=tilt,
                  badge=badge)


def mover(game: Game) -> int | None:
    """Who took the last action: who rolled, or who decided."""
    return narrate.mover(game.events)


def decider(state: GameState) -> int | None:
    """Who must decide now (on 7, 20 or 23, or 4 under square_4 = ask), if anyone."""
    return state.to_move if state.pending in ASK_KEYS else None


_NEXT = (ev.Eliminated, ev.Decided, ev.SatOut, ev.WillSitOut, ev.FridaySworn, ev.BondEnded,
         ev.Swapped, ev.NoNeighbour, ev.Parrot, ev.NoWinner)


def _nothing_moved(event: ev.Event) -> bool:
    """A Friday's 1 from a pot that ran dry (the master's line said the pot is empty),
    or a share of a pot of nothing: no line."""
    if isinstance(event, ev.Shared):
        return not event.amount
    return isinstance(event, ev.Transfer) and event.why is ev.Why.FRIDAY and not event.amount




def money_line(w: Words, state: GameState, events: Sequence[ev.Event]) -> tuple[str, bool]:
    """All the money of one action in one line, for when it moved more than once, and
    whether that line says it all (who paid whom needs no more words): "Everyone −1"
    (the players in the game paid the bank alike; "Everyone −1 · Cid (Friday) −1"
    where a Friday paid again for their master), "Ben +7, others −1" (the others
    paid one player alike), each naming the one or two whose chips did not change
    ("…, Cid 0"); else each player's gain or loss, gains first, a Friday marked as
    such, its master beside ("Ana +2 · Ben −1 · Cid −1", "Ana +3 · Cid (Friday) +1"):
    all said if the bank was the other side of every payment. ("", False) for one
    payment or none."""
    if sum(isinstance(e, MONEY) for e in events) < 2:
        return "", False
    change = narrate.nets(events)
    playing = [p.seat for p in state.players if p.position is not None]
    if (same := narrate.alike(change, playing, narrate.LEFT_OUT_SEEN)) is not None:
        gained, paid, left_out = same
        but = "".join(w("money_zero", name=w.name(seat)) for seat in left_out)
        if not gained:
            return w("money_everyone", amount=paid, but=but), True
        if len(gained) == 2 and change[gained[0]] == change[gained[1]]:  # 32, both: one row
            return w("money_pair", change=_signed(change[gained[0]]), name=w.name(gained[0]),
                     other=w.name(gained[1]), amount=paid, but=but), True
        gains = w("money_and").join(w("money_one", name=w.name(seat), change=_signed(change[seat]))
                                    for seat in gained)
        return w("money_others", gained=gains, amount=paid, but=but), True
    if (apart := narrate.fridays_apart(events, playing, narrate.LEFT_OUT_SEEN)) is not None:
        paid, left_out, fridays = apart  # square 1: "Everyone −1 · Cid (Friday) −1" (the
        but = "".join(w("money_zero", name=w.name(seat)) for seat in left_out)  # master is
        return w("money_and").join([w("money_everyone", amount=paid, but=but), *(  # everyone)
            w("money_friday", name=w.name(e.payer), change=_signed(-e.amount))
            for e in fridays if e.payer is not None)]), True
    ordered = sorted(change.items(), key=lambda item: item[1] < 0)
    masters = friday_masters(events)  # and a Friday's third of the pot at the win:
    masters |= {e.partner: e.winner for e in events if isinstance(e, ev.Shared) and e.as_friday}
    banked = all(isinstance(e, ev.Transfer) and None in (e.payer, e.payee)
                 for e in events if isinstance(e, MONEY))
    return w("money_and").join(
        w("money_friday", name=w.name(seat), change=_signed(amount)) if seat in masters
        else w("money_one", name=w.name(seat), change=_signed(amount))
        for seat, amount in ordered), banked


def _signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else f"\u2212{-amount}"


def result_screen(w: Words, game: Game, badge: str = "") -> Screen:
    """What the last action did, the important things first, the same in every language.

    The title is who moved and the square their token ends on (after any bounce,
    chain or swap). The body begins with their chips and the pot, then all the money
    in one line if more than one purse changed (else the one payment), then what
    changes for the next turns (a death and why, a turn missed, a Friday sworn) or,
    if nothing did, what the square says to do (an exchange it orders only as made:
    ``EXCHANGES``). Those are the screen's ``essential`` lines: a press does not act
    until they have been on the panel, and until then the footer says there is more.
    Where none of the mover's chips moved, they are no news: they come after the essential lines,
    so that a decision's question and its options share page 1 (and a strip, short of
    room, leaves them out). Each payment, the path and the story come after. The
    footer says who is next (a decision by another player: a press first shows their
    screen, headed by them)."""
    state, events = game.state, game.events
    seat = mover(game)
    if seat is None:  # no action yet: whose turn it is
        return turn_screen(w, state, badge)
    player = state.player(seat)
    face = next((e.face for e in events if isinstance(e, ev.Rolled)), 0)
    # No picture beside the body: its 34 pixels are worth more as text here (the die
    # is small, in the title bar; a death or a win says so in the title).
    landed = rolled(events)
    title, shorter = _moved_title(w, seat, player.position or 0,
                                  way(events, landed) if landed is not None else [])
    ledger = w("ledger", chips=player.chips, pot=state.pot)
    body = [ledger]  # the title names whose chips
    for event in events:
        if isinstance(event, ev.Eliminated):
            title = w("dead_title", name=w.name(event.seat))
        elif isinstance(event, ev.Won):
            title = w("won_title", name=w.name(event.seat))
    said = dict(zip(events, describe_each(events, w.lang, w.name), strict=True))
    for event in events:  # the panel's death says what to do: the token comes off
        if isinstance(event, ev.Eliminated):
            said[event] = w("hanged")  # (the title names who: only a mover dies)
        elif isinstance(event, ev.Won):  # the title says who: the pot, in one row
            said[event] = w("won_pot", pot=event.pot)
        elif isinstance(event, ev.Shared):  # the half's why: on the right, ...
            said[event] = w(shared_key(event, game.rules), other=w.name(event.partner),
                            amount=event.amount)
    sworn_paid = oath(events)
    if sworn_paid is not None:  # square 29: the 2 paid and the oath, said once
        payment, sworn = sworn_paid
        said[payment] = w("friday_sworn_paid", friday=w.name(sworn.friday),
                          name=w.name(sworn.master), amount=payment.amount)
        del said[sworn]
    paid = [said[e] for e in events if isinstance(e, MONEY) and not _nothing_moved(e)]
    summed, whole = money_line(w, state, events)
    if state.status is not Status.PLAYING:
        return _end_screen(w, game, seat, title, summed, paid, said, face, badge)
    body += [summed] if summed else paid
    body += [said[e] for e in events if isinstance(e, _NEXT) and e in said]
    dead = any(isinstance(e, ev.Eliminated) for e in events)
    if (landed is not None and not dead and len(body) == 1
            and instruction_key(landed.end, game.rules) not in (None, *EXCHANGES)):
        body.append(instruction(w.lang, landed.end, game.rules))  # what the square says
    essential = len(body)
    if not narrate.nets(events).get(seat) and essential > 1:
        # None of the mover's chips moved (a payment of nothing is no move): what the
        # square did comes first, the chips, no news, after it (a decision's question
        # and its options on page 1, the others' payments there when many paid; a strip
        # leaves the chips out).
        essential -= 1
        body.insert(essential, body.pop(0))
        # Those who sit out after the mover, after the chips: under "Cy sits out" the
        # mover's chips read as Cy's (the title names whose they are).
        sat = [said[e] for e in events if isinstance(e, ev.SatOut)]
        if sat:  # (with no other news the chips come first, and are news enough)
            ledger = body.pop(essential)
            kept = [line for line in body[:essential] if line not in sat]
            body = [*kept, ledger, *sat, *body[essential:]]
            essential = len(kept) or 1 + len(sat)
    died = [said[e] for e in events if isinstance(e, ev.Eliminated)]
    body = [*died, *(line for line in body if line not in died)]  # the death first
    if summed and not whole:
        body += paid  # who paid whom
    if landed is not None:  # the path, on to where the square sent the token: the title's
        body.append(path(w, events, landed))  # the title's square; the title names whose
        if landed.end and not dead:
            body.append(caption(w.lang, landed.end))
    next_up = decider(state)
    footer = (w("next_decides", name=w.name(next_up)) if next_up is not None and next_up != seat
              else prompt(w, state))
    return Screen(title=title, body=tuple(body), footer=footer, badge=badge, die=face,
                  essential=essential, more=w("more"), shorter=shorter,
                  glance=glance(w, game, seat, next(
                      (line for line in body[:essential] if line != ledger), body[0])),
                  ledger=ledger,
                  **around(w, state, seat))


def glance(w: Words, game: Game, seat: int, first: str) -> str:
    """The result in one row, for a strip's page 1 (``Screen.glance``): the mover's chips
    as they changed ("+2 → 12 chips"); at a death, to take the token off; else ``first``,
    the first thing the result says ("Back to start", "Misses the next turn": the title
    names the mover, so a line that begins with their name begins without it)."""
    change = narrate.nets(game.events).get(seat, 0)
    if any(isinstance(e, ev.Eliminated) for e in game.events):
        return w("glance_hanged")  # ("Ana is dead", the title says)
    if change:
        return w("glance_chips", change=f"+{change}" if change > 0 else f"−{-change}",
                 chips=game.state.player(seat).chips)
    name = w.name(seat)
    for head in (f"{name}: ", f"{name} ", f"{name}は"):
        if first.startswith(head) and len(first) > len(head):
            rest = first[len(head):]
            return rest[0].upper() + rest[1:]
    return first


def _moved_title(w: Words, seat: int, square: int,
                 squares: list[int]) -> tuple[str, tuple[str, ...]]:
    """Who moved and where their token ends, by way of any square that sent it on (the
    reason a token is not where the die said: "Cy → 25 → 14", "Ben → 45 → 42"); where that
    is too wide, its arrows closed up, then the square alone: ``Screen.shorter``."""
    name, end = w.name(seat), w.square(square)
    title = w("moved_to", name=name, square=end)
    if len(squares) < 2:
        return title, ()
    via = [w("start") if s == START else str(s) for s in squares[:-1]]
    full = w("moved_to", name=name, square=" → ".join([*via, end]))
    return full, (full.replace(" → ", "→"), title)


def _end_screen(w: Words, game: Game, seat: int, title: str, summed: str, paid: list[str],
                said: dict[ev.Event, str], face: int, badge: str) -> Screen:
    """The action that ended the game: the mover's chips and who got what (the
    share-out, page 1), why nobody won where nobody did, then everyone's chips, a line
    each. Four players' end fits four pages of a 128x64 panel whatever their names; the
    squares, the Fridays (but a Friday's third, in the share-out), the path and the
    story are left out."""
    state, events = game.state, game.events
    won = any(isinstance(e, ev.Won) for e in events)  # who took the pot, who got what and
    # why, not the purses' sum (and no ledger of a pot now 0: the rows say the chips)
    ledger = [] if won else [w("ledger", chips=state.player(seat).chips, pot=state.pot)]
    body = [*ledger, *(paid if won or not summed else [summed])]
    body += [said[e] for e in events if isinstance(e, _NEXT) and e in said]
    died = [said[e] for e in events if isinstance(e, ev.Eliminated)]
    body = [*died, *(line for line in body if line not in died)]  # the last one hanged
    essential = len(body)
    if died and not narrate.nets(events).get(seat):  # their chips, no news: after it
        essential -= 1
        body.append(body.pop(len(died)))
    body[essential:essential] = [  # the hanged a half went past: "on the right" is them
        w("passed_over", dead=listed(w.lang, map(w.name, passed)))
        for e in events if isinstance(e, ev.Shared) and e.amount
        and (passed := passed_over(e, state, game.rules))]
    # The squares are no news at the end, nor the Fridays (a Friday's third is marked
    # in the share-out): the chips are, the players still in first, those out marked.
    players = sorted(state.players, key=lambda p: p.position is None)
    body += [w("end_row" if p.position is not None else "end_row_out", name=w.name(p.seat),
               chips=p.chips) for p in players]
    return Screen(title=title, body=tuple(body), footer=prompt(w, state), badge=badge,
                  die=face, essential=essential, more=w("more"),
                  glance=w("glance_hanged") if died else body[0],
                  **around(w, state, seat))


def over_screen(w: Words, state: GameState, badge: str = "") -> Screen:
    if state.winner is not None:
        title, picture = w("won_title", name=w.name(state.winner)), Picture.HOME
    else:
        title, picture = w("over_title"), Picture.GALLOWS
    return Screen(title=title, body=(w("pot", pot=state.pot), *table_rows(w, state)),
                  footer=w("keys_new_game"), picture=picture, badge=badge,
                  board=board(state))


def standings_screen(w: Words, state: GameState) -> Screen:
    """Everyone at a glance: a row per player (square, chips), the pot in the title; no
    footer (any press goes back), and where that takes more than a page, the rows
    without the chips' noun or the Fridays: four players on one 128x64 page."""
    compact = tuple(w("standing_row_short", name=w.name(p.seat), chips=p.chips,
                      square=w("square_out_short") if p.position is None
                      else w.square(p.position))
                    for p in state.players)
    return Screen(title=w("standings_title", pot=state.pot), body=tuple(table_rows(w, state)),
                  compact=compact, board=board(state))


def board(state: GameState) -> tuple[tuple[int, int], ...]:
    """Where every token in the game stands: (seat, square)."""
    return tuple((p.seat, p.position) for p in state.players if p.position is not None)


def around(w: Words, state: GameState, seat: int) -> dict[str, Any]:
    """What a screen about ``seat`` carries for panels with more room: their colour, the
    board, and the standings beside it."""
    return {"seat": seat, "board": board(state),
            "side_title": w("standings_title", pot=state.pot),
            "side": tuple(table_rows(w, state))}


def table_rows(w: Words, state: GameState) -> list[str]:
    """A line per player: where their token is and their chips, and their Friday in the
    same line (a page never parts a Friday from its master)."""
    rows = []
    for p in state.players:
        where = w("square_out") if p.position is None else w.square(p.position)
        row = w("standing_row", name=w.name(p.seat), square=where, chips=p.chips)
        if p.friday is not None:
            row += " · " + w("with_friday", friday=w.name(p.friday))
        rows.append(row)
    return rows


def last_turns(w: Words, game: Game, count: int = 10) -> list[str]:
    """One line per action, the newest first: who did what, and where it took them.
    The action's number is held to its line's first word (never alone on a row)."""
    first = max(1, len(game.history) - count)
    return [f"{number}.\u00a0" + action_said(w, game.history[number][1])
            for number in range(len(game.history) - 1, first - 1, -1)]


def action_said(w: Words, events: Sequence[ev.Event]) -> str:
    """What one action did, in a few words: the roll and the move, or the choice; the
    move's path runs on to where the token ended (25 → 14, 36 → 41, 4 → start)."""
    said = []
    for event in events:
        if isinstance(event, ev.Decided):
            said.append(describe(event, w.lang, w.name))
        elif isinstance(event, ev.Moved) and event.cause is ev.Cause.ROLL:
            onward = way(events, event)[1 + event.bounced:]  # where the square sent it
            said.append(describe(event, w.lang, w.name) + "".join(
                f" → {w('start') if end == START else end}" for end in onward))
    return "; ".join(said)


def path(w: Words, events: Sequence[ev.Event], rolled: ev.Moved) -> str:
    """The path of the token the roll moved, without its name (the title says whose: a
    name and its path were parted on a row of their own where the line wrapped):
    "31 → 32", "start → 4 → start", "43 → 45 → 41"."""
    return " → ".join(w("start") if square == START else str(square)
                      for square in [rolled.start, *way(events, rolled)])


RECALLED = {"won": "recall_won", "no_winner": "recall_none", "abandoned": "recall_put_away"}


def recall_screen(w: Words, game: Game | None, finished: Sequence[PastGame]) -> Screen:
    """The last turns, the newest first (the title says so), and the games put away; the
    badge RECALL marks it as the past, not the game in play, and is the only place the
    word appears."""
    body = last_turns(w, game) if game is not None and game.actions else [w("recall_empty")]
    body.append(w("recall_games") + ":")
    for put_away in finished:
        at = put_away.finished_at
        when = at.strftime("%d.%m. %H:%M") if at is not None else "–"  # a label only
        name = w.name(put_away.winner) if put_away.winner is not None else ""
        body.append(w(RECALLED[put_away.ended], when=when, name=name))  # never a damaged one
    if not finished:
        body.append(w("recall_empty"))
    return Screen(title=w("recall_turns"), body=tuple(body), badge=w("recall_badge"),
                  footer=w("keys_back"))


def menu_screen(w: Words, items: Sequence[str], index: int, keys: str = "menu_keys") -> Screen:
    """A list with a cursor that scrolls: always on screen, never paged by the clock;
    ``keys`` the key hints' text key.

    No title bar: the three rows above the key hints are the list (each item fits
    one row, a test checks it in every language)."""
    rows = 3
    start = min(max(0, index - 1), max(0, len(items) - rows))
    shown = [("▶ " if i == index else "  ") + items[i] for i in range(start, start + rows)
             if i < len(items)]
    return Screen(body=tuple(shown), footer=w(keys), cursor=index - start)


def phone_row(w: Words, kind: str) -> str:
    """A paired phone as the panel's list names it: its system and browser (``kind`` as
    the page read them, ``Chrome/Android``), in one row at 128 pixels (the page's list
    adds the days it paired and was last used).

    >>> phone_row(Words("en"), "Safari/iPhone"), phone_row(Words("en"), "")
    ('iPhone Safari', 'Phone')
    """
    browser, _, system = kind.partition("/")
    return f"{system} {browser}" if system else w("phone_unknown")


def message_screen(title: str, text: str, footer: str = "") -> Screen:
    return Screen(title=title, body=(text,), footer=footer)


def pairing_screen(w: Words, digits: str, token: str, address: str) -> Screen:
    """A phone's pairing: the code to type on the companion page, where the page is, and
    a QR code that opens it paired (the code's one-time token in the address)."""
    host = address.split("://", 1)[-1].rstrip("/")
    return Screen(title=w("phone_title"),
                  body=(w("pair_code", code=f"{digits[:3]} {digits[3:]}"),
                        w("pair_at", address=host)),
                  footer=w("pair_keys"), qr=f"{address.rstrip('/')}/pair?t={token}")


def trial_screen(w: Words, panel: tuple[str, ...], seconds: int) -> Screen:
    """A phone's new panel on trial: a test pattern (its four edges lit, what it is), how
    to keep it, and that it goes back by itself, as a screen's new resolution does."""
    return Screen(title=w("trial_title"), body=panel,
                  footer=w("trial_keys", seconds=seconds), outline=True)


def abandon_screen(w: Words) -> Screen:
    """Whether to put the game in progress away for a new one."""
    return Screen(title=w("abandon_title"), body=(w("abandon_what"),), footer=w("keys_yes_no"))


def undo_screen(w: Words, game: Game) -> Screen:
    """Whether to take the last action back, said as what it did (no turn number)."""
    return Screen(title=w("undo_title"), body=(w("undo_what", what=action_said(w, game.events)),),
                  footer=w("keys_yes_no"))


def about_screen(w: Words, version: str, saves: str, panel: str,
                 fonts_missing: Sequence[str] = ()) -> Screen:
    """The software's version, where the saves are, the panel, and fonts to install."""
    body = [w("about_version", version=version), w("about_saves", path=saves), panel]
    if fonts_missing:
        body.append(w("about_fonts", packages=tuple(fonts_missing)))
    return Screen(title=w("menu_about"), body=tuple(body), footer=w("keys_back"))
