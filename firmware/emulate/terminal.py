"""The panel drawn in a terminal at its true resolution, two pixel rows per character.

Any size; a colour or greyscale panel in the terminal's own colours where it
has 24-bit colour (COLORTERM), else each pixel lit or not, as a monochrome
panel shows it. A terminal too small for that (an 80x24 one, for a 128x64 panel)
gets the panel in braille cells, 2x4 pixels a character, each pixel lit or not, and
under them, where the lines are there, the page as text: a letter in braille is some
3x2 cells of dots, and "č" beside "c" was a guess (issue 61, item 11).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from typing import TextIO

from PIL import Image

_BLOCKS = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}
_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
"""A braille cell's dot for each pixel of its 2x4: ``_DOTS[row][column]`` (Unicode's
numbering: dots 1-3 and 7 down the left, 4-6 and 8 down the right)."""


def true_colour() -> bool:
    """Whether the terminal says it draws 24-bit colour."""
    return os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit")


def colour_blocks(image: Image.Image) -> list[str]:
    """A colour image as lines of upper half-blocks: the top pixel the foreground, the
    bottom one the background, in 24-bit colour."""
    rgb = image.convert("RGB")
    width, height = rgb.size
    data = rgb.tobytes()
    lines = []
    for y in range(0, height - 1, 2):
        cells = []
        for x in range(width):
            top, bottom = (y * width + x) * 3, ((y + 1) * width + x) * 3
            cells.append("\x1b[38;2;{};{};{}m\x1b[48;2;{};{};{}m▀".format(
                *data[top:top + 3], *data[bottom:bottom + 3]))
        lines.append("".join(cells) + "\x1b[0m")
    return lines


def half_blocks(image: Image.Image) -> list[str]:
    """The image as lines of half-block characters (128x64: 32 lines of 128)."""
    width, height = image.size
    if image.mode != "1":  # any lit colour is lit (no dithering)
        image = image.convert("L").point(lambda v: 255 if v else 0, "1")
    data = image.tobytes()
    stride = (width + 7) // 8

    def lit(x: int, y: int) -> int:
        return data[y * stride + x // 8] >> (7 - x % 8) & 1

    return ["".join(_BLOCKS[lit(x, y), lit(x, y + 1)] for x in range(width))
            for y in range(0, height, 2)]


def braille(image: Image.Image) -> list[str]:
    """The image as lines of braille cells, 2x4 pixels a character (128x64: 16 lines of
    64), each pixel lit or not."""
    width, height = image.size
    grey = image.convert("L")
    data = grey.tobytes()

    def cell(x: int, y: int) -> str:
        bits = 0
        for row in range(4):
            for column in range(2):
                px, py = x + column, y + row
                if px < width and py < height and data[py * width + px]:
                    bits |= _DOTS[row][column]
        return chr(0x2800 + bits)

    return ["".join(cell(x, y) for x in range(0, width, 2)) for y in range(0, height, 4)]


def _terminal_size() -> tuple[int, int]:
    columns, lines = shutil.get_terminal_size()
    return columns, lines


class TerminalPanel:
    """Redraws only the lines that changed; shows the panel dimmed or blank as it is."""

    def __init__(self, out: TextIO, help_line: str = "",
                 size: Callable[[], tuple[int, int]] | None = None,
                 colour: bool | None = None) -> None:
        self.out = out
        self.colour = true_colour() if colour is None else colour
        self.help_line = help_line
        self.size = size or _terminal_size
        self._lines: list[str] = []
        self._shown: tuple[Image.Image, bool, bool] | None = None
        self._too_small: tuple[int, int] | None = None  # the size said to be too small
        self._whole: bool | None = None  # drawn pixel for pixel (True) or in braille
        self._words: list[str] = []  # the page as text, said under a braille panel
        self._said: list[str] = []  # the text lines on the terminal now
        self.out.write("\x1b[?25l\x1b[2J")  # hide the cursor, clear the screen

    def words(self, lines: list[str]) -> None:
        """The page the panel shows, as text (``Page.framed``): written under the panel
        where it is drawn in braille and the terminal has the lines for it."""
        self._words = list(lines)
        if self._shown is not None and self._whole is False:
            self._say(self.size())

    def resize(self) -> None:
        """The terminal changed size (SIGWINCH): clear it and draw the panel again, whole
        or in braille as it now fits."""
        self._lines, self._too_small, self._whole = [], None, None
        self.out.write("\x1b[2J")
        if self._shown is not None:
            self.draw(*self._shown)

    def draw(self, image: Image.Image, on: bool = True, dim: bool = False) -> None:
        self._shown = (image, on, dim)
        width, height = image.size
        full = (width + 2, height // 2 + 3)  # the frame, and the help line
        small = ((width + 1) // 2 + 2, (height + 3) // 4 + 3)  # the same in braille
        have = self.size()
        fits = have[0] >= full[0] and have[1] >= full[1]
        if not fits and (have[0] < small[0] or have[1] < small[1]):
            if self._too_small != have:  # said once for each size, not at every frame
                self._too_small, self._lines = have, []
                self.out.write(f"\x1b[2J\x1b[1;1HMake the terminal at least {small[0]}×"
                               f"{small[1]} to see the panel ({full[0]}×{full[1]} to see "
                               f"every pixel; it is {have[0]}×{have[1]}).")
                self.out.flush()
            return
        if self._too_small is not None or self._whole is not fits:
            # after the note, or drawn the other way: from a clear screen
            self._too_small, self._whole, self._lines = None, fits, []
            self.out.write("\x1b[2J")
        columns = width if fits else small[0] - 2
        if not on:
            lines = [" " * columns] * ((height // 2) if fits else small[1] - 3)
        elif not fits:
            lines = braille(image)
        elif self.colour and image.mode != "1":
            lines = colour_blocks(image)
        else:
            lines = half_blocks(image)
        style = "\x1b[2m" if dim else "\x1b[22m"
        parts = []
        if not self._lines:
            parts.append("\x1b[1;1H┌" + "─" * columns + "┐")
        for row, line in enumerate(lines):
            if row >= len(self._lines) or self._lines[row] != style + line:
                parts.append(f"\x1b[{row + 2};1H│{style}{line}\x1b[22m│")
        if not self._lines:
            parts.append(f"\x1b[{len(lines) + 2};1H└" + "─" * columns + "┘")
            parts.append(f"\x1b[{len(lines) + 3};1H{self.help_line}")
        redrawn = not self._lines
        self._lines = [style + line for line in lines]
        self.out.write("".join(parts))
        if not fits:
            if redrawn:
                self._said = []
            self._say(have)
        self.out.flush()

    def _say(self, have: tuple[int, int]) -> None:
        """The page's text under the braille panel and its help line: as many of its lines
        as the terminal has below them, each cut to its width; only the lines changed."""
        top = len(self._lines) + 4  # the frame's two lines, the help line, then the text
        room = max(0, have[1] - top + 1)
        said = [line[:have[0]].ljust(min(have[0], 80)) for line in self._words[:room]]
        said += [" " * min(have[0], 80)] * (len(self._said) - len(said))  # what was there
        parts = [f"\x1b[{top + row};1H{line}" for row, line in enumerate(said)
                 if row >= len(self._said) or self._said[row] != line]
        self._said = [line for line in said if line.strip()]
        self.out.write("".join(parts))
        self.out.flush()

    def close(self) -> None:
        below = len(self._lines) + 4 + len(self._said)
        self.out.write(f"\x1b[{below};1H\x1b[?25h\n")
        self.out.flush()
