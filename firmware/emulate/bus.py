"""A stand-in for the I2C wires and the OLED: counts every byte and decodes it.

luma's drivers write ``write_i2c_block_data(address, 0x00, commands)`` and
``write_i2c_block_data(address, 0x40, pixels)``. This bus keeps the panel's
display RAM as an SSD1306 or SH1106 would, so ``image()`` is exactly what a
real panel would show. The emulated table draws it in the terminal; the tests
compare it with the intended screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from firmware.display.device import HEIGHT, PAGES, WIDTH

COMMAND, DATA = 0x00, 0x40

# Command bytes followed by arguments, and how many.
_ARGS_SSD1306 = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
                 0xDA: 1, 0xDB: 1, 0x8D: 1, 0xAD: 1}
# SH1106 has no addressing-window commands; luma still sends some SSD1306 bytes
# (0x20, 0x8D) that the SH1106 takes as harmless one-byte commands.
_ARGS_SH1106 = {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1}


class PanelBus:
    """An smbus-like object that luma's ``i2c(bus=...)`` accepts."""

    def __init__(self, chip: str = "ssd1306", address: int = 0x3C) -> None:
        if chip not in ("ssd1306", "sh1106"):
            raise ValueError(f"no panel model for {chip!r}")
        self.chip = chip
        self.address = address
        columns = 132 if chip == "sh1106" else WIDTH
        self.ram = [bytearray(columns) for _ in range(PAGES)]
        self.column_offset = 2 if chip == "sh1106" else 0  # SH1106: 128 of 132 columns shown
        self.on = False
        self.contrast = 0x7F
        self.inverted = False
        self.sent = 0  # bytes on the wire: address and control byte plus payload
        self.fault: Callable[[int, Sequence[int]], None] | None = None  # may raise OSError
        self._horizontal = False
        self._col, self._page = 0, 0
        self._cols, self._pages = (0, WIDTH - 1), (0, PAGES - 1)
        self._pending: list[int] = []

    # -- the smbus side ---------------------------------------------------------

    def write_i2c_block_data(self, address: int, control: int, payload: Sequence[int]) -> None:
        if self.fault is not None:
            self.fault(control, payload)
        if address != self.address:
            raise OSError(121, "Remote I/O error")  # nothing answers there
        if len(payload) > 32:
            raise ValueError("SMBus block writes carry at most 32 bytes")
        self.sent += 2 + len(payload)
        if control == COMMAND:
            self._commands(payload)
        elif control == DATA:
            for byte in payload:
                self._write(byte)

    def close(self) -> None:
        pass

    # -- what a panel would show --------------------------------------------------

    def image(self) -> Image.Image:
        """The panel's RAM as a 128x64 picture (lit pixels = 1), ignoring on/off."""
        img = Image.new("1", (WIDTH, HEIGHT))
        pixels = img.load()
        assert pixels is not None
        for page, row in enumerate(self.ram):
            for x in range(WIDTH):
                byte = row[x + self.column_offset]
                if byte:
                    for bit in range(8):
                        if byte >> bit & 1:
                            pixels[x, page * 8 + bit] = 1
        return img

    # -- decoding -----------------------------------------------------------------

    def _commands(self, payload: Sequence[int]) -> None:
        args = _ARGS_SH1106 if self.chip == "sh1106" else _ARGS_SSD1306
        for byte in payload:
            if self._pending:
                self._pending.append(byte)
            else:
                self._pending = [byte]
            need = args.get(self._pending[0], 0)
            if len(self._pending) > need:
                self._apply(self._pending)
                self._pending = []

    def _apply(self, command: list[int]) -> None:
        op = command[0]
        if op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op == 0x81:
            self.contrast = command[1]
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif op == 0x20 and self.chip == "ssd1306":
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
