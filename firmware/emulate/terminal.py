"""The panel drawn in a terminal at its true resolution, two pixel rows per character.

Any size; a colour or greyscale panel in the terminal's own colours where it
has 24-bit colour (COLORTERM), else each pixel lit or not, as a monochrome
panel shows it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from typing import TextIO

from PIL import Image

_BLOCKS = {(0, 0): " ", (1, 0): "▀", (0, 1): "▄", (1, 1): "█"}


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
        self._too_small: tuple[int, int] | None = None
        self.out.write("\x1b[?25l\x1b[2J")  # hide the cursor, clear the screen

    def resize(self) -> None:
        """The terminal changed size (SIGWINCH): clear it and draw the panel again whole."""
        self._lines, self._too_small = [], None
        self.out.write("\x1b[2J")
        if self._shown is not None:
            self.draw(*self._shown)

    def draw(self, image: Image.Image, on: bool = True, dim: bool = False) -> None:
        self._shown = (image, on, dim)
        need = (image.size[0] + 2, image.size[1] // 2 + 3)  # the frame, and the help line
        have = self.size()
        if have[0] < need[0] or have[1] < need[1]:
            if self._too_small != have:  # said once for each size, not at every frame
                self._too_small, self._lines = have, []
                self.out.write(f"\x1b[2J\x1b[1;1HMake the terminal at least {need[0]}×{need[1]} "
                               f"to see the panel (it is {have[0]}×{have[1]}).")
                self.out.flush()
            return
        if self._too_small is not None:
            self._too_small = None
            self.out.write("\x1b[2J")
        if not on:
            lines = [" " * image.size[0]] * (image.size[1] // 2)
        elif self.colour and image.mode != "1":
            lines = colour_blocks(image)
        else:
            lines = half_blocks(image)
        style = "\x1b[2m" if dim else "\x1b[22m"
        parts = []
        if not self._lines:
            parts.append("\x1b[1;1H┌" + "─" * image.size[0] + "┐")
        for row, line in enumerate(lines):
            if row >= len(self._lines) or self._lines[row] != style + line:
                parts.append(f"\x1b[{row + 2};1H│{style}{line}\x1b[22m│")
        if not self._lines:
            parts.append(f"\x1b[{len(lines) + 2};1H└" + "─" * image.size[0] + "┘")
            parts.append(f"\x1b[{len(lines) + 3};1H{self.help_line}")
        self._lines = [style + line for line in lines]
        self.out.write("".join(parts))
        self.out.flush()

    def close(self) -> None:
        self.out.write(f"\x1b[{len(self._lines) + 4};1H\x1b[?25h\n")
        self.out.flush()
