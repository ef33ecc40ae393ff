"""Stand-ins for a panel's wires, and models of what its controller's memory holds.

luma's drivers write to an I2C bus (``write_i2c_block_data(address, 0x00,
commands)`` / ``(address, 0x40, pixels)``) or to SPI (``writebytes`` with the
D/C pin low for a command, high for data). ``PanelBus`` and ``SpiBus`` stand
in for those wires: they count every byte and hand commands and data to a
model of the controller, so ``image()`` is what the real panel would show.
One model per controller family (``firmware.display.panels``):

- ``PageMemory``: SSD1306, SSD1309, SH1106, SH1107: pages of 8 vertical pixels,
  a byte per column, the window set by command bytes (SSD1306) or a page and
  column start (SH110x);
- ``NibbleMemory``: SSD1322: 4-bit grey, two pixels a byte, columns of 4 pixels,
  the window set by 0x15/0x75, written after 0x5C;
- ``WindowMemory``: SSD1351 (RGB565, 0x15/0x75/0x5C), and ``DcsMemory`` for the
  ST7735/ST7789/ILI9341 TFTs (6-6-6 colour sent as three bytes, 0x2A/0x2B/0x2C).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from PIL import Image

from firmware.display.panels import PANELS, MemoryLayout

COMMAND, DATA = 0x00, 0x40


class Memory(Protocol):
    """A controller as its driver sees it: command bytes and data bytes in, pixels out."""

    on: bool
    contrast: int

    def command(self, payload: Sequence[int]) -> None: ...

    def data(self, payload: Sequence[int]) -> None: ...

    def image(self) -> Image.Image: ...

    def expected(self, image: Image.Image) -> Image.Image: ...


# SSD1306-family command bytes followed by arguments, and how many.
_ARGS_SSD1306 = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
                 0xDA: 1, 0xDB: 1, 0x8D: 1, 0xAD: 1}
# SH1106 has no addressing-window commands; luma still sends some SSD1306 bytes
# (0x20, 0x8D) that the SH1106 takes as harmless one-byte commands. SH1107's 0x20
# and 0x21 choose page or vertical addressing, without an argument.
_ARGS_SH110X = {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1,
                0xDC: 1}


class PageMemory:
    """SSD1306-like memory: ``height // 8`` pages of a byte per column, low bit on top."""

    def __init__(self, chip: str = "ssd1306", width: int = 128, height: int = 64) -> None:
        self.chip = chip
        self.width, self.height = width, height
        self.pages = height // 8
        self.sh110x = chip in ("sh1106", "sh1107")
        columns = 132 if chip == "sh1106" else width
        self.ram = [bytearray(columns) for _ in range(self.pages)]
        self.column_offset = 2 if chip == "sh1106" else 0  # SH1106: 128 of 132 columns shown
        self.on = False
        self.contrast = 0x7F
        self.inverted = False
        self._horizontal = False
        self._col, self._page = 0, 0
        self._cols, self._pages = (0, width - 1), (0, self.pages - 1)
        self._pending: list[int] = []

    def command(self, payload: Sequence[int]) -> None:
        args = _ARGS_SH110X if self.sh110x else _ARGS_SSD1306
        for byte in payload:
            self._pending.append(byte)
            if len(self._pending) > args.get(self._pending[0], 0):
                self._apply(self._pending)
                self._pending = []

    def data(self, payload: Sequence[int]) -> None:
        for byte in payload:
            self._write(byte)

    def image(self) -> Image.Image:
        """The memory as a picture (lit pixels = 1), ignoring on/off."""
        img = Image.new("1", (self.width, self.height))
        pixels = img.load()
        assert pixels is not None
        for page, row in enumerate(self.ram):
            for x in range(self.width):
                byte = row[x + self.column_offset]
                if byte:
                    for bit in range(8):
                        if byte >> bit & 1:
                            pixels[x, page * 8 + bit] = 1
        return img

    def expected(self, image: Image.Image) -> Image.Image:
        return image.convert("1")

    def _apply(self, command: list[int]) -> None:
        op = command[0]
        if op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op == 0x81:
            self.contrast = command[1]
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif self.sh110x:
            if 0xB0 <= op <= 0xB0 + min(15, self.pages - 1):
                self._page = op & 0x0F
            elif op <= 0x0F:
                self._col = (self._col & 0xF0) | op
            elif 0x10 <= op <= 0x1F:  # the SH1106's 132 columns reach 0x18 (column 128+)
                self._col = (self._col & 0x0F) | (op & 0x0F) << 4
        elif op == 0x20:
            self._horizontal = command[1] == 0x00
        elif op == 0x21:
            self._cols = (command[1], command[2])
            self._col = command[1]
        elif op == 0x22:
            self._pages = (command[1] & 7, command[2] & 7)
            self._page = command[1] & 7
        elif 0xB0 <= op <= 0xB7:
            self._page = op & 7
        elif op <= 0x0F:
            self._col = (self._col & 0xF0) | op
        elif 0x10 <= op <= 0x1F:
            self._col = (self._col & 0x0F) | (op & 0x0F) << 4

    def _write(self, byte: int) -> None:
        if self._page < self.pages:
            row = self.ram[self._page]
            if self._col < len(row):
                row[self._col] = byte
        if self._horizontal:
            if self._col >= self._cols[1]:
                self._col = self._cols[0]
                self._page = self._pages[0] if self._page >= self._pages[1] else self._page + 1
            else:
                self._col += 1
        else:
            self._col += 1


