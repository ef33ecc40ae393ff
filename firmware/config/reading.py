"""A decoded TOML table made into a ``Config``: every key checked, each failure one
ConfigError naming the file, the key, what is allowed and what was found."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from firmware.config.settings import (
    DISPLAYS,
    HARDWARE,
    SPEEDS_ALLOWED,
    SPI_SPEEDS_MHZ,
    VOLUMES_ALLOWED,
    Config,
    Display,
    Pins,
    TableOptions,
    Timings,
    Voice,
    Web,
)
from firmware.display.layout import NAME_LETTERS, name_fits
from firmware.display.panels import PANELS, Interface
from firmware.errors import ConfigError
from firmware.header import USABLE
from firmware.runtime.soundcards import ALSA_DEVICE_LETTERS, AUTO, playing_device
from firmware.wiring import clash
from robinson_core import MAX_PLAYERS, HouseRules, RobinsonError
from robinson_core.house_rules import ACCEPTED as RULE_NAMES
from robinson_core.texts import LANGUAGES


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
    if wrong := clash(pins, display, voice):
        raise reader.error(*wrong)
    options = reader.table(top.get("table", {}), "table", _names(TableOptions))
    table = TableOptions(reader.boolean(options, "odds", TableOptions.odds, "table."))
    page = reader.table(top.get("web", {}), "web", _names(Web))
    web = Web(reader.boolean(page, "enabled", Web.enabled, "web."),
              reader.integer(page, "port", Web.port, 1, 65535, "web."))
    return Config(language, hardware, names, pins, display, timings, rules, voice, source, table,
                  web)


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
                              f"ssd1306:128x32 (found {found(size)})")
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


def found(value: object, limit: int = 40) -> str:
    """A refused value as it was written, cut short: a 2 MB value is not echoed."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


class _Reader:
    """Typed reads from a TOML table, each failure one clear ConfigError."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, key: str, what: str, value: object) -> ConfigError:
        return ConfigError(f"{self.source}: {key} {what} (found {found(value)})")

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
