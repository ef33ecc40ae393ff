"""Paging: a Screen laid out as text on the panel's pages (what fits, where it wraps,
which page holds what, the title bar's room). No pixels: ``render`` draws the pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from firmware.display.breaks import chunks, cut_at
from firmware.display.fonts import NO_BREAK, Fonts
from firmware.display.layout import (
    CLASSIC,
    LINE,
    Layout,
    Size,
    rows_fitting,
)
from firmware.display.screen import Screen

PICTURE = 30  # pictures are 30x30, at the right of the body
SEPARATOR = "·"  # between items of one line ("Ana +3 · Cid +1"): a row may break after it


def footer_rows(screen: Screen) -> list[str]:
    """The footer's rows: one prompt, or two key hints (short press, long press)."""
    return screen.footer.split("\n") if screen.footer else []


@dataclass(frozen=True)
class Box:
    """Where one screen is drawn: its size in canvas pixels (the classic page's, unless
    a layout says otherwise)."""

    width: int = CLASSIC.width
    height: int = CLASSIC.height
    line: int = LINE  # pixels per text row

    @property
    def compact(self) -> bool:
        """Rows closer than the classic page's (a strip): a thinner title bar."""
        return self.line < LINE


def box(layout: Layout, screen: Screen, fonts: Fonts) -> Box:
    """The room for the screen's own text: the canvas (its left half on WIDE), less the
    board map if the screen has one and its body still fits one page beside it."""
    width, height = layout.column
    room = layout.board_height
    if room and screen.board:
        shown = Box(width, height - room, layout.line)
        if len(pages(screen, fonts, shown)) == 1:
            return shown
    return Box(width, height, layout.line)


def fit(screen: Screen, layout: Layout, fonts: Fonts | None = None) -> Screen:
    """The screen as the size class tells: on a strip, two lines at a time, a result's
    page 1 is its ``glance`` and the prompt (a choice's two hints alone), then the
    essentials that are news (not a ledger no chip moved), the mover's chips last; any
    other screen's essentials, then its prompt (the story is dropped; a menu keeps its
    cursor). With ``fonts``, a body that would page, or wrap a line, is replaced by its
    ``compact`` form, if any, and a title too wide for its bar by the first of its
    ``shorter`` ones that is not."""
    if fonts is not None and screen.shorter:  # the first title that fits the bar whole
        room = box(layout, screen, fonts).width - 4
        titles = (screen.title, *screen.shorter)
        title = next((t for t in titles if fonts.width(t, bold=True) <= room), titles[-1])
        screen = replace(screen, title=title, shorter=())
    if fonts is not None and screen.compact:
        full = fit(replace(screen, compact=()), layout)
        laid = pages(full, fonts, box(layout, full, fonts))
        whole = len(laid) == 1 and len(laid[0]) == len(full.body)
        screen = replace(screen, body=screen.body if whole else screen.compact, compact=())
    if layout.size is not Size.STRIP:
        return screen if fonts is None else _chips_not_alone(screen, layout, fonts)
    if screen.cursor >= 0:  # a menu: the cursor's row and the next (or the one before)
        rows = screen.body
        at = max(0, screen.cursor)
        start = max(0, min(at, len(rows) - 2))
        return replace(screen, body=rows[start:start + 2], footer="", cursor=-1)
    body = screen.body[:screen.essential] if screen.essential else screen.body
    title = screen.title or screen.big
    tumbling = screen.picture is not None and isinstance(screen.picture.value, int)
    if tumbling and not screen.body:  # the die alone: under the title, as large as fits
        return replace(screen, title=title, big="", footer="", more="")
    die = screen.picture.value if screen.picture and tumbling else screen.die  # a die
    # beside words: small, in the title bar
    # The footer as the body's last line: a choice's two key hints (what the press would
    # choose) one line, on one page, and a press acts only once it has been on the
    # panel; a prompt may be skipped.
    footer = (screen.footer,) if screen.footer else ()
    if screen.glance and footer:  # a result: page 1 what changed for the mover and what
        # to press (a choice's two hints fill it), the rest after it, a page a time
        hints = len(footer_rows(screen)) > 1
        fits = fonts is None or fonts.width(screen.glance) <= box(
            layout, replace(screen, picture=None), fonts).width
        first = () if hints or not fits else (screen.glance,)
        # then the details, the mover's chips and the pot last (the glance said the
        # chips; a line longer than a page ends beside them, not alone)
        told = () if not first else (screen.glance,) if screen.glance in body else (
            body[0],)  # the line the glance tells, or the first one it tells in short
        rest = tuple(line for line in body if line not in (*told, screen.ledger))
        rest += (screen.ledger,) if screen.ledger else ()
        return replace(screen, title=title, big="", picture=None, die=die,
                       body=(*first, *footer, *rest), footer="", more="", glance="",
                       essential=len(first) + 1 + int(hints))
    read = len(body) + int(len(footer_rows(screen)) > 1)
    return replace(screen, title=title, big="", picture=None, die=die,
                   body=(*body, *footer), footer="", more="",
                   essential=read if screen.essential else 0)