class _Windowed:
    """A controller whose command byte is followed by its arguments as data, and whose
    pixels go into a window of columns and rows, left to right, then down."""

    COLUMNS, ROWS, WRITE = 0x15, 0x75, 0x5C
    ON, OFF, CONTRAST = 0xAF, 0xAE, 0xC1
    WINDOW_ARGS = 2  # bytes after COLUMNS or ROWS: a start and an end

    def __init__(self) -> None:
        self.on = False
        self.contrast = 0x7F
        self._op: int | None = None
        self._args: list[int] = []
        self._cols = self._rows = (0, 0)
        self._x = self._y = 0

    def command(self, payload: Sequence[int]) -> None:
        for op in payload:
            self._op, self._args = op, []
            if op == self.ON:
                self.on = True
            elif op == self.OFF:
                self.on = False
            elif op == self.WRITE:
                self._x, self._y = self._cols[0], self._rows[0]
                self._begin()

    def data(self, payload: Sequence[int]) -> None:
        if self._op == self.WRITE:
            self._pixels(payload)
            return
        self._args += payload
        if self._op == self.COLUMNS and len(self._args) == self.WINDOW_ARGS:
            self._cols = self._pair(self._args)
        elif self._op == self.ROWS and len(self._args) == self.WINDOW_ARGS:
            self._rows = self._pair(self._args)
        elif self._op == self.CONTRAST and self._args:
            self.contrast = self._args[0]

    def _pair(self, args: list[int]) -> tuple[int, int]:
        return args[0], args[1]

    def _begin(self) -> None:
        pass

    def _pixels(self, payload: Sequence[int]) -> None:
        raise NotImplementedError

    def _advance(self) -> None:
        if self._x >= self._cols[1]:
            self._x = self._cols[0]
            self._y = self._rows[0] if self._y >= self._rows[1] else self._y + 1
        else:
            self._x += 1


