"""Partial updates: put on the panel only the pixels that changed.

luma sends a monochrome page panel's every frame whole (about 1 KB, 93 ms at
100 kHz I2C, where the bus is the limit). ``PageWriter`` keeps what the
panel's memory holds and, per 8-pixel page, sends only the span of columns
that differ: SSD1306/SSD1309 through the column/page address window, SH1106
and SH1107 through a page address and a column start. An unchanged frame
sends nothing. It drives the luma device's own command() and data(), so the
interface (I2C or SPI) is whatever luma was given.

The greyscale and colour drivers have change tracking of their own (luma's
``diff_to_previous`` framebuffer): ``LumaWriter`` leaves it to them. luma's
ST7789 has none and sends 172 KB a frame: ``WindowWriter`` sends the box that
changed through the driver's own ``set_window``.
"""

from __future__ import annotations

from typing import Protocol

from PIL import Image, ImageChops, ImageDraw

from firmware.display.device import LumaDevice

# Bit order: PIL packs a row's first pixel into the top bit; the panel wants
# the top pixel of a column in the lowest bit.
_REVERSED = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))


def page_bytes(image: Image.Image) -> list[bytes]:
    """The panel-memory bytes of a 1-bit image: height / 8 pages of a byte per column."""
    # Transposed, each column of the image becomes a row of bits: a byte per page.
    pages = image.height // 8
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes().translate(_REVERSED)
    return [columns[page::pages] for page in range(pages)]


def changed_span(old: bytes, new: bytes) -> tuple[int, int] | None:
    """The first and last column where two pages differ, or None."""
    diff = int.from_bytes(old, "big") ^ int.from_bytes(new, "big")
    if not diff:
        return None
    last_byte = len(new) - 1
    first = last_byte - (diff.bit_length() - 1) // 8
    last = last_byte - ((diff & -diff).bit_length() - 1) // 8
    return first, last


Box = tuple[int, int, int, int]  # left, top, right, bottom: pixels, inclusive


class Writer(Protocol):
    """Puts frames on a luma device, sending what changed once the panel holds a frame."""

    @property
    def holds(self) -> bool:
        """Whether the panel holds a frame this writer sent (after the first)."""
        ...

    @property
    def behind(self) -> bool:
        """Whether part of the last frame asked for is still to be sent (``display``'s
        ``first`` or ``budget`` left it for the next call)."""
        ...

    def display(self, image: Image.Image, first: Box | None = None,
                budget: int | None = None) -> int:
        """Show ``image``: 0 if nothing had to be sent, else the data bytes sent (luma's
        own writer does not say how many: 1). ``first``: only what changed inside this
        box now, the rest at the next call; ``budget``: no more data bytes than this in
        one call (a page's span is never cut). Writers that cannot part a frame send it
        whole."""
        ...


def writer_for(device: LumaDevice) -> Writer:
    """The writer for this luma device: our page writer, a window writer, or luma's own."""
    import luma.oled.device

    if isinstance(device, luma.oled.device.ssd1306 | luma.oled.device.sh1106
                  | luma.oled.device.sh1107):
        return PageWriter(device)
    if hasattr(device, "framebuffer"):
        return LumaWriter(device)
    if hasattr(device, "set_window"):
        return WindowWriter(device)
    return LumaWriter(device)


