"""What the config wires to the Pi's 40-pin header: one list, from which WIRING.md, the
schematic and the default config.toml are all generated."""

from __future__ import annotations

from dataclasses import dataclass, fields

from firmware.config.settings import Config
from firmware.display.layout import NAME_LETTERS
from firmware.display.panels import PANELS, Interface
from firmware.header import (
    AMPLIFIER_PINS,
    CE0,
    GROUND,
    I2C_PINS,
    I2S_PINS,
    MOSI,
    PHYSICAL,
    SCL,
    SCLK,
    SDA,
    SPI_PINS,
    USABLE,
)

LED_RESISTOR = "220 Ω (red, yellow) or 68 Ω (blue, white, bright green)"
"""About 5 mA at 3.3 V either way: 330 Ω leaves a blue or white LED under 1 mA."""


def free_pins(config: Config) -> list[int]:
    """The GPIOs the config leaves free (not the display's bus, nor the SPI lines)."""
    pins, display = config.pins, config.display
    used = {pins.button, *pins.seats, *pins.leds, pins.buzzer, *I2C_PINS, *SPI_PINS,
            display.gpio_data_command, display.gpio_reset}
    return [gpio for gpio in USABLE if gpio not in used]


@dataclass(frozen=True)
class Wire:
    """One connection: what, which GPIO, which header pin, and to what it goes."""

    part: str
    gpio: int | None
    pin: int
    other_end: str
    optional: bool = False


SPI_PANELS = (("ssd1322", "SSD1322 greyscale OLED (3.12\", 256x64) on SPI"),
              ("st7789", "Colour TFT (ST7735 160x128, ST7789 240x240, ILI9341 320x240) on SPI"))
"""The SPI panels with wiring of their own: a 7-pin OLED and an 8-pin TFT module."""


def panel_wires(config: Config, panel: str) -> list[Wire]:
    """The wires of an SPI panel ``panel`` (its name in luma), with the config's pins."""
    display = config.display
    cs = display.chip_select
    tft = PANELS[panel].package == "luma.lcd"  # a TFT, with luma.lcd's backlight pin
    out = [Wire("Panel VCC", None, 17, "3V3" + (" (or 5 V, pin 2, if the module has a "
                                                "regulator)" if tft else "")),
           Wire("Panel GND", None, 20, "GND"),
           Wire("Panel DIN (MOSI, SDA)", MOSI, PHYSICAL[MOSI], "MOSI"),
           Wire("Panel CLK (SCLK, SCL)", SCLK, PHYSICAL[SCLK], "SCLK"),
           Wire("Panel CS", cs, PHYSICAL[cs], "CE0" if cs == CE0 else "CE1"),
           Wire("Panel DC (RS)", display.gpio_data_command,
                PHYSICAL[display.gpio_data_command], "data/command"),
           Wire("Panel RST (RES)", display.gpio_reset, PHYSICAL[display.gpio_reset], "reset")]
    if tft:
        out.append(Wire("Panel BL (LED)", display.gpio_backlight,
                        PHYSICAL[display.gpio_backlight], "backlight (gpio_backlight)"))
    return out


def wires(config: Config, interface: Interface | None = None) -> list[Wire]:
    """Every connection the config asks for (the OLED on ``interface``, default the config's)."""
    pins, display = config.pins, config.display
    out = [Wire("ROLL button", pins.button, PHYSICAL[pins.button], "button, other leg to GND")]
    for seat, gpio in enumerate(pins.seats, start=1):
        out.append(Wire(f"Seat {seat} switch", gpio, PHYSICAL[gpio], "toggle switch to GND"))
    for seat, gpio in enumerate(pins.leds[:len(pins.seats)], start=1):
        out.append(Wire(f"Seat {seat} LED", gpio, PHYSICAL[gpio],
                        f"{LED_RESISTOR}, LED anode; cathode to GND", optional=True))
    out.append(Wire("Buzzer", pins.buzzer, PHYSICAL[pins.buzzer],
                    "100 Ω, piezo transducer +, − to GND "
                    "(a magnetic buzzer: see hardware/README.md)",
                    optional=True))
    if (interface or display.interface) is Interface.I2C:
        out += [Wire("OLED VCC", None, 1, "3V3"), Wire("OLED GND", None, 9, "GND"),
                Wire("OLED SDA", SDA, PHYSICAL[SDA], "SDA"),
                Wire("OLED SCL", SCL, PHYSICAL[SCL], "SCL")]
    else:
        out += [Wire("OLED VCC", None, 17, "3V3"), Wire("OLED GND", None, 20, "GND"),
                Wire("OLED MOSI (D1/SDA)", MOSI, PHYSICAL[MOSI], "MOSI"),
                Wire("OLED SCLK (D0/SCL)", SCLK, PHYSICAL[SCLK], "SCLK"),
                Wire("OLED CS", display.chip_select, PHYSICAL[display.chip_select],
                     "CE0/CE1"),
                Wire("OLED DC", display.gpio_data_command, PHYSICAL[display.gpio_data_command],
                     "data/command"),
                Wire("OLED RES", display.gpio_reset, PHYSICAL[display.gpio_reset], "reset")]
    return out


