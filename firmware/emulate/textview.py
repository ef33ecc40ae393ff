"""The panel as text, for an emulated table whose output is not a terminal.

``./table.sh | tee log`` or a script reading the table's output gets each page
the table draws, once, as lines of text (the same framing as ``robinson replay
--pages``); frames that differ only in pixels (the tumbling die) are one page.
"""

from __future__ import annotations

from typing import TextIO

from firmware.display.fonts import Fonts
from firmware.display.layout import Layout
from firmware.display.paging import shown
from firmware.display.screen import Screen


class TextView:
    """Writes each new page to ``out``, flushed at once (a pipe is read live)."""

    def __init__(self, out: TextIO, fonts: Fonts, layout: Layout) -> None:
        self.out, self.fonts, self.layout = out, fonts, layout
        self.last: list[str] = []

    def __call__(self, screen: Screen, page: int) -> None:
        lines = framed_page(screen, page, self.fonts, self.layout)
        if lines != self.last:
            self.last = lines
            self.out.write("\n".join(lines) + "\n\n")
            self.out.flush()


def framed_page(screen: Screen, page: int, fonts: Fonts, layout: Layout) -> list[str]:
    """Page ``page`` of ``screen`` on this panel as lines of text, framed (``Page.framed``):
    what a pipe is written, and what a braille panel in a small terminal shows under it."""
    pages = shown(screen, fonts, layout)
    number = page % len(pages)
    return pages[number].framed(number + 1, len(pages))