def bus_cost(columns: int) -> int:
    """Bytes a page's part of ``columns`` columns costs on an I2C bus: its window command
    (6 bytes; the SH1106's 3) and its data in luma's 32-byte writes, each write with its
    address and control bytes. A budget with ``first`` counts these: a press's first
    part is what it costs on the bus."""
    return 8 + columns + 2 * -(-columns // 32)


class PageWriter:
    """Writes frames to a luma SSD1306-like device, sending only what changed."""

    def __init__(self, device: LumaDevice) -> None:
        import luma.oled.device

        self.device = device
        self.sh110x = isinstance(device, luma.oled.device.sh1106 | luma.oled.device.sh1107)
        # luma does not publish where the visible columns start: its drivers keep it in
        # these (tests/app/test_private_internals.py pins them).
        self.column_offset = (getattr(device, "_page_address_offset", 0) if self.sh110x
                              else getattr(device, "_colstart", 0))
        self.width = device.width
        self.memory: list[bytearray] | None = None  # unknown until the first full frame
        self.behind = False

    @property
    def holds(self) -> bool:
        return self.memory is not None

    def display(self, image: Image.Image, first: Box | None = None,
                budget: int | None = None) -> int:
        """Show ``image`` (or, with ``first`` or ``budget``, its part: ``Writer``);
        returns how many data bytes were sent."""
        new = page_bytes(self.device.preprocess(image))
        if self.memory is None:  # what the panel holds is unknown: all of it, at once
            self.memory = [bytearray(self.width) for _ in new]
            for page in range(len(new)):
                self._send(page, 0, self.width - 1, new)
            self.behind = False
            return self.width * len(new)
        memory, sent = self.memory, 0
        if first is not None:  # the box's columns of the pages it crosses, and no more
            cost = 0  # on the bus: a budget here counts each page's window too
            mask = Image.new("1", image.size)  # the box where the driver's rotation puts it
            ImageDraw.Draw(mask).rectangle(first, fill=1)
            found = self.device.preprocess(mask).getbbox()
            left, top, right, bottom = (0, 0, -1, -1) if found is None else (
                found[0], found[1], found[2] - 1, found[3] - 1)
            for page in range(max(0, top // 8), min(len(new), bottom // 8 + 1)):
                span = changed_span(bytes(memory[page][left:right + 1]),
                                    new[page][left:right + 1])
                if span is None:
                    continue
                cost += bus_cost(span[1] - span[0] + 1)
                if budget is not None and sent and cost > budget:
                    break  # the box's next page with the rest
                sent += self._send(page, left + span[0], left + span[1], new)
            self.behind = any(memory[page] != new[page] for page in range(len(new)))
            return sent
        self.behind = False
        for page in range(len(new)):
            span = changed_span(bytes(memory[page]), new[page])
            if span is None:
                continue
            if budget is not None and sent and sent + span[1] - span[0] + 1 > budget:
                self.behind = True  # the rest at the next call
                break
            sent += self._send(page, span[0], span[1], new)
        return sent

    def _send(self, page: int, first: int, last: int, new: list[bytes]) -> int:
        """Columns ``first``..``last`` of ``page`` on the panel, and in its memory."""
        assert self.memory is not None
        self._window(page, first, last)
        self.device.data(list(new[page][first:last + 1]))
        self.memory[page][first:last + 1] = new[page][first:last + 1]
        return last - first + 1

    def _window(self, page: int, first: int, last: int) -> None:
        column = self.column_offset + first
        if self.sh110x:
            self.device.command(0xB0 | page, column & 0x0F, 0x10 | column >> 4)
        else:
            self.device.command(0x21, column, self.column_offset + last, 0x22, page, page)


class _ImageWriter:
    """What the two image writers share: the frame the panel holds (in RGB), and the box
    where a new frame differs from it."""

    def __init__(self, device: LumaDevice) -> None:
        self.device = device
        self.memory: Image.Image | None = None
        self.behind = False  # a frame is always sent whole

    @property
    def holds(self) -> bool:
        return self.memory is not None

    def _changed(self, new: Image.Image) -> tuple[int, int, int, int] | None:
        """The box that differs from the frame held (all of it when none is), or None."""
        if self.memory is None:
            return (0, 0, *new.size)
        return ImageChops.difference(self.memory, new).getbbox()


class LumaWriter(_ImageWriter):
    """luma's own display(): its framebuffer sends only the segments that changed."""

    def display(self, image: Image.Image, first: Box | None = None,
                budget: int | None = None) -> int:
        rgb = image.convert("RGB")
        if self._changed(rgb) is None:
            return 0
        self.device.display(image)
        self.memory = rgb
        return 1


class WindowWriter(_ImageWriter):
    """For a driver with a window but no change tracking (luma's ST7789): send the box
    that changed, through the driver's own set_window() and data(), in RGB bytes."""

    def display(self, image: Image.Image, first: Box | None = None,
                budget: int | None = None) -> int:
        new = self.device.preprocess(image).convert("RGB")
        box = self._changed(new)
        if box is None:
            return 0
        left, top, right, bottom = box
        self.device.set_window(left, top, right, bottom)  # type: ignore[attr-defined]
        data = new.crop(box).tobytes()
        self.device.data(list(data))
        self.memory = new
        return len(data)
