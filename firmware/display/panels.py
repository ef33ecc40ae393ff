"""The panels the table drives, by luma's own driver names: the one home of their facts.

Each is a luma.oled or luma.lcd driver; the table lays its screens out by the
panel's size and mode (``firmware.display.layout``), never by its name. What
differs by controller is how its memory is written (``memory``): SSD1306-like
pages of 8 vertical pixels, SSD1322 columns of 4-bit nibbles, or an RGB window
(SSD1351 in RGB565, the ST7789/ILI9341 TFTs in 6-6-6 sent as three bytes).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line reads the names without loading Pillow
    from firmware.display.layout import Layout


class Interface(enum.StrEnum):
    """The bus a panel is wired on, by luma's own names for it."""

    I2C = "i2c"
    SPI = "spi"


class MemoryLayout(enum.Enum):
    """How a controller's memory is written."""

    PAGES = "pages"  # SSD1306-like: pages of 8 vertical pixels, a byte per column
    NIBBLES = "nibbles"  # SSD1322: columns of 4-bit grey nibbles
    RGB565 = "rgb565"  # SSD1351: an RGB window, two bytes a pixel
    RGB666 = "rgb666"  # the ST7735/ST7789/ILI9341 TFTs: 6-6-6 sent as three bytes


@dataclass(frozen=True)
class PanelKind:
    """One luma driver as the table uses it."""

    name: str
    package: str  # the luma package whose ``device`` module has the driver
    sizes: tuple[tuple[int, int], ...]  # width x height the driver takes; the first is usual
    mode: str  # the image mode luma's driver takes: "1" or "RGB"
    memory: MemoryLayout
    interfaces: tuple[Interface, ...]  # the first is how the usual module comes wired
    grey: bool = False
    what: str = ""  # the panel people buy

    @property
    def extra(self) -> str | None:
        """The install extra its luma package comes in (luma.oled is always there)."""
        return "lcd" if self.package == "luma.lcd" else None

    def layout(self, width: int, height: int, rotate: int = 0) -> Layout:
        """The layout for this panel at this size; a quarter turn swaps width and height."""
        from firmware.display.layout import Layout

        if rotate % 2:
            width, height = height, width
        return Layout(width, height, self.mode, self.grey)


_I2C, _SPI = Interface.I2C, Interface.SPI  # for the table below

PANELS = {kind.name: kind for kind in (
    PanelKind("ssd1306", "luma.oled", ((128, 64), (128, 32)), "1", MemoryLayout.PAGES, (_I2C, _SPI),
              what='0.96" 128x64 or 0.91" 128x32 OLED'),
    PanelKind("ssd1315", "luma.oled", ((128, 64),), "1", MemoryLayout.PAGES, (_I2C, _SPI),
              what='0.96" 128x64 OLED (the SSD1306\'s successor)'),
    PanelKind("ssd1316", "luma.oled", ((128, 32),), "1", MemoryLayout.PAGES, (_I2C, _SPI),
              what='0.91" 128x32 OLED'),
    PanelKind("sh1106", "luma.oled", ((128, 64),), "1", MemoryLayout.PAGES, (_I2C, _SPI),
              what='1.3" 128x64 OLED'),
    PanelKind("ssd1309", "luma.oled", ((128, 64),), "1", MemoryLayout.PAGES, (_SPI, _I2C),
              what='2.42" 128x64 OLED'),
    PanelKind("sh1107", "luma.oled", ((128, 128),), "1", MemoryLayout.PAGES, (_I2C, _SPI),
              what='1.5" 128x128 OLED'),
    PanelKind("ssd1322", "luma.oled", ((256, 64), (128, 64)), "RGB", MemoryLayout.NIBBLES, (_SPI,),
              grey=True, what='3.12" 256x64 greyscale OLED'),
    PanelKind("ssd1351", "luma.oled", ((128, 128), (128, 96)), "RGB", MemoryLayout.RGB565, (_SPI,),
              what='1.5" 128x128 colour OLED'),
    PanelKind("st7735", "luma.lcd", ((160, 128), (128, 128)), "RGB", MemoryLayout.RGB666, (_SPI,),
              what='1.8" 160x128 colour TFT'),
    PanelKind("st7789", "luma.lcd", ((240, 240),), "RGB", MemoryLayout.RGB666, (_SPI,),
              what='1.3" 240x240 colour TFT'),
    PanelKind("ili9341", "luma.lcd", ((320, 240), (240, 240)), "RGB", MemoryLayout.RGB666, (_SPI,),
              what='2.4"-2.8" 320x240 colour TFT'),
)}
