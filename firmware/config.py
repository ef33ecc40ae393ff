"""The table's settings: one TOML file, validated whole before anything starts.

Every key has a built-in default; an unknown key or a bad value stops the app
with one ConfigError naming the file, the key and what is allowed.
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from firmware.display.layout import NAME_LETTERS, Layout, name_fits
from firmware.display.panels import PANELS, Interface, PanelKind
from firmware.errors import ConfigError
from firmware.header import (
    CE0,
    CE1,
    I2C_PINS,
    I2S_PINS,
    SPI1_CE,
    SPI1_PINS,
    SPI_PINS,
    USABLE,
)
from firmware.runtime.soundcards import AUTO
from robinson_core import MAX_PLAYERS, HouseRules, RobinsonError
from robinson_core.house_rules import ACCEPTED as RULE_NAMES
from robinson_core.texts import LANGUAGES

DISPLAYS = tuple(PANELS)
SPI_SPEEDS_MHZ = (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52)  # as luma takes
HARDWARE = ("auto", "pi", "emulate")

SEARCH_PATH = ("/etc/robinson-table/config.toml",)
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
    speed: int = 170  # words a minute, 80..300 (espeak-ng's own: 175)
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


def default_path() -> Path | None:
    """The first config file that exists in the usual places, if any."""
    home = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    for candidate in (*SEARCH_PATH, os.path.join(home, "robinson-table", "config.toml")):
        if os.path.isfile(candidate):
            return Path(candidate)
    return None


def load(path: Path | None) -> Config:
    """The config in ``path`` (None: built-in defaults); ConfigError says what is wrong."""
    if path is None:
        return Config()
    return parse(read_toml(path), str(path))


def read_toml(path: Path) -> dict[str, Any]:
    """A settings file's TOML (the config, a phone's hardware settings), read as nothing
    it holds can hang or sink the table: a FIFO, a huge file, a deep nesting or a number
    of thousands of digits is one ConfigError naming ``path``, as is any other fault."""
    try:
        # Opened without waiting (a FIFO would hold the start until systemd's timeout),
        # then read only if it is a file.
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with open(descriptor, "rb") as file:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                raise ConfigError(f"{path}: not a file: give --config a config file")
            os.set_blocking(descriptor, True)
            data = file.read(MAX_CONFIG_BYTES + 1)
        if len(data) > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES // 1000} KB: not a "
                              "config of this table")
        deepest, longest = shape(data)
        if deepest > MAX_NESTING:
            raise ConfigError(f"{path}: arrays, tables or dotted keys nested more than "
                              f"{MAX_NESTING} deep: no setting takes that")
        if longest > MAX_NUMBER:
            raise ConfigError(f"{path}: a number in it is far too long for any setting "
                              f"({longest} characters)")
        return tomllib.loads(data.decode("utf-8"))
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it ({error.strerror})") from None
    except RecursionError:  # a nesting the scan above did not see
        raise ConfigError(f"{path}: nested too deep for any setting") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML ({error})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not valid TOML (not UTF-8 text)") from None
    except ValueError:  # tomllib's int() of a number with thousands of digits
        raise ConfigError(f"{path}: a number in it is far too long for any setting") from None


MAX_CONFIG_BYTES = 100_000  # the commented example is under 5 KB
MAX_NESTING = 8  # [pins] seats = [...] is 2 deep


MAX_NUMBER = 40  # characters: the longest setting, 1_000_000_000 in any base, is shorter

_NUMBER = b"0123456789abcdefABCDEFxob_+-.:eEinfnaTZ"  # what a number, a date or a time holds


def shape(data: bytes) -> tuple[int, int]:
    """How deep TOML text nests and its longest number, in characters: read before
    tomllib, whose parser recurses once a level (5,000 levels: RecursionError; 12,000
    dotted keys: 10 s and 600 MB), and a number of thousands of digits passes it and
    breaks any message that shows it. ``[`` and ``{`` outside strings and comments count,
    and each dot of a key (``a.b.c = 1`` is 3 deep, as is the header ``[a.b.c]``)."""
    deepest = depth = dots = longest = run = 0
    opened: list[bytes] = []
    quote, i, key, header = b"", 0, True, False
    while i < len(data):
        c = data[i:i + 1]
        if quote:
            if c == b"\\" and quote == b'"':
                i += 1
            elif data.startswith(quote, i):
                i += len(quote) - 1
                quote = b""
            i += 1
            continue
        run = run + 1 if c in _NUMBER and not key and not header and (
            run or c.isdigit() or c in b"+-") else 0
        longest = max(longest, run)
        if c == b"#":
            end = data.find(b"\n", i)
            i = len(data) if end < 0 else end
            continue
        if c in (b'"', b"'"):
            quote = c * 3 if data.startswith(c * 3, i) else c
            i += len(quote) - 1
        elif c in (b"[", b"{"):
            header = header or (c == b"[" and key and not opened)
            depth += 1
            opened.append(c)
            key = c == b"{"
        elif c in (b"]", b"}"):
            depth = max(0, depth - 1)
            if opened:
                opened.pop()
            if not opened:
                header, dots = False, 0
        elif c == b"=":
            key, dots = False, 0
        elif (c == b"," and opened and opened[-1] == b"{") or (c == b"\n" and not opened):
            key, dots = True, 0  # a key begins: in an inline table, or on a new line
        elif c == b"." and (key or header):
            dots += 1
        deepest = max(deepest, depth + dots)
        i += 1
    return deepest, longest


def parse(raw: dict[str, Any], source: str = "config") -> Config:
    """Validate a decoded TOML table into a Config."""
    reader = _Reader(source)
    top = reader.table(raw, "", {"language", "hardware", "seat_names", "pins", "display",
                                 "timings", "rules", "voice", "table", "web"})
    language = reader.choice(top, "language", LANGUAGES, Config.language)
    hardware = reader.choice(top, "hardware", HARDWARE, Config.hardware)
    names = reader.strings(top, "seat_names", MAX_PLAYERS)
    pins = _pins(reader, reader.table(top.get("pins", {}), "pins", _names(Pins)))
    display = _display(reader, reader.table(top.get("display", {}), "display", _names(Display)))
    timings = _timings(reader, reader.table(top.get("timings", {}), "timings",
                                            _names(Timings)))
    rules = _rules(reader, reader.table(top.get("rules", {}), "rules", set(RULE_NAMES)))
    voice = _voice(reader, reader.table(top.get("voice", {}), "voice", _names(Voice)))
    _check_wiring(reader, pins, display, voice)
    options = reader.table(top.get("table", {}), "table", _names(TableOptions))
    table = TableOptions(reader.boolean(options, "odds", TableOptions.odds, "table."))
    page = reader.table(top.get("web", {}), "web", _names(Web))
    web = Web(reader.boolean(page, "enabled", Web.enabled, "web."),
              reader.integer(page, "port", Web.port, 1, 65535, "web."))
    return Config(language, hardware, names, pins, display, timings, rules, voice, source, table,
                  web)


PHONE_KEYS = ("display.display", "display.width", "display.height", "display.i2c_address",
              "display.rotate", "display.contrast", "voice.i2s_amplifier", "pins.button",
              "pins.seats", "pins.use_leds", "pins.leds", "pins.use_buzzer", "pins.buzzer")
"""What a paired phone may set (``firmware.saves.hardware`` keeps it in the state folder):
the panel on the bus it is wired to, the amplifier, the pins. The bus itself, its SPI
lines, the voice's device and the rest stay the file's."""
PHONE_FILE = "hardware.toml"
"""Where in the state folder the table keeps a phone's hardware settings."""


def hardware_table(config: Config) -> dict[str, dict[str, Any]]:
    """The config's [display], [pins] and [voice] as a TOML file would write them."""
    def plain(section: Any) -> dict[str, Any]:
        return {key: list(value) if isinstance(value, tuple) else
                str(value) if isinstance(value, Interface) else value
                for key, value in asdict(section).items()}

    return {"display": plain(config.display), "pins": plain(config.pins),
            "voice": plain(config.voice)}


def changed(config: Config, changes: Mapping[str, object], source: str = "phone") -> Config:
    """``config`` with ``changes`` (``"display.display": "sh1106"``, one of PHONE_KEYS
    each) laid over it, checked whole as the config file is (the same checks: its panel,
    its wiring); ConfigError says what is wrong, in the file's words. A new panel named
    without a size gets its usual size."""
    table = hardware_table(config)
    for key, value in changes.items():
        if key not in PHONE_KEYS:
            raise ConfigError(f"{source}: {_found(key)} is not a setting a phone may change "
                              f"(those are {', '.join(PHONE_KEYS)})")
        section, name = key.split(".")
        table[section][name] = value
    if "display.display" in changes and not {"display.width", "display.height"} & set(changes):
        del table["display"]["width"], table["display"]["height"]
    new = parse(table, source)
    return replace(config, display=new.display, pins=new.pins,
                   voice=replace(config.voice, i2s_amplifier=new.voice.i2s_amplifier))


def flat(table: Mapping[str, object]) -> dict[str, object]:
    """A TOML table of sections as dotted keys: ``{"display": {"rotate": 2}}`` is
    ``{"display.rotate": 2}`` (a value outside a section keeps its own name)."""
    keys: dict[str, object] = {}
    for section, values in table.items():
        if isinstance(values, dict):
            keys.update((f"{section}.{name}", value) for name, value in values.items())
        else:
            keys[section] = values
    return keys


def layered(config: Config, path: Path) -> tuple[Config, str]:
    """``config`` with the phone's settings kept in ``path`` laid over it, and what was
    wrong with them if they were not taken (a file the card's newer settings no longer
    fit: the card's stand). No file: ``config`` as it is."""
    if not os.path.lexists(path):
        return config, ""
    try:
        table = read_toml(path)  # the config file's own reading
    except ConfigError as error:
        return config, f"{path}: not the phone's settings " \
                       f"({str(error).removeprefix(f'{path}: ')})"
    try:
        return changed(config, flat(table), str(path)), ""
    except ConfigError as error:
        return config, str(error)


ALSA_DEVICE_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_-:,=.")
PLAYING_DEVICES = frozenset({"default", "sysdefault", "hw", "plughw", "dmix", "front", "null",
                             "pulse", "pipewire"})
"""ALSA's device kinds that play to a card (or nowhere: ``null``); ``file``, ``tee``,
``shm`` and the like write sound elsewhere (``file:FILE=robinson.db`` would overwrite the
saves), and a nested plugin (a second ``:``) could name one."""


def playing_device(device: str) -> bool:
    """``device`` is one of PLAYING_DEVICES, alone or with its card's arguments."""
    kind, _, args = device.partition(":")
    return kind in PLAYING_DEVICES and ":" not in args


def _voice(reader: _Reader, table: dict[str, Any]) -> Voice:
    v = Voice()
    device = table.get("device", v.device)
    if not isinstance(device, str) or not 0 < len(device) <= 64 \
            or not set(device) <= ALSA_DEVICE_LETTERS:
        raise reader.error("voice.device", "must be \"auto\" or an ALSA device name such as "
                           "\"plughw:CARD=Headphones,DEV=0\" "
                           "or \"plughw:1,0\" (letters, digits and _-:,=. only; "
                           "`aplay -L` lists them)", device)
    amplifier = reader.boolean(table, "i2s_amplifier", v.i2s_amplifier, "voice.")
    if device == "default" and amplifier:
        # the line the template had before "auto": ALSA's default is card 0 (the jack or
        # HDMI), never the amplifier, so with one it means the amplifier's card
        device = AUTO
    if device != AUTO and not playing_device(device):
        raise reader.error("voice.device", "must be a device that plays to a card: "
                           "default, sysdefault, hw, plughw, dmix, front, pulse or pipewire "
                           "(with its card, as \"plughw:CARD=MAX98357A,DEV=0\"); a file or tee "
                           "device is refused, it would write the sound into a file", device)
    return Voice(reader.boolean(table, "enabled", v.enabled, "voice."),
                 reader.boolean(table, "storyteller", v.storyteller, "voice."),
                 reader.integer(table, "volume", v.volume, VOLUMES_ALLOWED.start,
                                VOLUMES_ALLOWED[-1], "voice."),
                 reader.integer(table, "speed", v.speed, SPEEDS_ALLOWED.start,
                                SPEEDS_ALLOWED[-1], "voice."),
                 device, amplifier)


def _names(cls: type) -> set[str]:
    return {f.name for f in fields(cls)}


def _pins(reader: _Reader, table: dict[str, Any]) -> Pins:
    default = Pins()
    seats = reader.pin_list(table, "seats", default.seats, 2, MAX_PLAYERS)
    leds = reader.pin_list(table, "leds", default.leds, 0, MAX_PLAYERS)
    use_leds = reader.boolean(table, "use_leds", default.use_leds)
    if use_leds and len(leds) < len(seats):
        raise reader.error("pins.leds", f"needs one LED pin per seat ({len(seats)})", leds)
    return Pins(reader.pin(table, "button", default.button), seats, leds,
                reader.pin(table, "buzzer", default.buzzer), use_leds,
                reader.boolean(table, "use_buzzer", default.use_buzzer))


def _display(reader: _Reader, table: dict[str, Any]) -> Display:
    d = Display()
    name = reader.choice(table, "display", DISPLAYS, d.display, "display.")
    kind = PANELS[name]
    interface = Interface(reader.choice(table, "interface", kind.interfaces, kind.interfaces[0],
                                        "display.", why=f" for {name}"))
    width = reader.integer(table, "width", kind.sizes[0][0], 1, 480, "display.")
    height = reader.integer(table, "height", kind.sizes[0][1], 1, 480, "display.")
    if (width, height) not in kind.sizes:
        sizes = ", ".join(f"{w}x{h}" for w, h in kind.sizes)
        raise reader.error("display.width/height", f"must be one of {sizes} for {name}",
                           f"{width}x{height}")
    speed = reader.integer(table, "spi_bus_speed", d.spi_bus_speed, 500_000, 52_000_000,
                           "display.")
    if speed / 1e6 not in SPI_SPEEDS_MHZ:
        raise reader.error("display.spi_bus_speed", "must be one of luma's SPI speeds: "
                           + ", ".join(f"{int(m * 1e6)}" for m in SPI_SPEEDS_MHZ), speed)
    return Display(
        name, interface, width, height,
        reader.integer(table, "i2c_port", d.i2c_port, 0, 31, "display."),
        reader.integer(table, "i2c_address", d.i2c_address, 0x03, 0x77, "display."),
        reader.integer(table, "spi_port", d.spi_port, 0, 6, "display."),
        reader.integer(table, "spi_device", d.spi_device, 0, 2, "display."),
        speed,
        reader.integer(table, "spi_mode", d.spi_mode, 0, 3, "display."),
        reader.pin(table, "gpio_data_command", d.gpio_data_command, "display."),
        reader.pin(table, "gpio_reset", d.gpio_reset, "display."),
        reader.pin(table, "gpio_backlight", d.gpio_backlight, "display."),
        reader.choice(table, "backlight_active", ("high", "low"), d.backlight_active,
                      "display."),
        reader.boolean(table, "bgr", d.bgr, "display."),
        reader.integer(table, "h_offset", d.h_offset, -320, 320, "display."),
        reader.integer(table, "v_offset", d.v_offset, -320, 320, "display."),
        reader.integer(table, "rotate", d.rotate, 0, 3, "display."),
        reader.integer(table, "contrast", d.contrast, 1, 255, "display."))


def display_option(text: str) -> Display:
    """``--display NAME[:WIDTHxHEIGHT]``: a panel chosen without a config (emulated), on
    the interface it usually comes wired to; checked as the config's [display] is."""
    name, _, size = text.partition(":")
    table: dict[str, Any] = {"display": name}
    if size:
        width, _, height = size.lower().partition("x")
        if not all(n.isascii() and n.isdigit() and len(n) <= 4 for n in (width, height)):
            raise ConfigError(f"--display: the size must be WIDTHxHEIGHT, e.g. "
                              f"ssd1306:128x32 (found {_found(size)})")
        table.update(width=int(width), height=int(height))
    return _display(_Reader("--display"), table)


def _timings(reader: _Reader, table: dict[str, Any]) -> Timings:
    t = Timings()
    long_press = reader.number(table, "long_press", t.long_press, 0.3, 5.0)
    menu_press = reader.number(table, "menu_press", t.menu_press, 1.0, 10.0)
    if menu_press <= long_press:
        raise reader.error("timings.menu_press", "must be longer than timings.long_press",
                           menu_press)
    return Timings(long_press, menu_press,
                   reader.number(table, "debounce", t.debounce, 0.001, 0.2),
                   reader.number(table, "animation", t.animation, 0.0, 1.0),
                   reader.number(table, "page", t.page, 1.0, 30.0),
                   reader.number(table, "dim_after", t.dim_after, 5.0, 86400.0),
                   reader.number(table, "blank_after", t.blank_after, 5.0, 86400.0),
                   reader.number(table, "shift_every", t.shift_every, 10.0, 86400.0))


def _rules(reader: _Reader, table: dict[str, Any]) -> HouseRules:
    values: dict[str, str] = {}
    for name, value in table.items():
        if isinstance(value, bool):
            values[name] = "true" if value else "false"
        elif isinstance(value, int | str):
            values[name] = str(value)
        else:
            raise reader.error(f"rules.{name}", "must be a number, true/false or a word", value)
    try:
        return HouseRules.from_strings(values)
    except RobinsonError as error:
        raise ConfigError(f"{reader.source}: [rules] {error}") from None


def _check_wiring(reader: _Reader, pins: Pins, display: Display,
                  voice: Voice | None = None) -> None:
    used: dict[int, str] = {}
    reserved: dict[int, str] = {}
    for key, pin, what in _bus_pins(display, voice):
        if pin in reserved:
            if key == "voice.i2s_amplifier":
                raise reader.error(key, f"needs GPIO {pin} for {what}, but the panel uses it "
                                   f"({reserved[pin]})", True)
            raise reader.error(key, f"GPIO {pin} is taken by {reserved[pin]}", pin)
        reserved[pin] = (f"{what} ({key}): wire it to a free pin"
                         if key == "voice.i2s_amplifier" else what)
    for key, pin in _wired(pins):
        if pin in reserved:
            raise reader.error(key, f"GPIO {pin} is taken by {reserved[pin]}", pin)
        if pin in used:
            raise reader.error(key, f"GPIO {pin} is already used by {used[pin]}", pin)
        used[pin] = key


def _bus_pins(display: Display, voice: Voice | None) -> list[tuple[str, int, str]]:
    """The pins the panel's bus, the panel's own lines and the amplifier take: (the key
    that takes it, the pin, what it is), the bus's first (SPI 2-6 are a Pi 4's or 5's,
    wired as its overlays say: unchecked)."""
    bus = (I2C_PINS if display.interface is Interface.I2C else
           SPI_PINS if display.spi_port == 0 else SPI1_PINS if display.spi_port == 1 else {})
    taken = [("display.interface", pin, what) for pin, what in bus.items()]
    if display.interface is Interface.SPI and display.spi_port == 1 \
            and display.spi_device in SPI1_CE:
        taken.append(("display.spi_device", SPI1_CE[display.spi_device],
                      f"SPI1 CE{display.spi_device}"))
    if display.interface is Interface.SPI:
        taken += [("display.gpio_data_command", display.gpio_data_command,
                   "display.gpio_data_command"),
                  ("display.gpio_reset", display.gpio_reset, "display.gpio_reset")]
        if display.kind.package == "luma.lcd":
            taken.append(("display.gpio_backlight", display.gpio_backlight,
                          "display.gpio_backlight"))
    if voice is not None and voice.i2s_amplifier:
        taken += [("voice.i2s_amplifier", pin, what) for pin, what in I2S_PINS.items()]
    return taken


def _wired(pins: Pins) -> list[tuple[str, int]]:
    """The button's, the seats', and (where used) the LEDs' and the buzzer's pins."""
    wired = [("pins.button", pins.button)]
    wired += [(f"pins.seats[{i}]", p) for i, p in enumerate(pins.seats, 1)]
    if pins.use_leds:
        wired += [(f"pins.leds[{i}]", p) for i, p in enumerate(pins.leds[:len(pins.seats)], 1)]
    if pins.use_buzzer:
        wired.append(("pins.buzzer", pins.buzzer))
    return wired


def taken(config: Config) -> dict[int, str]:
    """What each pin the config uses is taken by (a checked config takes each once): the
    header as a phone's page draws it."""
    return {**{pin: what for _, pin, what in _bus_pins(config.display, config.voice)},
            **{pin: key for key, pin in _wired(config.pins)}}


def _found(value: object, limit: int = 40) -> str:
    """A refused value as it was written, cut short: a 2 MB value is not echoed."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


class _Reader:
    """Typed reads from a TOML table, each failure one clear ConfigError."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, key: str, what: str, value: object) -> ConfigError:
        return ConfigError(f"{self.source}: {key} {what} (found {_found(value)})")

    def table(self, value: object, name: str, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(name or "the file", "must be a table", value)
        for key in value:
            if key not in allowed:
                where = f"[{name}] " if name else ""
                raise ConfigError(f"{self.source}: unknown key {where}{key!r}; "
                                  f"allowed: {', '.join(sorted(allowed))}")
        return value

    def choice(self, table: dict[str, Any], key: str, options: tuple[str, ...], default: str,
               prefix: str = "", why: str = "") -> str:
        value = table.get(key, default)
        if value not in options:
            raise self.error(prefix + key, f"must be one of {', '.join(options)}{why}", value)
        return str(value)

    def boolean(self, table: dict[str, Any], key: str, default: bool,
                prefix: str = "pins.") -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.error(prefix + key, "must be true or false", value)
        return value

    def integer(self, table: dict[str, Any], key: str, default: int, low: int, high: int,
                prefix: str = "") -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.error(prefix + key, f"must be a whole number from {low} to {high}", value)
        return value

    def number(self, table: dict[str, Any], key: str, default: float, low: float,
               high: float) -> float:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not low <= value <= high:
            raise self.error(f"timings.{key}", f"must be a number from {low} to {high}", value)
        return float(value)

    def pin(self, table: dict[str, Any], key: str, default: int, prefix: str = "pins.") -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value not in USABLE:
            raise self.error(prefix + key, "must be a BCM GPIO number from 2 to 27", value)
        return value

    def pin_list(self, table: dict[str, Any], key: str, default: tuple[int, ...], least: int,
                 most: int) -> tuple[int, ...]:
        value = table.get(key, list(default))
        if not isinstance(value, list) or not least <= len(value) <= most:
            raise self.error(f"pins.{key}", f"must be a list of {least} to {most} pins", value)
        return tuple(self.pin({key: v}, key, 0) for v in value)

    def strings(self, table: dict[str, Any], key: str, most: int) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or len(value) > most \
                or not all(isinstance(v, str) and name_fits(v.strip()) for v in value):
            raise self.error(key, f"must be a list of at most {most} names of up to "
                             f"{NAME_LETTERS} letters (Japanese: {NAME_LETTERS * 3 // 4})",
                             value)
        for index, name in enumerate(value, start=1):
            if not name.isprintable():
                raise self.error(f"{key}[{index}]", "must be printable letters: no line "
                                 "breaks, tabs or other control characters", name)
        return tuple(v.strip() for v in value)
