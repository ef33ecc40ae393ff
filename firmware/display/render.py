"""Drawing: a Screen (what to show) becomes a 128x64 1-bit image. Pure and repeatable."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from PIL import Image, ImageDraw

from firmware.display.breaks import chunks, cut_at
from firmware.display.device import HEIGHT, WIDTH
from firmware.display.fonts import LINE, Fonts

PICTURE = 30  # pictures are 30x30, at the right of the body


class Picture(enum.Enum):
    """The small pictures a screen may carry."""

    DIE_1 = 1
    DIE_2 = 2
    DIE_3 = 3
    DIE_4 = 4
    DIE_5 = 5
    DIE_6 = 6
    PARROT = "parrot"
    GALLOWS = "gallows"
    HOME = "home"
    PALM = "palm"

    @classmethod
    def die(cls, face: int) -> Picture:
        return cls(face)


@dataclass(frozen=True)
class Screen:
    """What the table shows: a title bar, a body that wraps and pages, a prompt."""

    title: str = ""
    body: tuple[str, ...] = ()
    footer: str = ""
    picture: Picture | None = None
    badge: str = ""  # a word at the right of the title bar: RECALL, DEMO, 2/3
    big: str = ""  # one large word in the middle (the title screen)
    tilt: int = 0  # picture offset, for a tumbling die
    die: int = 0  # a small die showing this face in the title bar (a result)
    essential: int = 0  # the body's first lines a press must not skip (a result's money)


def footer_rows(screen: Screen) -> list[str]:
    """The footer's rows: one prompt, or two key hints (short press, long press)."""
    return screen.footer.split("\n") if screen.footer else []


def body_rows(screen: Screen) -> int:
    rows = (HEIGHT - 2) // LINE
    return rows - bool(screen.title) - len(footer_rows(screen)) - (2 if screen.big else 0)


def body_width(screen: Screen) -> int:
    return WIDTH - (PICTURE + 4 if screen.picture else 0)


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
            while fonts.width(row) > width:  # a phrase longer than the row: cut it
                cut = cut_at(row, _fit(row, width, fonts))
                rows.append(row[:cut])
                row = row[cut:]
        rows.append(row.rstrip())
    return rows


def _fit(text: str, width: int, fonts: Fonts) -> int:
    for n in range(len(text), 0, -1):
        if fonts.width(text[:n]) <= width:
            return n
    return 0


def pages(screen: Screen, fonts: Fonts) -> list[list[str]]:
    """The body, wrapped, in pages of as many rows as fit."""
    rows = [r for line in screen.body for r in wrap(line, body_width(screen), fonts)]
    per_page = max(1, body_rows(screen))
    return [rows[i:i + per_page] for i in range(0, len(rows), per_page)] or [[]]


def essential_page(screen: Screen, fonts: Fonts) -> int:
    """The last page holding one of the body's ``essential`` lines (0: the first)."""
    if not screen.essential:
        return 0
    rows = sum(len(wrap(line, body_width(screen), fonts))
               for line in screen.body[:screen.essential])
    return (rows - 1) // max(1, body_rows(screen))


