"""Partial updates: put on the panel only the pixels that changed.

luma sends every frame whole (about 1 KB, 93 ms at 100 kHz I2C). This writer
keeps what the panel's memory holds and, per 8-pixel page, sends only the
span of columns that differ: SSD1306 through its column/page address window,
SH1106 through a page address and a column start. An unchanged frame sends
nothing. It drives the luma device's own command() and data(), so the
interface (I2C or SPI) is whatever luma was given.
"""

from __future__ import annotations

from PIL import Image

from firmware.display.device import PAGES, WIDTH, LumaDevice

# Bit order: PIL packs a row's first pixel into the top bit; the panel wants
# the top pixel of a column in the lowest bit.
_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def page_bytes(image: Image.Image) -> list[bytes]:
    """The panel-memory bytes of a 128x64 1-bit image: 8 pages of 128 columns."""
    # Transposed, each column of the image becomes a row of 64 bits: 8 bytes, one per page.
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_REVERSED)
    return [columns[page::PAGES] for page in range(PAGES)]


def changed_span(old: bytes, new: bytes) -> tuple[int, int] | None:
    """The first and last column where two pages differ, or None."""
    diff = int.from_bytes(old, "big") ^ int.from_bytes(new, "big")
    if not diff:
        return None
    last_byte = len(new) - 1
    first = last_byte - (diff.bit_length() - 1) // 8
    last = last_byte - ((diff & -diff).bit_length() - 1) // 8
    return first, last


class PartialWriter:
    """Writes frames to a luma ssd1306/sh1106 device, sending only what changed."""

    def __init__(self, device: LumaDevice) -> None:
        import luma.oled.device

        self.device = device
        self.sh1106 = isinstance(device, luma.oled.device.sh1106)
        self.column_offset = (getattr(device, "_page_address_offset", 2) if self.sh1106
                              else getattr(device, "_colstart", 0))
        self.memory: list[bytes] | None = None  # unknown until the first full frame

    def display(self, image: Image.Image) -> int:
        """Show ``image``; returns how many data bytes were sent."""
        new = page_bytes(self.device.preprocess(image))
        old = self.memory
        sent = 0
        for page in range(PAGES):
            span = (0, WIDTH - 1) if old is None else changed_span(old[page], new[page])
            if span is None:
                continue
            first, last = span
            self._window(page, first, last)
            self.device.data(list(new[page][first:last + 1]))
            sent += last - first + 1
        self.memory = new
        return sent

    def _window(self, page: int, first: int, last: int) -> None:
        column = self.column_offset + first
        if self.sh1106:
            self.device.command(0xB0 | page, column & 0x0F, 0x10 | column >> 4)
        else:
            self.device.command(0x21, column, self.column_offset + last, 0x22, page, page)