def _chips_not_alone(screen: Screen, layout: Layout, fonts: Fonts) -> Screen:
    """A result whose page 1 would hold only the mover's chips (the money line after
    them too long to share it: seven players' "Player 5 +2, others −1, Player 3 0,
    Player 4 0") has them after its essentials instead: page 1 then says who paid and
    got what, the mover among them, where it said only the mover's chips and "more"."""
    essential = screen.body[:screen.essential]
    if len(essential) < 2 or essential[0] != screen.ledger:
        return screen
    where = box(layout, screen, fonts)  # as ``paged`` lays them: the second line starts
    width, room = body_width(screen, where), max(1, body_rows(screen, where))  # page 2
    chips, after = (len(wrap(line, width, fonts)) for line in essential[:2])  # where the
    if chips + after <= room:  # two do not fit one page (two lines wrapped, not the body
        return screen          # paged: this runs at every fit of a result)
    return replace(screen, body=(*essential[1:], screen.ledger,
                                 *screen.body[screen.essential:]))


def body_rows(screen: Screen, where: Box = Box()) -> int:
    rows = rows_fitting(where.height, where.line)
    return rows - bool(screen.title) - len(footer_rows(screen)) - (2 if screen.big else 0)


def body_width(screen: Screen, where: Box = Box()) -> int:
    return where.width - (PICTURE + 4 if screen.picture else 0)


def wrap(text: str, width: int, fonts: Fonts) -> list[str]:
    """Break ``text`` into rows no wider than ``width`` pixels, between phrases only
    (``breaks``); a phrase longer than a row is cut, never before a small kana."""
    rows: list[str] = []
    for paragraph in text.split("\n"):
        row = ""
        for chunk in chunks(paragraph):
            candidate = row + chunk
            if fonts.width(candidate.rstrip()) <= width:
                row = candidate
                continue
            if row.strip():  # a separator the row ends on is the break itself: not drawn
                rows.append(_unseparated(row))  # ("Ana +3" | "Cid (Friday) +1")
            row = chunk.lstrip()
            while fonts.width(row) > width:  # a phrase longer than the row: part it
                cut = _after_colon(row, width, fonts) or cut_at(row, _fit(row, width, fonts))
                rows.append(row[:cut].rstrip())
                row = row[cut:].lstrip()
        rows.append(row.rstrip())
    return rows


def _unseparated(row: str) -> str:
    """``row`` without the separator (·) it ends on where the line breaks after it: a
    row that ended in a dangling dot read as if something were missing."""
    row = row.rstrip()
    return row[:-1].rstrip() if row.endswith(SEPARATOR) and len(row) > 1 else row


def _after_colon(text: str, width: int, fonts: Fonts) -> int:
    """Where a phrase too long for a row parts best: after its last ": " that leaves a
    head that fits ("Mjesto 3:" | "43 → 45 → 43": a move is never cut); 0 if none."""
    cuts = [m.end() for m in re.finditer(r": ", text)
            if fonts.width(text[:m.start() + 1]) <= width]
    return cuts[-1] if cuts else 0


def _fit(text: str, width: int, fonts: Fonts) -> int:
    for n in range(len(text), 0, -1):
        if fonts.width(text[:n]) <= width:
            return n
    return 0


def paged(screen: Screen, fonts: Fonts, where: Box = Box()) -> list[list[tuple[int, str]]]:
    """The body, wrapped, in pages: each row with the index of the body line it is from.

    A page ends only between lines: a line (a sentence: a move, a payment, a
    standing) that does not fit the rest of a page starts the next one whole. Only
    a line longer than a whole page is parted across pages."""
    per_page = max(1, body_rows(screen, where))
    width = body_width(screen, where)
    all_pages: list[list[tuple[int, str]]] = [[]]
    for index, line in enumerate(screen.body):
        rows = wrap(line, width, fonts)
        page = all_pages[-1]
        if page and len(page) + len(rows) > per_page:
            all_pages.append(page := [])
        for row in rows:
            if len(page) == per_page:
                all_pages.append(page := [])
            page.append((index, row))
    if screen.qr:  # the QR code: a page of its own, after the text
        all_pages.append([])
    return all_pages


def pages(screen: Screen, fonts: Fonts, where: Box = Box()) -> list[list[str]]:
    """The body, wrapped, in pages of as many rows as fit (``paged``'s rows)."""
    return [[row for _, row in page] for page in paged(screen, fonts, where)]


def page_count(screen: Screen, fonts: Fonts, layout: Layout = CLASSIC) -> int:
    """How many pages the screen has on this layout."""
    shown = fit(screen, layout, fonts)
    return len(pages(shown, fonts, box(layout, shown, fonts)))