def wiring_markdown(config: Config) -> str:
    """hardware/WIRING.md."""
    lines = ["# Wiring", "",
             "Generated from the default config by `.venv/bin/python tools/generate.py`;",
             "a test proves the two agree. BCM numbers are what the config uses; the",
             "header pin is the physical pin of the 40-pin header (pin 1 is 3V3, next",
             "to the SD card end). Inputs use the Pi's internal pull-ups: wire them to",
             f"GND, any of pins {', '.join(map(str, GROUND))}.", ""]
    for title, interface in (("OLED on I2C (the default)", Interface.I2C),
                             ("OLED on SPI", Interface.SPI)):
        lines += [f"## {title}", "", "| part | GPIO (BCM) | header pin | other end |",
                  "|---|---|---|---|"]
        for wire in wires(config, interface):
            if not wire.part.startswith("OLED") and interface is Interface.SPI:
                continue
            gpio = "—" if wire.gpio is None else str(wire.gpio)
            part = wire.part + (" (optional)" if wire.optional else "")
            lines.append(f"| {part} | {gpio} | {wire.pin} | {wire.other_end} |")
        lines.append("")
    lines.append("On SPI, only the OLED's wires change; the button, switches, LEDs and buzzer")
    lines.append("stay as in the first table. Set `interface = \"spi\"` in `[display]`.")
    for panel, title in SPI_PANELS:
        lines += ["", f"## {title}", "", "| part | GPIO (BCM) | header pin | other end |",
                  "|---|---|---|---|"]
        for wire in panel_wires(config, panel):
            gpio = "—" if wire.gpio is None else str(wire.gpio)
            lines.append(f"| {wire.part} | {gpio} | {wire.pin} | {wire.other_end} |")
    lines += ["", "For these set `display = \"ssd1322\"` (or `\"st7735\"`, `\"st7789\"`,",
              "`\"ili9341\"`) in `[display]`; they come on SPI only, and",
              "`sudo ./install.sh` enables SPI and installs luma.lcd for a TFT. Module",
              "pins go by many names: wire by the labels, as above. A 3.12\" SSD1322",
              "module is set for SPI with its jumpers (4-wire SPI: BS0 and BS1 low on",
              f"most boards). A TFT's backlight takes GPIO {config.display.gpio_backlight}, "
              "the buzzer's",
              "pin by default: with the buzzer, set `gpio_backlight` to a free pin",
              "(below), or tie BL to 3V3. The common 1.3\" 240x240 ST7789 boards have",
              "no CS pin: leave CS unwired and set `spi_mode = 3` (they listen only in",
              "SPI mode 3)."]
    lines += ["", *i2s_markdown(config)]
    free = ", ".join(f"GPIO {g} (pin {PHYSICAL[g]})" for g in free_pins(config))
    lines += ["", "## Free pins", "",
              f"Left free by this config, for seats 7 and 8 and a power-off button: {free}.",
              "GPIO 14 and 15 are the serial console's TX and RX: turn the console off first",
              "(`sudo raspi-config nonint do_serial_cons 1`). GPIO 14 is also the pin",
              "raspi-config's fan control (`do_fan`) drives by default: with a fan there,",
              "take another. Add a seat's pin to `pins.seats` (and an LED's to `pins.leds`)."]
    return "\n".join(lines) + "\n"


def i2s_wires() -> list[Wire]:
    """A MAX98357A I2S amplifier board's wires (the spoken banker on a Zero 2 or a Pi 5)."""
    names = {18: "BCLK", 19: "LRC (LRCLK)", 21: "DIN"}
    return [Wire("Amplifier VIN", None, 2, "5V"), Wire("Amplifier GND", None, 6, "GND"),
            *(Wire(f"Amplifier {names[gpio]}", gpio, PHYSICAL[gpio], I2S_PINS[gpio])
              for gpio in AMPLIFIER_PINS)]


def i2s_moves(config: Config) -> list[tuple[str, int, int]]:
    """The parts of ``config`` on the I2S pins, each with the pin it moves to for an
    amplifier (part, from, to): the free pins first (not the serial console's), then
    those of the LEDs not on the I2S pins (free when the LEDs are not wired)."""
    pins = config.pins
    taken = [(f"seat {i} switch", g) for i, g in enumerate(pins.seats, 1) if g in I2S_PINS]
    taken += [(f"seat {i} LED", g) for i, g in enumerate(pins.leds[:len(pins.seats)], 1)
              if g in I2S_PINS]
    taken += [("buzzer", pins.buzzer)] if pins.buzzer in I2S_PINS else []
    spare = [g for g in free_pins(config) if g not in I2S_PINS and g not in (14, 15)]
    spare += [g for g in pins.leds if g not in I2S_PINS and g not in spare]
    return [(part, old, new) for (part, old), new in zip(taken, spare, strict=False)]