def render(screen: Screen, fonts: Fonts, page: int = 0) -> Image.Image:
    """The image of ``screen``; a body longer than the panel shows page ``page``."""
    image = Image.new("1", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    all_pages = pages(screen, fonts)
    page %= len(all_pages)
    y = 0
    if screen.title:
        draw.rectangle((0, 0, WIDTH - 1, LINE), fill=1)
        bar = _title_bar(screen, fonts, len(all_pages))
        if screen.badge:
            fonts.draw(draw, bar.badge, 1, screen.badge, fill=0)
        if bar.dots is not None:  # dots, not "1/4": no number beside the title's numbers
            _dots(draw, bar.dots, 5, len(all_pages), page, fill=0)
        if bar.die is not None:
            _small_die(draw, bar.die, screen.die)
        fonts.draw(draw, 2, 1, _clip(screen.title, bar.room, fonts), fill=0, bold=True)
        y = LINE + 2
    if screen.big:
        big = fonts.big
        width = int(big.font.getlength(screen.big))
        draw.text(((WIDTH - width) // 2, y + big.dy), screen.big, font=big.font, fill=1)
        y += 2 * LINE + 2
    for row in all_pages[page]:
        fonts.draw(draw, 0, y, row)
        y += LINE
    footer = footer_rows(screen)
    if footer:
        top = HEIGHT - LINE * len(footer) - 1
        draw.line((0, top - 1, WIDTH - 1, top - 1), fill=1)
        for n, row in enumerate(footer):
            fonts.draw(draw, 0, top + 1 + n * LINE, _clip(row, WIDTH, fonts))
    if screen.picture is not None:
        top = LINE + 3 if screen.title else 2
        if screen.body or screen.big:
            _picture(draw, screen.picture, WIDTH - PICTURE - 1, top, screen.tilt)
        else:  # the picture alone: in the middle
            _picture(draw, screen.picture, (WIDTH - PICTURE) // 2, top + 4, screen.tilt)
    return image


@dataclass(frozen=True)
class _TitleBar:
    """Where things go in the title bar: the badge's left edge, the right edges of the
    page dots and the small die (None: not shown), and the pixels left for the title."""

    badge: int
    dots: int | None
    die: int | None
    room: int


def _title_bar(screen: Screen, fonts: Fonts, page_count: int) -> _TitleBar:
    """The title is whole first: a long one drops the dots, then the die, never is it
    cut with "…" for them."""
    free = WIDTH - 4 - fonts.width(screen.title, bold=True)
    if screen.badge:
        free -= fonts.width(screen.badge) + 4
    dots = DOT * page_count + 4 if page_count > 1 and not screen.badge else 0
    die = DIE + 4 if screen.die else 0
    show_dots, show_die = (bool(dots), bool(die)) if dots + die <= free else (
        False, bool(die) and die <= free)
    right = WIDTH - 2
    badge = right - fonts.width(screen.badge)
    if screen.badge:
        right = badge - 4
    dots_at = right if show_dots else None
    if show_dots:
        right -= DOT * page_count - 2 + 4
    die_at = right if show_die else None
    if show_die:
        right -= DIE - 1 + 4
    return _TitleBar(badge, dots_at, die_at, right - 2)


def clipped(screen: Screen, fonts: Fonts) -> list[str]:
    """The texts of ``screen`` that would be cut short with "…" (a design fault)."""
    cut = []
    if screen.title and fonts.width(screen.title, bold=True) > _title_bar(
            screen, fonts, len(pages(screen, fonts))).room:
        cut.append(screen.title)
    cut += [row for row in footer_rows(screen) if fonts.width(row) > WIDTH]
    return cut


DOT = 5  # a page dot and its gap
DIE = 11  # the small die in a title bar


def _dots(draw: ImageDraw.ImageDraw, right: int, y: int, count: int, page: int,
          fill: int) -> None:
    """Page dots ending at ``right``, centred on row ``y``, in ``fill`` on the other
    colour (the current page solid, the others rings)."""
    left = right - DOT * count + 2
    for n in range(count):
        x = left + n * DOT
        draw.rectangle((x - 1, y - 2, x + 3, y + 2), fill=1 - fill)
        draw.rectangle((x, y - 1, x + 2, y + 1), fill=fill if n == page else None,
                       outline=fill)


def _small_die(draw: ImageDraw.ImageDraw, right: int, face: int) -> None:
    left = right - DIE + 1
    draw.rounded_rectangle((left, 1, right, DIE), radius=2, fill=0)
    for col, row in _PIPS[face]:
        x, y = left + 2 + col * 3, 3 + row * 3
        draw.rectangle((x, y, x + 1, y + 1), fill=1)


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
    Picture.PALM: (
        "....####.......", "..##....##.###.", ".#...##...#...#", "#...#..#.#.....",
        "...#....##.....", "..#.....#......", "........#......", ".......#.......",
        ".......#.......", ".......#.......", "......#........", "......#........",
        "....#####.....~", "~.#########.~~.", "~~~~~~~~~~~~~~~",
    ),
}


def _picture(draw: ImageDraw.ImageDraw, picture: Picture, x: int, y: int, tilt: int) -> None:
    if isinstance(picture.value, int):
        x += tilt
        y += abs(tilt) // 2
        draw.rounded_rectangle((x, y, x + PICTURE - 1, y + PICTURE - 1), radius=4, outline=1,
                               fill=0)
        for col, row in _PIPS[picture.value]:
            cx, cy = x + 7 + col * 8, y + 7 + row * 8
            draw.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=1)
        return
    for row, line in enumerate(_ART[picture]):
        for col, cell in enumerate(line):
            if cell != ".":
                draw.rectangle((x + col * 2, y + row * 2, x + col * 2 + 1, y + row * 2 + 1),
                               fill=1)
