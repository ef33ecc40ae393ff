"""Drawing: a Screen (what to show) becomes the panel's image. Pure and repeatable.

One drawing for every panel: ``layout`` says the panel's size class (see
``firmware.display.layout``); the 128x64 classic page is the default.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from PIL import Image, ImageChops, ImageDraw

from firmware.display.board import draw_board
from firmware.display.fonts import Fonts
from firmware.display.layout import (
    BACK,
    CLASSIC,
    DIM,
    INK,
    LINE,
    SEAT_INK,
    Layout,
    Size,
)
from firmware.display.paging import (
    DIE,
    DOT,
    PICTURE,
    Box,
    box,
    clip,
    fit,
    page_footer,
    paged,
    title_bar,
)
from firmware.display.screen import Picture, Screen


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
        fonts.draw(draw, 2, 1 - up, clip(screen.title, layout.room, fonts), fill=BACK,
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
            fonts.draw(draw, 0, top + 1 + n * LINE, clip(row, width, fonts), fill=INK)
    if screen.picture is not None:
        top = LINE + 3 if screen.title else 2
        if screen.body or screen.big:
            _picture(draw, screen.picture, width - PICTURE - 1, top, screen.tilt)
        elif where.compact:  # a strip: the die under its title bar, as large as fits
            size = height - line - 2
            _picture(draw, screen.picture, (width - size) // 2, line + 1, screen.tilt, size)
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


def _picture(draw: ImageDraw.ImageDraw, picture: Picture, x: int, y: int, tilt: int,
             size: int = PICTURE) -> None:
    if isinstance(picture.value, int):  # a die of ``size`` pixels, its pips a third apart
        x += tilt
        y += abs(tilt) // 2 if size == PICTURE else 0  # (a strip's has no row to spare)
        draw.rounded_rectangle((x, y, x + size - 1, y + size - 1), radius=size // 7,
                               outline=INK, fill=BACK)
        step = round(size * 0.28)  # 8 on the 30-pixel die, 6 on a strip's 20
        edge = size // 2 - step
        for col, row in _PIPS[picture.value]:
            cx, cy = x + edge + col * step, y + edge + row * step
            draw.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=INK)
        return
    for row, line in enumerate(_ART[picture]):
        for col, cell in enumerate(line):
            if cell != ".":
                draw.rectangle((x + col * 2, y + row * 2, x + col * 2 + 1, y + row * 2 + 1),
                               fill=INK)