def essential_page(screen: Screen, fonts: Fonts, layout: Layout = CLASSIC) -> int:
    """The last page holding one of the body's ``essential`` lines (0: the first)."""
    screen = fit(screen, layout, fonts)
    return _last_essential(screen, paged(screen, fonts, box(layout, screen, fonts)))


def _last_essential(screen: Screen, laid: list[list[tuple[int, str]]]) -> int:
    """Of the pages ``paged`` laid out, the last holding an essential line (0: none)."""
    if not screen.essential:
        return 0
    return max(n for n, page in enumerate(laid)
               if any(index < screen.essential for index, _ in page))


def page_footer(screen: Screen, page: int, laid: list[list[tuple[int, str]]]) -> list[str]:
    """The footer of page ``page`` of ``laid`` (``paged``'s pages): the prompt, or (on a
    page before the last one a press must not skip, where a press only turns the page)
    the word for "more"."""
    if screen.more and page < _last_essential(screen, laid):
        return [screen.more]
    return footer_rows(screen)


@dataclass(frozen=True)
class Page:
    """One page as the panel draws it: its title, body rows and footer rows."""

    title: str
    rows: tuple[str, ...]
    footer: tuple[str, ...]

    def drawn(self) -> Page:
        """The page's texts as the panel draws them: a no-break space is a space."""
        def plain(texts: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(text.replace(NO_BREAK, " ") for text in texts)

        return Page(self.title.replace(NO_BREAK, " "), plain(self.rows), plain(self.footer))

    def framed(self, number: int = 1, count: int = 1) -> list[str]:
        """The page as lines of text, as drawn, page ``number`` of ``count``."""
        page = self.drawn()
        head = f"┌ {page.title}" + (f"   [{number}/{count}]" if count > 1 else "")
        return [head, *(f"│ {row}" for row in page.rows), *(f"└ {row}" for row in page.footer)]


def shown(screen: Screen, fonts: Fonts, layout: Layout = CLASSIC) -> list[Page]:
    """Every page of ``screen`` on this panel, as text: what ``render`` draws."""
    screen = fit(screen, layout, fonts)
    where = box(layout, screen, fonts)
    laid = paged(screen, fonts, where)
    bar = title_bar(screen, fonts, len(laid), where.width)
    title = clip(screen.title, bar.room, fonts) if screen.title else screen.big
    return [Page(title, tuple(row for _, row in rows),
                 tuple(clip(row, where.width, fonts) for row in page_footer(screen, n, laid)))
            for n, rows in enumerate(laid)]


@dataclass(frozen=True)
class TitleBar:
    """Where things go in the title bar: the left edges of the badge and the right edges
    of the page dots and the small die (None: not shown), and the pixels left for the
    title."""

    badge: int | None
    dots: int | None
    die: int | None
    room: int


def title_bar(screen: Screen, fonts: Fonts, page_count: int, width: int = 128) -> TitleBar:
    """The title is whole first: a long one drops the dots, then the die, then the badge
    (a demo's "DEMO": the title screen says the die is seeded), never is it cut with
    "…" for them."""
    free = width - 4 - fonts.width(screen.title, bold=True)
    badge = fonts.width(screen.badge) + 4 if screen.badge else 0
    show_badge = bool(badge) and badge <= free
    if show_badge:
        free -= badge
    dots = DOT * page_count + 4 if page_count > 1 and not show_badge else 0
    die = DIE + 4 if screen.die else 0
    show_dots, show_die = (bool(dots), bool(die)) if dots + die <= free else (
        False, bool(die) and die <= free)
    right = width - 2
    badge_at = right - (badge - 4) if show_badge else None
    if badge_at is not None:
        right = badge_at - 4
    dots_at = right if show_dots else None
    if show_dots:
        right -= DOT * page_count - 2 + 4
    die_at = right if show_die else None
    if show_die:
        right -= DIE - 1 + 4
    return TitleBar(badge_at, dots_at, die_at, right - 2)


def clipped(screen: Screen, fonts: Fonts, layout: Layout = CLASSIC) -> list[str]:
    """The texts of ``screen`` that would be cut short with "…" (a design fault)."""
    screen = fit(screen, layout, fonts)
    where = box(layout, screen, fonts)
    cut = []
    if screen.title and fonts.width(screen.title, bold=True) > title_bar(
            screen, fonts, len(pages(screen, fonts, where)), where.width).room:
        cut.append(screen.title)
    cut += [row for row in footer_rows(screen) if fonts.width(row) > where.width]
    return cut


DOT = 5  # a page dot and its gap


DIE = 11  # the small die in a title bar


def clip(text: str, width: int, fonts: Fonts) -> str:
    if fonts.width(text) <= width:
        return text
    return text[:_fit(text, width - fonts.width("…"), fonts)] + "…"
