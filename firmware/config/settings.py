"""What the table's settings are: each section a frozen value, with its built-in defaults
(``firmware.config.reading`` makes them from a file)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from firmware.display.layout import Layout
from firmware.display.panels import PANELS, Interface, PanelKind
from firmware.header import CE0, CE1
from robinson_core import HouseRules

DISPLAYS = tuple(PANELS)
SPI_SPEEDS_MHZ = (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52)  # as luma takes
HARDWARE = ("auto", "pi", "emulate")

SYSTEM_STATE_DIR = Path("/var/lib/robinson-table")  # the saves on a Pi (the unit's
# StateDirectory=), and a phone's hardware settings (PHONE_FILE)


@dataclass(frozen=True)
class Pins:
    """Where things are wired (BCM numbers). LEDs and the buzzer are optional."""

    button: int = 17
    seats: tuple[int, ...] = (5, 6, 13, 19, 26, 21)
    leds: tuple[int, ...] = (22, 23, 27, 4, 12, 20)
    buzzer: int = 18
    use_leds: bool = False
    use_buzzer: bool = False


@dataclass(frozen=True)
class Display:
    """The panel, in luma.core's own option names (``firmware.display.panels`` says what
    each takes; a config that names a panel but no size gets its usual size)."""

    display: str = "ssd1306"
    interface: Interface = Interface.I2C
    width: int = 128
    height: int = 64
    i2c_port: int = 1
    i2c_address: int = 0x3C
    spi_port: int = 0
    spi_device: int = 0
    spi_bus_speed: int = 8_000_000
    spi_mode: int = 0  # 3 for the 1.3" 240x240 ST7789 boards that have no CS pin
    gpio_data_command: int = 24
    gpio_reset: int = 25
    gpio_backlight: int = 18  # the TFTs' backlight (luma.lcd)
    backlight_active: str = "high"
    bgr: bool = False
    h_offset: int = 0
    v_offset: int = 0
    rotate: int = 0
    contrast: int = 255

    @property
    def kind(self) -> PanelKind:
        return PANELS[self.display]

    @property
    def chip_select(self) -> int:
        """The SPI chip-select line ``spi_device`` means."""
        return CE0 if self.spi_device == 0 else CE1

    @property
    def size(self) -> tuple[int, int]:
        """Width and height as luma's driver is given them (before rotation)."""
        return self.width, self.height

    @property
    def layout(self) -> Layout:
        return self.kind.layout(*self.size, self.rotate)

    def luma_args(self) -> list[str]:
        """The luma.core.cmdline arguments for this panel."""
        width, height = self.size
        args = ["--display", self.display, "--interface", self.interface.value,
                "--width", str(width), "--height", str(height), "--rotate", str(self.rotate),
                "--framebuffer", "diff_to_previous", "--num-segments", "16"]
        if self.interface is Interface.I2C:
            args += ["--i2c-port", str(self.i2c_port), "--i2c-address", hex(self.i2c_address)]
        else:
            args += ["--spi-port", str(self.spi_port), "--spi-device", str(self.spi_device),
                     "--spi-bus-speed", str(self.spi_bus_speed),
                     *(["--spi-mode", str(self.spi_mode)] if self.spi_mode else []),
                     "--gpio-data-command", str(self.gpio_data_command),
                     "--gpio-reset", str(self.gpio_reset),
                     "--gpio-backlight", str(self.gpio_backlight),
                     "--backlight-active", self.backlight_active,
                     "--h-offset", str(self.h_offset), "--v-offset", str(self.v_offset)]
            if self.bgr:
                args.append("--bgr")
        return args


@dataclass(frozen=True)
class Timings:
    """Seconds."""

    long_press: float = 1.0
    menu_press: float = 3.0
    debounce: float = 0.02
    animation: float = 0.8
    page: float = 3.0
    dim_after: float = 120.0
    blank_after: float = 900.0
    shift_every: float = 300.0


VOLUMES_ALLOWED = range(10, 101)  # espeak-ng's amplitude, the config's and the menu's kept
SPEEDS_ALLOWED = range(80, 301)  # words a minute, likewise


@dataclass(frozen=True)
class Voice:
    """The spoken banker: espeak-ng through ALSA (``firmware.runtime.speaker``)."""

    enabled: bool = False  # the menu's Voice row switches it; this is where it starts
    storyteller: bool = False  # also read each square's story
    volume: int = 100  # espeak-ng's amplitude, 10..100: above, its loudest words clip
    # (measured: a Finnish result peaks at 32,751 of 32,767 at 130); louder is the
    # mixer's (alsamixer) or the amplifier's GAIN pin
    speed: int = 185  # words a minute, 80..300 (espeak-ng's own: 175), Finnish at 1.3
    # times it (speech.words.PACES): at 185, 95 % of results are said within 4 s
    # The ALSA device: "auto" finds the speaker by its card's name (the amplifier's with
    # i2s_amplifier, else a USB speaker, else the 3.5 mm jack, else ALSA's "default":
    # firmware.runtime.soundcards), or one named as `aplay -L` lists them:
    # "plughw:CARD=Headphones,DEV=0", "default"…
    device: str = "auto"
    i2s_amplifier: bool = False  # a MAX98357A on the I2S pins (18–21): install.sh
    # writes its dtoverlay (no-sdmode: GPIO 4 stays free), and no other part may be wired there


@dataclass(frozen=True)
class TableOptions:
    """What the table shows beyond the game (``[table]``)."""

    odds: bool = False  # a decision's chances to win, played out (the menu's Odds row)


@dataclass(frozen=True)
class Web:
    """The companion page (``[web]``: ``robinson web``, its own unit)."""

    enabled: bool = True  # install.sh installs and starts its unit (port 80, socket-activated)
    port: int = 80


@dataclass(frozen=True)
class Config:
    """Every setting of the table, validated; the built-in defaults where the file is silent."""

    language: str = "en"
    hardware: str = "auto"  # pi, emulate, or auto: the Pi if this is one
    seat_names: tuple[str, ...] = ()
    pins: Pins = field(default_factory=Pins)
    display: Display = field(default_factory=Display)
    timings: Timings = field(default_factory=Timings)
    rules: HouseRules = field(default_factory=HouseRules)
    voice: Voice = field(default_factory=Voice)
    source: str = "built-in defaults"
    table: TableOptions = field(default_factory=TableOptions)
    web: Web = field(default_factory=Web)

    def seat_name(self, seat: int) -> str | None:
        """The configured name of ``seat``, if any."""
        if seat <= len(self.seat_names) and self.seat_names[seat - 1]:
            return self.seat_names[seat - 1]
        return None
