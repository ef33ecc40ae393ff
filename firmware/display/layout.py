"""Size classes: how one screen model becomes pixels on a panel of any size luma drives.

The screen (what to show, in what order) is the same on every panel; a Layout
says how much of it fits and where: a 128x32 strip shows the essentials two
lines at a time, 128x64 is the classic page, 256x64 puts the standings beside
the result, 128x128 and up show a whole result on one page above a map of the
board. Panels of 200 pixels and more draw every pixel twice (crisp bitmap
fonts, readable across a table). Colour and greyscale panels dim the story
and colour each seat as its LED; a monochrome panel shows the same layout.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from firmware.display.breaks import wide

LINE = 12  # pixels per text row (the fonts are drawn to it)
STRIP_LINE = 10  # on a strip: two rows under the title in 32 pixels (see Layout.line)


class Size(enum.Enum):
    """The size classes."""

    STRIP = "strip"  # 128x32: title and one row
    CLASSIC = "classic"  # 128x64
    WIDE = "wide"  # 256x64: the result and the standings side by side
    SQUARE = "square"  # 128x128 and up: a whole result on one page, the board map below


# Inks: what the render draws with, as values of an "L" image; a Layout's palette
# turns them into the panel's pixels (lit or not, grey, or a colour).
BACK, INK, DIM = 0, 1, 2
SEAT_INK = 10  # + seat number: that seat's colour
SEAT_COLOURS = {1: ("red", (255, 64, 64)), 2: ("green", (64, 220, 64)),
                3: ("yellow", (255, 220, 0)), 4: ("blue", (80, 140, 255)),
                5: ("white", (255, 255, 255)), 6: ("orange", (255, 150, 30)),
                7: ("cyan", (0, 215, 215)), 8: ("magenta", (235, 90, 235))}
"""Each seat's colour on a colour panel, and the colour of its LED (hardware guide): every
seat there can be (a seat without one had a black title bar with black text)."""
WHITE, GREY = (255, 255, 255), (150, 150, 150)
MAP_ROWS = 5  # the board map: 45 squares in 5 rows of 9, the path turning at each end


@dataclass(frozen=True)
class Layout:
    """A panel's pixels (``width`` x ``height`` in luma's ``mode``) and how screens fit."""

    width: int = 128
    height: int = 64
    mode: str = "1"  # "1" monochrome, "RGB" colour; greyscale panels take "RGB" too
    grey: bool = False  # a greyscale panel: no colours, but dim is dimmer

    @property
    def size(self) -> Size:
        if self.height < 64:
            return Size.STRIP
        if self.height < 96:
            return Size.WIDE if self.width >= 256 else Size.CLASSIC
        return Size.SQUARE

    @property
    def line(self) -> int:
        """Pixels per text row. A strip packs Terminus 12 at 10: its glyphs' ink spans
        12 rows only where a descender meets a capital's accent below it (g over Š),
        which then share a row; everything else keeps a row of space between."""
        return STRIP_LINE if self.size is Size.STRIP else LINE

    @property
    def scale(self) -> int:
        """Pixels per drawn pixel: 2 on panels whose shorter side is 200 or more."""
        return 2 if min(self.width, self.height) >= 200 else 1

    @property
    def canvas(self) -> tuple[int, int]:
        """The size the screen is drawn at (before scaling)."""
        return self.width // self.scale, self.height // self.scale

    @property
    def column(self) -> tuple[int, int]:
        """Where the screen's own text goes: the whole canvas, or its left half (WIDE)."""
        width, height = self.canvas
        return (width // 2, height) if self.size is Size.WIDE else (width, height)

    @property
    def board_height(self) -> int:
        """Pixels at the bottom of the canvas for the board map (0: none)."""
        width, height = self.canvas
        if self.size is not Size.SQUARE or height < 120:
            return 0
        return MAP_ROWS * (min(width // 9, 14) * 2 // 3) + 2

    @property
    def colour(self) -> bool:
        return self.mode != "1" and not self.grey

    def palette(self) -> list[int]:
        """A 256-entry lookup per channel, flattened R, G, B: ink value to the panel's pixel."""
        table = [(0, 0, 0)] * 256
        table[INK] = WHITE
        table[DIM] = GREY if self.mode != "1" else WHITE
        for seat, (_, rgb) in SEAT_COLOURS.items():
            table[SEAT_INK + seat] = rgb if self.colour else WHITE
        return [c[0] for c in table] + [c[1] for c in table] + [c[2] for c in table]


CLASSIC = Layout()


def rows_fitting(height: int, line: int = LINE) -> int:
    """Text rows of ``line`` pixels in ``height`` pixels."""
    return (height - 2) // line


NAME_LETTERS = 12  # the longest seat name, in letters (Japanese: 9 characters, as wide)


def name_fits(name: str) -> bool:
    """Whether ``name`` is short enough for every title and prompt: 12 letters, or 9
    Japanese characters (8 pixels wide to a letter's 6), or a mix as wide."""
    return sum(4 if wide(c) else 3 for c in name) <= NAME_LETTERS * 3