class NibbleMemory(_Windowed):
    """SSD1322: 480x128 pixels of 4-bit grey; a column address is 4 pixels (2 bytes),
    the first pixel of a byte in its high nibble. The panel shows ``width`` columns in
    the middle of the 480."""

    def __init__(self, width: int = 256, height: int = 64) -> None:
        super().__init__()
        self.width, self.height = width, height
        self.offset = (480 - width) // 2
        self.ram = bytearray(480 * 128)  # grey level 0-15 per pixel
        self._half = 0

    def _begin(self) -> None:
        self._half = 0

    def _pixels(self, payload: Sequence[int]) -> None:
        for byte in payload:  # 2 bytes = one column address = 4 pixels
            base = self._y * 480 + self._x * 4 + self._half * 2
            if self._y < 128 and self._x < 120:
                self.ram[base], self.ram[base + 1] = byte >> 4, byte & 0x0F
            self._half ^= 1
            if not self._half:
                self._advance()

    def image(self) -> Image.Image:
        img = Image.new("L", (self.width, self.height))
        img.putdata([self.ram[y * 480 + self.offset + x] * 17
                     for y in range(self.height) for x in range(self.width)])
        return img.convert("RGB")

    def expected(self, image: Image.Image) -> Image.Image:
        """What 4 bits of grey keep of ``image`` (luma's own conversion)."""
        rgb = image.convert("RGB")
        grey = Image.new("L", rgb.size)
        data = rgb.tobytes()
        grey.putdata([((data[i] * 306 + data[i + 1] * 601 + data[i + 2] * 117) >> 14) * 17
                      for i in range(0, len(data), 3)])
        return grey.convert("RGB")


class WindowMemory(_Windowed):
    """An RGB controller: the SSD1351, two bytes a pixel (RGB565)."""

    PIXEL = 2  # bytes a pixel
    KEPT = (0xF8, 0xFC, 0xF8)  # the bits of each 8-bit channel the panel keeps

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self.width, self.height = width, height
        self.ram = Image.new("RGB", (width, height))
        self._pixel: list[int] = []

    def _begin(self) -> None:
        self._pixel = []

    def _colour(self, pixel: list[int]) -> tuple[int, int, int]:
        hi, lo = pixel
        return hi & 0xF8, (hi & 0x07) << 5 | (lo & 0xE0) >> 3, (lo & 0x1F) << 3

    def _pixels(self, payload: Sequence[int]) -> None:
        put = self.ram.putpixel
        for byte in payload:
            self._pixel.append(byte)
            if len(self._pixel) < self.PIXEL:
                continue
            if self._x < self.width and self._y < self.height:
                put((self._x, self._y), self._colour(self._pixel))
            self._pixel = []
            self._advance()

    def image(self) -> Image.Image:
        return self.ram.copy()

    def expected(self, image: Image.Image) -> Image.Image:
        """What the panel's colour depth keeps of ``image``."""
        channels = image.convert("RGB").split()
        return Image.merge("RGB", [c.point(lambda v, keep=keep: v & keep)
                                   for c, keep in zip(channels, self.KEPT, strict=True)])


class DcsMemory(WindowMemory):
    """A TFT (ST7735, ST7789, ILI9341) as luma drives it: MIPI DCS commands (CASET and
    RASET take 16-bit starts and ends, RAMWR writes), 6-6-6 colour sent as three bytes
    a pixel of which the panel keeps the top 6 bits."""

    COLUMNS, ROWS, WRITE = 0x2A, 0x2B, 0x2C
    ON, OFF, CONTRAST = 0x29, 0x28, 0x51
    WINDOW_ARGS = 4
    PIXEL = 3
    KEPT = (0xFC, 0xFC, 0xFC)

    def _pair(self, args: list[int]) -> tuple[int, int]:
        return args[0] << 8 | args[1], args[2] << 8 | args[3]

    def _colour(self, pixel: list[int]) -> tuple[int, int, int]:
        red, green, blue = pixel
        return red & 0xFC, green & 0xFC, blue & 0xFC


def memory_for(chip: str, width: int, height: int) -> Memory:
    """The model of ``chip``'s memory for a panel of this size (as luma's driver sees it)."""
    kind = PANELS.get(chip)
    if kind is None:
        raise ValueError(f"no panel model for {chip!r}")
    match kind.memory:
        case MemoryLayout.PAGES:
            return PageMemory(chip, width, height)
        case MemoryLayout.NIBBLES:
            return NibbleMemory(width, height)
        case MemoryLayout.RGB565:
            return WindowMemory(width, height)
        case MemoryLayout.RGB666:
            return DcsMemory(width, height)