def i2s_markdown(config: Config) -> list[str]:
    """WIRING.md's section on the I2S amplifier: its wires, and the parts of this config
    that sit on its pins and must move first (the config refuses them, in one line)."""
    lines = ["## Voice: a MAX98357A I2S amplifier (optional)", "",
             "| part | GPIO (BCM) | header pin | other end |", "|---|---|---|---|"]
    for wire in i2s_wires():
        gpio = "—" if wire.gpio is None else str(wire.gpio)
        lines.append(f"| {wire.part} | {gpio} | {wire.pin} | {wire.other_end} |")
    lines.append("| Speaker | — | — | the board's + and − terminals (4–8 Ω, 3 W) |")
    taken = i2s_moves(config)
    moves = [f"the {part} (GPIO {gpio})" for part, gpio, _ in taken]
    where = ", ".join(f"GPIO {new}" for _, _, new in taken)
    lines += ["", "Set `i2s_amplifier = true` and `enabled = true` in `[voice]`;",
              "`sudo ./install.sh` then writes `dtoverlay=max98357a,no-sdmode` to config.txt",
              "(a reboot takes it) and installs espeak-ng and alsa-utils. Leave the board's",
              "SD pin unwired: its own resistor keeps the amplifier on (both channels mixed),",
              "and `no-sdmode` keeps the overlay off GPIO 4 (without it the driver holds",
              "GPIO 4, the seat 4 LED's pin, for as long as it runs). The amplifier is wired",
              "to GPIO 18, 19 and 21, and its overlay holds the whole I2S group, GPIO 18 to 21",
              "(20 is the Pi's I2S input, left unwired): the config refuses any part on",
              "them, in one line naming it. In this config",
              f"{', '.join(moves)} sit there; move them (`pins.seats`, `pins.buzzer`) to,",
              f"say, {where} (pins the LEDs leave free when they are not wired; with",
              "the LEDs, a table that speaks has four seats). A TFT's backlight",
              f"(`gpio_backlight`, GPIO {config.display.gpio_backlight}) moves too.",
              "",
              "The voice plays to the amplifier's card by its name (`device = \"auto\"`,",
              "`plughw:CARD=MAX98357A,DEV=0`): ALSA's `default` is card 0, which is the",
              "3.5 mm jack on a Pi 3 or 4 and HDMI on a Pi 5. The amplifier has no mixer",
              "control (alsamixer has nothing for it): its loudness is `volume` in `[voice]`",
              "(10–100) and the board's GAIN pin (unwired 9 dB, to GND 12 dB, through",
              "100 kΩ to GND 15 dB, to VIN 6 dB). A Pi 3 or 4 needs no amplifier: `auto`",
              "finds a USB speaker, else the jack (card `Headphones`, loudness:",
              "alsamixer's PCM control); or name a card as `aplay -l` lists it,",
              "`device = \"plughw:CARD=NAME,DEV=0\"`."]
    return lines


def default_toml(config: Config | None = None) -> str:
    """The default /etc/robinson-table/config.toml: every setting, at its default."""
    config = config or Config()
    out = ["# Robinson Table settings. Every key is optional; these are the defaults.",
           "# An unknown key or a bad value stops the table with a message naming it.",
           "",
           f'language = "{config.language}"  # en, hr, fi, ja',
           f'hardware = "{config.hardware}"  # pi, emulate, or auto: the Pi if this is one',
           "seat_names = []  # e.g. [\"Ana\", \"Ben\"]: seat 1, seat 2 … "
           f"(up to {NAME_LETTERS} letters)",
           ""]
    for name, section in (("pins", config.pins), ("display", config.display),
                          ("timings", config.timings), ("voice", config.voice)):
        out.append(f"[{name}]")
        for field in fields(section):
            out.append(f"{field.name} = {_toml(getattr(section, field.name), field.name)}")
        out.append("")
    out.append("[rules]")
    for name, text in config.rules.as_strings().items():
        bare = text in ("true", "false") or text.isdigit()  # TOML booleans and numbers
        out.append(f"{name} = {text if bare else _toml(text, name)}")
    out += ["", "[web]",
            "# The companion page: the table on every phone on the home network (robinson web,",
            "# its own unit, socket-activated). Reading is open to the home network; every change",
            "# needs a phone paired with the code on the panel (menu: Phone). false: no page."]
    out += [f"{field.name} = {_toml(getattr(config.web, field.name), field.name)}"
            for field in fields(config.web)]
    return "\n".join(out) + "\n"


def _toml(value: object, name: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    if name == "i2c_address" and isinstance(value, int):
        return hex(value)
    return str(value)
