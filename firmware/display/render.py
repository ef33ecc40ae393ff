"""Drawing: a Screen (what to show) becomes the panel's image. Pure and repeatable.

One drawing for every panel: ``layout`` says the panel's size class (see
``firmware.display.layout``); the 128x64 classic page is the default.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from PIL import Image, ImageChops, ImageDraw

from firmware.display.board import draw_board
from firmware.display.breaks import chunks, cut_at
from firmware.display.fonts import NO_BREAK, Fonts
from firmware.display.layout import (
    BACK,
    CLASSIC,
    DIM,
    INK,
    LINE,
    SEAT_INK,
    Layout,
    Size,
    rows_fitting,
)
from firmware.display.screen import Picture, Screen

PICTURE = 30  # pictures are 30x30, at the right of the body


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
    """The screen as the size class tells: on a strip, the essentials that are news
    (not a ledger no chip moved) and then the prompt, two lines at a time (the story is
    dropped; a menu keeps its cursor). With ``fonts``, a body that would page, or wrap a
    line, is replaced by its ``compact`` form, if any."""
    if fonts is not None and screen.compact:
        full = fit(replace(screen, compact=()), layout)
        laid = pages(full, fonts, box(layout, full, fonts))
        whole = len(laid) == 1 and len(laid[0]) == len(full.body)
        screen = replace(screen, body=screen.body if whole else screen.compact, compact=())
    if layout.size is not Size.STRIP:
        return screen
    if screen.cursor >= 0:  # a menu: the cursor's row and the next (or the one before)
        rows = screen.body
        at = max(0, screen.cursor)
        start = max(0, min(at, len(rows) - 2))
        return replace(screen, body=rows[start:start + 2], footer="", cursor=-1)
    body = screen.body[:screen.essential] if screen.essential else screen.body
    title = screen.title or screen.big
    die = screen.picture.value if screen.picture and isinstance(screen.picture.value, int) \
        else screen.die  # a tumbling die: small, in the title bar
    # The footer as the body's last line: a choice's two key hints (what the press would
    # choose) one line, on one page, and a press acts only once it has been on the
    # panel; a prompt may be skipped.
    footer = (screen.footer,) if screen.footer else ()
    read = len(body) + int(len(footer_rows(screen)) > 1)
    return replace(screen, title=title, big="", picture=None, die=die,
                   body=(*body, *footer), footer="", more="",
                   essential=read if screen.essential else 0)


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
            if row.strip():
                rows.append(row.rstrip())
            row = chunk.lstrip()
            while fonts.width(row) > width:  # a phrase longer than the row: part it
                cut = _after_colon(row, width, fonts) or cut_at(row, _fit(row, width, fonts))
                rows.append(row[:cut].rstrip())
                row = row[cut:].lstrip()
        rows.append(row.rstrip())
    return rows


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
    title = _clip(screen.title, bar.room, fonts) if screen.title else screen.big
    return [Page(title, tuple(row for _, row in rows),
                 tuple(_clip(row, where.width, fonts) for row in page_footer(screen, n, laid)))
            for n, rows in enumerate(laid)]


def render(screen: Screen, fonts: Fonts, page: int = 0, layout: Layout = CLASSIC,
           ) -> Image.Image:
    """The image of ``screen`` for the panel of ``layout`` (in its mode and size); a
    body longer than the panel shows page ``page``."""
    canvas = Image.new("L", layout.canvas, BACK)
    draw = ImageDraw.Draw(canvas)
    draw.fontmode = "1"  # bitmap fonts, never smoothed: a lit pixel or not
    shown = fit(screen, layout, fonts)
    where = box(layout, shown, fonts)
    _draw_screen(draw, shown, fonts, page, where, dim=layout.mode != "1")
    if layout.size is Size.WIDE and screen.side:
        side = Screen(title=screen.side_title, body=screen.side)
        right = Image.new("L", layout.column, BACK)
        side_draw = ImageDraw.Draw(right)
        side_draw.fontmode = "1"
        _draw_screen(side_draw, side, fonts, 0, Box(*layout.column), dim=False)
        canvas.paste(right, (layout.column[0], 0))
        draw.line((layout.column[0] - 1, 0, layout.column[0] - 1, layout.canvas[1]), fill=DIM)
    if where.height < layout.column[1]:
        draw_board(draw, screen.board, screen.seat, 0, where.height + 1, layout.canvas[0],
                   layout.canvas[1] - where.height - 1)
    if screen.outline:  # every edge's pixels lit: a panel shifted or cut shows it
        draw.rectangle((0, 0, layout.canvas[0] - 1, layout.canvas[1] - 1), outline=INK)
    return _finish(canvas, layout)


@functools.lru_cache(maxsize=64)
def drawn(screen: Screen, fonts: Fonts, page: int = 0, layout: Layout = CLASSIC) -> Image.Image:
    """``render``, remembered: screens repeat (the tumbling die, paging), so each is drawn
    once. The images are never changed by those who get them."""
    return render(screen, fonts, page, layout)


@functools.lru_cache(maxsize=16)
def picture_box(screen: Screen, fonts: Fonts, page: int = 0,
                layout: Layout = CLASSIC) -> tuple[int, int, int, int] | None:
    """Where ``drawn`` puts the screen's picture, in the panel's pixels (left, top, right,
    bottom, inclusive): where it differs from the same screen without it. None if it has
    none, or it is not drawn there (a strip's die goes into the title bar)."""
    if screen.picture is None:
        return None
    box = ImageChops.difference(drawn(screen, fonts, page, layout).convert("L"), drawn(
        replace(screen, picture=None), fonts, page, layout).convert("L")).getbbox()
    return None if box is None else (box[0], box[1], box[2] - 1, box[3] - 1)


def _finish(canvas: Image.Image, layout: Layout) -> Image.Image:
    """The drawn inks as the panel's pixels, at the panel's size."""
    if layout.scale > 1:
        canvas = canvas.resize((layout.width, layout.height), Image.Resampling.NEAREST)
    if layout.mode == "1":
        return canvas.point(lambda v: 255 if v else 0, "1")
    lut = layout.palette()
    return Image.merge("RGB", [canvas.point(lut[i * 256:(i + 1) * 256]) for i in range(3)])


def _draw_screen(draw: ImageDraw.ImageDraw, screen: Screen, fonts: Fonts, page: int,
                 where: Box, dim: bool) -> None:
    width, height, line = where.width, where.height, where.line
    laid = paged(screen, fonts, where)
    page %= len(laid)
    if screen.qr and page == len(laid) - 1:
        _qr(draw, screen.qr, where)
        return
    y = 0
    if screen.title:
        bar = SEAT_INK + screen.seat if screen.seat else INK
        up = 2 if where.compact else 0  # a strip's bar: rows 0-9, its text 2 higher
        draw.rectangle((0, 0, width - 1, line - 1 if up else LINE), fill=bar)
        layout = title_bar(screen, fonts, len(laid), width)
        if layout.badge is not None:
            fonts.draw(draw, layout.badge, 1 - up, screen.badge, fill=BACK)
        if layout.dots is not None:  # dots, not "1/4": no number beside the title's numbers
            _dots(draw, layout.dots, 5 - up // 2, len(laid), page, fill=BACK, back=bar)
        if layout.die is not None:
            _small_die(draw, layout.die, screen.die, 1 - up)
        fonts.draw(draw, 2, 1 - up, _clip(screen.title, layout.room, fonts), fill=BACK,
                   bold=True)
        y = line if up else LINE + 2
    if screen.big:
        big = fonts.big
        big_width = int(big.font.getlength(screen.big))
        draw.text(((width - big_width) // 2, y + big.dy), screen.big, font=big.font, fill=INK)
        y += 2 * LINE + 2
    for index, row in laid[page]:  # the story after the money: dimmer
        story = dim and screen.essential and index >= screen.essential
        fonts.draw(draw, 0, y, row, fill=DIM if story else INK)
        y += line
    footer = page_footer(screen, page, laid)
    if footer:
        top = height - LINE * len(footer) - 1
        draw.line((0, top - 1, width - 1, top - 1), fill=INK)
        for n, row in enumerate(footer):
            fonts.draw(draw, 0, top + 1 + n * LINE, _clip(row, width, fonts), fill=INK)
    if screen.picture is not None:
        top = LINE + 3 if screen.title else 2
        if screen.body or screen.big:
            _picture(draw, screen.picture, width - PICTURE - 1, top, screen.tilt)
        else:  # the picture alone: in the middle, on a page's first row (a page panel
            # sends it in as few 8-row pages as it spans: the tumbling die's first frame)
            _picture(draw, screen.picture, (width - PICTURE) // 2, (top + 11) // 8 * 8,
                     screen.tilt)


def _qr(draw: ImageDraw.ImageDraw, text: str, where: Box) -> None:
    """``text`` as a QR code (segno), as large as the panel takes in whole pixels to a
    module, in the middle: dark modules on a lit ground, as a camera expects, with the
    quiet zone the standard asks for (two modules, where the panel has no more room)."""
    import segno  # only when a phone pairs

    matrix = segno.make(text, error="l", micro=False).matrix
    modules = len(matrix)
    room = min(where.width, where.height)
    scale, border = max((room // (modules + 2 * quiet), quiet) for quiet in (4, 2, 1))
    scale = max(1, scale)
    size = (modules + 2 * border) * scale
    left, top = (where.width - size) // 2, (where.height - size) // 2
    draw.rectangle((left, top, left + size - 1, top + size - 1), fill=INK)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = left + (border + x) * scale, top + (border + y) * scale
                draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=BACK)


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


def _dots(draw: ImageDraw.ImageDraw, right: int, y: int, count: int, page: int,
          fill: int, back: int) -> None:
    """Page dots ending at ``right``, centred on row ``y``, in ``fill`` on ``back``
    (the current page solid, the others rings)."""
    left = right - DOT * count + 2
    for n in range(count):
        x = left + n * DOT
        draw.rectangle((x - 1, y - 2, x + 3, y + 2), fill=back)
        draw.rectangle((x, y - 1, x + 2, y + 1), fill=fill if n == page else None,
                       outline=fill)


def _small_die(draw: ImageDraw.ImageDraw, right: int, face: int, top: int = 1) -> None:
    left = right - DIE + 1
    draw.rounded_rectangle((left, top, right, top + DIE - 1), radius=2, fill=BACK)
    for col, row in _PIPS[face]:
        x, y = left + 2 + col * 3, top + 2 + row * 3
        draw.rectangle((x, y, x + 1, y + 1), fill=INK)


def _clip(text: str, width: int, fonts: Fonts) -> str:
    if fonts.width(text) <= width:
        return text
    return text[:_fit(text, width - fonts.width("…"), fonts)] + "…"


_PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
         4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
         6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}

# 15x15 pictures, drawn at twice the size.
_ART = {
    Picture.PARROT: (
        "......###......", ".....#####.....", "....##.####....", "....########...",
        "....#####..##..", ".....####...#..", "....######.....", "...########....",
        "...#########...", "...#########...", "....########...", ".....#######...",
        "......#.##.##..", ".....##..#..##.", "..###########..",
    ),
    Picture.GALLOWS: (
        "#############..", "##.........#...", "##.........#...", "##........###..",
        "##.......#...#.", "##........###..", "##.........#...", "##........###..",
        "##.......#.#.#.", "##.........#...", "##........#.#..", "##.......#...#.",
        "##.............", "##.............", "#######........",
    ),
    Picture.HOME: (
        ".......#.......", "......###......", ".....#####.....", "....#######....",
        "...#########...", "..###########..", ".#############.", "..#.........#..",
        "..#.###.###.#..", "..#.#.#.#.#.#..", "..#.###.###.#..", "..#.........#..",
        "..#....###...#.", "..#....#.#...#.", "###############",
    ),
}


def _picture(draw: ImageDraw.ImageDraw, picture: Picture, x: int, y: int, tilt: int) -> None:
    if isinstance(picture.value, int):
        x += tilt
        y += abs(tilt) // 2
        draw.rounded_rectangle((x, y, x + PICTURE - 1, y + PICTURE - 1), radius=4,
                               outline=INK, fill=BACK)
        for col, row in _PIPS[picture.value]:
            cx, cy = x + 7 + col * 8, y + 7 + row * 8
            draw.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=INK)
        return
    for row, line in enumerate(_ART[picture]):
        for col, cell in enumerate(line):
            if cell != ".":
                draw.rectangle((x + col * 2, y + row * 2, x + col * 2 + 1, y + row * 2 + 1),
                               fill=INK)