class Bus:
    """What both stand-ins share: the model, the byte count, an injectable fault."""

    def __init__(self, chip: str, width: int, height: int, rotate: int = 0) -> None:
        self.chip = chip
        self.size = (width, height)
        self.rotate = rotate  # how the panel is mounted: luma's rotate, quarter turns
        self.memory = memory_for(chip, width, height)
        self.sent = 0  # bytes on the wire
        self.fault: Callable[[int, Sequence[int]], None] | None = None  # may raise OSError

    @property
    def on(self) -> bool:
        return self.memory.on

    @property
    def contrast(self) -> int:
        return self.memory.contrast

    def image(self) -> Image.Image:
        """What the panel shows, as mounted (luma turned the picture by ``rotate``
        quarter turns clockwise before sending it: turned back here)."""
        shown = self.memory.image()
        return shown.rotate(90 * self.rotate, expand=True) if self.rotate else shown

    def power_cycle(self) -> None:
        """The panel lost power: its memory holds nothing known."""
        self.memory = memory_for(self.chip, *self.size)


class PanelBus(Bus):
    """An smbus-like object that luma's ``i2c(bus=...)`` accepts."""

    def __init__(self, chip: str = "ssd1306", address: int = 0x3C, width: int = 128,
                 height: int = 64, rotate: int = 0) -> None:
        super().__init__(chip, width, height, rotate)
        self.address = address

    def write_i2c_block_data(self, address: int, control: int, payload: Sequence[int]) -> None:
        if self.fault is not None:
            self.fault(control, payload)
        if address != self.address:
            raise OSError(121, "Remote I/O error")  # nothing answers there
        if len(payload) > 32:
            raise ValueError("SMBus block writes carry at most 32 bytes")
        self.sent += 2 + len(payload)  # the address and control bytes, then the payload
        if control == COMMAND:
            self.memory.command(payload)
        elif control == DATA:
            self.memory.data(payload)

    def close(self) -> None:
        pass


class SpiBus(Bus):
    """A spidev-like object for luma's ``spi(spi=...)``; the D/C pin (``Wires``) says
    whether the bytes are a command or data."""

    def __init__(self, chip: str, width: int, height: int, data_command: int = 24,
                 rotate: int = 0) -> None:
        super().__init__(chip, width, height, rotate)
        self.data_command = data_command
        self.wires = Wires(self)
        self.max_speed_hz = 0
        self.mode = 0
        self.opened = False

    def open(self, port: int, device: int) -> None:
        self.opened = True

    def writebytes(self, payload: Sequence[int]) -> None:
        if self.fault is not None:
            self.fault(int(self.wires.level(self.data_command)), payload)
        if len(payload) > 4096:
            raise ValueError("spidev writes carry at most 4096 bytes")
        self.sent += len(payload)
        if self.wires.level(self.data_command):
            self.memory.data(payload)
        else:
            self.memory.command(payload)

    def close(self) -> None:
        self.opened = False


class Wires:
    """The few RPi.GPIO calls luma makes for an SPI panel (D/C, reset, backlight)."""

    BCM, OUT, IN, HIGH, LOW = 11, 0, 1, 1, 0

    def __init__(self, bus: SpiBus) -> None:
        self.bus = bus
        self.levels: dict[int, int] = {}

    def setmode(self, mode: int) -> None:
        pass

    def setwarnings(self, on: bool) -> None:
        pass

    def setup(self, pin: int, direction: int, **_: object) -> None:
        self.levels.setdefault(pin, 0)

    def output(self, pin: int, level: int) -> None:
        self.levels[pin] = 1 if level else 0

    def level(self, pin: int) -> int:
        return self.levels.get(pin, 0)

    def cleanup(self, pins: object = None) -> None:
        pass
