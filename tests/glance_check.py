"""The glance rules, checked on one result's pages as the panel shows them.

A result is read in a moment, between two rolls, so its pages must be
readable one by one:

- **sentence**: a page ends only where a line ends (a line is a sentence: a
  payment, a move, a standing), unless the line is longer than a whole page;
- **number**: no move chain leaves its arrow (``43 → 45 → 41``), no count its
  chips, no square number the word before it (checked on the rows, so across
  pages too);
- **fragment**: no page holds only the tail of a line begun on the page before, but
  for a tail that fills its page (a line longer than two pages read on);
- **money**: every player whose chips changed is named on page 1, in a line
  with a number, whole on that page (the mover by the chips in their own line,
  everybody at once by the line that says all paid alike);
- **footer**: a page a press only turns says so (the word for "more"), and the
  page where a press acts shows the prompt;
- **ghost**: no page orders an exchange the result does not have (36's "swap with
  a player on 41" with nobody there, a payment's instruction with no chip moved);
- **alone**: page 1 never holds only the mover's chips while a press must turn it
  to reach what the result says (a decision's question, a square's instruction);
- **parted**: no row ends in a label the line goes on after ("Player 3:" over
  "43 → 45 → 41", "Perjantai:" over "Pelaaja 3"): a name and what it names read
  together;
- **friday**: a line that names a player as a Friday names the master too (a
  Friday is someone's: "Cid (Ana's Friday) collects 1", "Ana +3 · Cid (Friday) +1");
- **cases**: a given name is never glued to the word of a default one ("igraču Ana",
  "pelaajan Ana": the name itself takes the case, "Ani", "Anan"): the seat's word
  comes only with its number.

Written against the pages as text (``paging.shown``) and the body's lines,
not against how the render makes them, so it can judge any pager (the one
before this one was judged by it too).
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from robinson_core import Game
from robinson_core import events as ev
from robinson_core.board import BOARD, Effect
from robinson_core.texts import chip_nouns

MOVE = re.compile(r"[^\s:·]+(?: → [^\s:·]+)+")  # 43 → 45 → 41, start → 4, スタート → 4
COUNT = re.compile(r"\d+ ?(?:" + "|".join(sorted(map(re.escape, chip_nouns()), key=len,
                                                 reverse=True)) + ")")  # 3 chips, 3枚
RULES = ("sentence", "number", "fragment", "money", "footer", "ghost", "alone", "parted",
         "friday", "cases")
FRIDAY = re.compile(r"Friday|Petk|Petak|Perjantai|フライデー")  # the word, in its cases
EVERYONE = re.compile(r"Everyone|Svi|Kaikki|全員")  # all the players at once, the master too


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def unseparated(text: str) -> str:
    """``text`` squashed and without its separators (·): a row breaks after one
    without drawing it."""
    return squash(text).replace("·", "")


def ends(pieces: Sequence[str]) -> list[int]:
    """Where each piece ends in the text they make, counted without white space (so a
    row's end and a phrase's end compare, however the spaces fell)."""
    return list(itertools.accumulate(len(squash(piece)) for piece in pieces))


def held_together(line: str, rows: Sequence[str]) -> tuple[list[str], int]:
    """Where ``rows`` (``line`` wrapped) break a move chain or a count from its noun;
    and how many chains and counts the line has."""
    spans = [m.span() for m in itertools.chain(MOVE.finditer(line), COUNT.finditer(line))]
    bounds = ends(rows[:-1])
    found = []
    for start, end in spans:  # in the squashed line's coordinates, as the bounds are
        first, last = len(squash(line[:start])), len(squash(line[:end]))
        if any(first < b < last for b in bounds):
            found.append(f"{line[start:end]!r} broken in {list(rows)!r}")
    return found, len(spans)


@dataclass(frozen=True)
class Seen:
    """One result as its reader sees it.

    ``wrapped`` is each body line's rows; ``pages`` each page's (title, rows,
    footer); ``essential`` how many of the first lines a press must not skip;
    ``prompt`` the footer rows where a press acts (empty: the panel has no footer);
    ``more`` the footer of a page a press only turns; ``per_page`` the rows a page
    holds; ``ghosts`` what no page may say (``ghosts()``); ``ledger`` the mover's
    chips line."""

    wrapped: tuple[tuple[str, ...], ...]
    pages: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]
    essential: int
    prompt: tuple[str, ...]
    more: str
    per_page: int
    ghosts: tuple[str, ...] = ()
    ledger: str = ""
    names: tuple[tuple[str, ...], ...] = ()  # each seat's name, in every form it takes
    seat_words: tuple[str, ...] = ()  # the word of a default name in each case ("igraču")


@dataclass(frozen=True)
class Money:
    """Who must be seen on page 1: the players whose chips changed (the mover by their
    own line, "" where theirs did not), and the line that says everyone paid alike."""

    mover_line: str
    others: tuple[tuple[str, ...], ...]  # their names, each in the forms it may take
    everyone: str  # the words that cover them all at once ("Everyone −1"), or ""
    apart: tuple[tuple[str, ...], ...] = ()  # named beside those words: a Friday who paid
    # again for their master ("Everyone −1 · Cid (Friday) −1")
    mover_said: tuple[str, ...] = ()  # the mover's change in the money line ("Ana +2"):
    # page 1 may say it so, their chips after it, where beside them it would be alone


def line_pages(seen: Seen) -> list[list[int]]:
    """For each body line, the pages its rows are on (the rows must be the pages' rows,
    in order: a pager may not lose, add or change a row)."""
    flat = [(n, row) for n, (_, rows, _) in enumerate(seen.pages) for row in rows]
    assert [row for _, row in flat] == [r for rows in seen.wrapped for r in rows], \
        "the pages are not the wrapped lines"
    where, at = [], 0
    for rows in seen.wrapped:
        where.append([n for n, _ in flat[at:at + len(rows)]])
        at += len(rows)
    return where


def check(seen: Seen, money: Money | None) -> Iterator[tuple[str, str]]:
    """Each broken rule: (rule, what)."""
    on = line_pages(seen)
    lines = ["".join(rows) for rows in seen.wrapped]
    for line, rows, pages in zip(lines, seen.wrapped, on, strict=True):
        if len(set(pages)) > 1 and len(rows) <= seen.per_page:
            yield "sentence", f"{list(rows)!r} parted over pages {sorted(set(pages))}"
        for found in held_together(line, rows)[0]:
            yield "number", found
        for word in seen.seat_words:
            if re.search(rf"(?<!\w){re.escape(word)}(?![\s\u00a0]*\d)", line):
                yield "cases", f"{line!r}: {word!r} without its number"
        title = seen.pages[pages[0]][0]  # a win's names the winner, whose Friday shares
        named = [any(form in line for form in forms) for forms in seen.names]
        titled = any(form in title for forms, here in zip(seen.names, named, strict=True)
                     if not here for form in forms)
        if FRIDAY.search(line) and sum(named) == 1 and not titled \
                and not EVERYONE.search(line):
            yield "friday", f"{line!r} names a Friday without the master"
        for row in rows[:-1]:  # a label: a word or two (a name) and a colon
            if row.rstrip().endswith((":", "：")) and len(row.split()) <= 2:
                yield "parted", f"{row!r} parted from the rest of {list(rows)!r}"
    for n, (_, rows, _) in enumerate(seen.pages):
        owners = {i for i, pages in enumerate(on) if n in pages}
        if rows and all(min(on[i]) < n for i in owners) and len(rows) < seen.per_page:
            # (a tail that fills its page is a long line read on, not a stray end)
            yield "fragment", f"page {n + 1} holds only {list(rows)!r}"
    if money is not None:  # (a separator a row broke after is not drawn: "·" aside)
        first = " ".join(unseparated(line) for line, pages in zip(lines, on, strict=True)
                         if set(pages) == {0} and re.search(r"\d", line))
        read = unseparated("".join(seen.pages[0][1]))  # page 1 as read, a line begun too
        if money.mover_line and unseparated(money.mover_line) not in first and not any(
                unseparated(said) in read for said in money.mover_said):
            yield "money", f"the mover's chips {money.mover_line!r} not on page 1"
        if not (money.everyone and unseparated(money.everyone) in read):
            for forms in money.others:
                if not any(squash(form) in first for form in forms):
                    yield "money", f"{forms[0]}'s money not on page 1"
        else:
            for forms in money.apart:
                if not any(squash(form) in first for form in forms):
                    yield "money", f"{forms[0]}'s money not on page 1"
    first_rows, first_footer = seen.pages[0][1], seen.pages[0][2]
    if (seen.ledger and squash("".join(first_rows)) == squash(seen.ledger)
            and first_footer == (seen.more,)):
        yield "alone", f"page 1 holds only {seen.ledger!r}; page 2: {seen.pages[1][1]!r}"
    shown = squash("".join(row for _, rows, _ in seen.pages for row in rows))
    for ghost in seen.ghosts:
        if squash(ghost) in shown:
            yield "ghost", f"{ghost!r} shown, and the result has no such exchange"
    if seen.prompt:
        last = max((max(pages) for pages in on[:seen.essential] if pages), default=0)
        for n, (_, _, footer) in enumerate(seen.pages):
            if n < last and footer != (seen.more,):
                yield "footer", f"page {n + 1} of {len(seen.pages)} says {footer!r}; a press " \
                                "turns the page"
            if n >= last and footer != seen.prompt:
                yield "footer", f"page {n + 1} says {footer!r}, not the prompt"


Covering = Callable[[dict[int, int], int, Sequence[int]], str]


def money_of(game: Game, forms: Callable[[int], Sequence[str]], mover_line: str,
             covering: Covering) -> Money:
    """Who must be seen on page 1 after ``game``'s last action (see ``Money``): each by
    one of its ``forms`` (a name, or a case of it: "Igrač 4", "igraču 4").

    ``covering(gains, n, unchanged)`` is the line allowed to stand for them all
    where every loser lost n alike, at most two players gained (``gains``: seat ->
    gain; two on 32 under square_32 = both) and at most two players still in the game
    were left out (named, 0)."""
    change: dict[int, int] = {}
    for event in game.events:
        if isinstance(event, ev.Transfer):
            for seat, amount in ((event.payer, -event.amount), (event.payee, event.amount)):
                if seat is not None:
                    change[seat] = change.get(seat, 0) + amount
        elif isinstance(event, ev.Won):
            change[event.seat] = change.get(event.seat, 0) + event.pot
        elif isinstance(event, ev.Shared):
            change[event.winner] = change.get(event.winner, 0) - event.amount
            change[event.partner] = change.get(event.partner, 0) + event.amount
    change = {seat: amount for seat, amount in change.items() if amount}
    mover = next(e.seat for e in game.events if isinstance(e, ev.Rolled | ev.Decided
                                                           | ev.SatOut))
    if mover not in change:  # their chips are no news: not owed to page 1
        mover_line = ""
    sign = "+" if change.get(mover, 0) > 0 else "\u2212"
    mover_said = tuple(f"{form} {sign}{abs(change.get(mover, 0))}" for form in forms(mover))
    named = tuple(tuple(forms(seat)) for seat in change if seat != mover)
    playing = [p.seat for p in game.state.players if p.position is not None]
    lost = {amount for amount in change.values() if amount < 0}
    gainers = [seat for seat, amount in change.items() if amount > 0]
    losers = [seat for seat, amount in change.items() if amount < 0]
    unchanged = [seat for seat in playing if seat not in change]
    alike = (len(lost) == 1 and len(gainers) <= 2 and len(losers) >= 2
             and len(unchanged) <= 2 and set(change) <= set(playing))
    gains = {seat: change[seat] for seat in gainers}
    line = os.path.commonprefix([  # noqa: RUF071 (texts, not paths: letter by letter)
        covering(gains, -min(lost), unchanged), covering(gains, -min(lost), [])
    ]) if alike else ""  # who did not pay may follow on page 2: theirs did not change
    fridays = [e.payer for e in game.events if isinstance(e, ev.Transfer) and e.amount
               and e.why is ev.Why.FRIDAY and e.payer is not None]
    square = [e for e in game.events if isinstance(e, ev.Transfer) and e.amount
              and e.why is not ev.Why.FRIDAY]
    paid = {e.payer: e.amount for e in square if e.payee is None}
    if not alike and fridays and len(paid) == len(square) and len(set(paid.values())) == 1 \
            and len(paid) >= 2 and len(playing) - len(paid) <= 2 and set(paid) <= set(playing):
        # everyone paid the bank alike, and a Friday again for their master: those words,
        # and the Friday named beside them
        line = covering({}, next(iter(paid.values())), [])
        return Money(mover_line, named, line, tuple(tuple(forms(seat)) for seat in fridays),
                     mover_said)
    return Money(mover_line, named, line, mover_said=mover_said)


_PAYS = {Effect.EVERYONE_PAYS, Effect.COLLECT_BANK, Effect.PAY_BANK, Effect.PAY_NEIGHBOUR,
         Effect.FRIDAY, Effect.COLLECT_EACH, Effect.FATHER}
"""The squares whose instruction orders chips to move (36's orders places to)."""


def ghosts(game: Game, told: Callable[[int], str]) -> tuple[str, ...]:
    """The instruction of the square the last roll landed on (``told(square)``) where it
    orders an exchange the result does not have: 36 without a swap, a square that
    orders a payment where no chip moved. Read from the board and the events, not from
    how the screens choose their lines."""
    landed = next((e for e in game.events if isinstance(e, ev.Moved)
                   and e.cause is ev.Cause.ROLL and e.end), None)
    if landed is None:
        return ()
    effect = BOARD[landed.end].effect
    if effect is Effect.SWAP:
        made = any(isinstance(e, ev.Swapped) for e in game.events)
    elif effect in _PAYS:
        made = any(isinstance(e, ev.Transfer) and e.amount for e in game.events)
    else:
        return ()
    return () if made else (told(landed.end),)
