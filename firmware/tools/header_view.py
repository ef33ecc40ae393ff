"""The 40-pin header as a maker sees it from above, every pin with what the config wires to
it: hardware/header.svg (the default config) and hardware/header-voice.svg (the same with
the I2S amplifier, its parts moved off the I2S pins as WIRING.md says). Drawn as plain
SVG text from ``wiring.wires``: no plotting library, and the same bytes every time, so a
test can say the checked-in pictures are the config's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from html import escape

from firmware.config.settings import Config
from firmware.display.panels import Interface
from firmware.header import GROUND, I2S_PINS, PHYSICAL
from firmware.tools.wiring import Wire, i2s_moves, i2s_wires, wires

POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}
ROW, TOP, LEFT_PIN, RIGHT_PIN, WIDTH = 26, 96, 430, 470, 900
COLOURS = {"power": "#c62828", "ground": "#212121", "panel": "#1565c0", "button": "#2e7d32",
           "seat": "#6a1b9a", "led": "#ef6c00", "buzzer": "#00838f", "amplifier": "#ad1457",
           "free": "#bdbdbd", "held": "#9e9e9e"}


def speaking(config: Config) -> Config:
    """``config`` with the voice's I2S amplifier, and its parts on the I2S pins moved to
    the pins WIRING.md names (the LEDs off: their pins are the ones taken)."""
    pins = config.pins
    moved = {old: new for _, old, new in i2s_moves(config)}
    seats = tuple(moved.get(g, g) for g in pins.seats)
    buzzer = moved.get(pins.buzzer, pins.buzzer)
    return dataclasses.replace(
        config, pins=dataclasses.replace(pins, seats=seats, buzzer=buzzer, use_leds=False),
        voice=dataclasses.replace(config.voice, enabled=True, i2s_amplifier=True))


HEADER_VIEWS: dict[str, Callable[[Config], Config]] = {
    "header.svg": lambda config: config, "header-voice.svg": speaking}
"""hardware/'s header pictures, and the config each draws from the default one."""
HEADER_TITLES = {"header.svg": "Robinson Table: what goes where on the header",
                 "header-voice.svg": "Robinson Table with its voice (an I2S amplifier)"}


def kind(wire: Wire) -> str:
    name = wire.part.lower()
    for word, colour in (("oled", "panel"), ("panel", "panel"), ("amplifier", "amplifier"),
                         ("button", "button"), ("switch", "seat"), ("led", "led"),
                         ("buzzer", "buzzer")):
        if word in name:
            return colour
    return "free"


def by_pin(config: Config) -> dict[int, list[tuple[str, str]]]:
    """Each header pin's parts (name, colour kind), as this config wires them."""
    on: dict[int, list[tuple[str, str]]] = {}
    optional = {kind for kind, used in (("led", config.pins.use_leds),
                                        ("buzzer", config.pins.use_buzzer)) if not used}
    parts = [dataclasses.replace(w, part=w.part + " (optional)") if kind(w) in optional
             else w for w in wires(config, Interface.I2C)]
    if config.voice.i2s_amplifier:  # its pins are the LEDs' it leaves free: none wired
        parts = [w for w in parts if kind(w) != "led"]
    if config.voice.i2s_amplifier:
        parts += i2s_wires()
    for wire in parts:
        on.setdefault(wire.pin, []).append((wire.part, kind(wire)))
    return on


def pin_name(pin: int) -> str:
    if pin in POWER:
        return POWER[pin]
    if pin in GROUND:
        return "GND"
    gpio = {physical: gpio for gpio, physical in PHYSICAL.items()}.get(pin)
    if gpio in (0, 1):
        return f"ID_{'SD' if gpio == 0 else 'SC'} (a HAT's EEPROM)"
    return f"GPIO {gpio}"


def header_svg(config: Config, title: str) -> str:
    """The header from above, pin 1 (3V3) top left, by the SD card's end of the board."""
    wired = by_pin(config)
    gpio_of = {physical: gpio for gpio, physical in PHYSICAL.items()}
    height = TOP + 20 * ROW + 70
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, sans-serif" '
           'font-size="12">',
           f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
           f'<text x="{WIDTH // 2}" y="28" font-size="17" text-anchor="middle" '
           f'font-weight="bold">{escape(title)}</text>',
           f'<text x="{WIDTH // 2}" y="50" text-anchor="middle">The 40-pin header from '
           'above, pin 1 (3V3) top left, at the end of the board by the SD card</text>',
           f'<text x="{WIDTH // 2}" y="68" text-anchor="middle">Switches, LEDs and the '
           'buzzer each go to GND as well: join their grounds on a strip to one GND pin</text>',
           f'<rect x="{LEFT_PIN - 22}" y="{TOP - 18}" width="{RIGHT_PIN - LEFT_PIN + 44}" '
           f'height="{20 * ROW + 10}" rx="6" fill="#263238"/>']
    for row in range(20):
        y = TOP + row * ROW
        for pin, x, anchor, side in ((2 * row + 1, LEFT_PIN, "end", -1),
                                     (2 * row + 2, RIGHT_PIN, "start", 1)):
            parts = wired.get(pin, [])
            if pin in POWER:
                colour = COLOURS["power"]
            elif pin in GROUND:
                colour = COLOURS["ground"]
            elif parts:
                colour = COLOURS[parts[0][1]]
            elif gpio_of.get(pin) in I2S_PINS and config.voice.i2s_amplifier:
                colour = COLOURS["held"]
            else:
                colour = COLOURS["free"]
            shape = "rect" if pin == 1 else "circle"
            if shape == "rect":
                out.append(f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16" '
                           f'fill="{colour}" stroke="white"/>')
            else:
                out.append(f'<circle cx="{x}" cy="{y}" r="8" fill="{colour}" '
                           'stroke="white"/>')
            out.append(f'<text x="{x + side * 30}" y="{y + 4}" text-anchor="{anchor}" '
                       f'font-weight="bold">{pin}</text>')
            label = pin_name(pin)
            if not parts and gpio_of.get(pin) in I2S_PINS and config.voice.i2s_amplifier:
                parts = [("held by the I2S overlay: leave it free", "held")]
            what = "; ".join(name for name, _ in parts)
            text = f"{label}" + (f": {what}" if what else "")
            out.append(f'<text x="{x + side * 58}" y="{y + 4}" text-anchor="{anchor}" '
                       f'fill="{colour if parts else "#616161"}">{escape(text)}</text>')
    legend = [("power", "3V3 / 5V"), ("ground", "GND"), ("panel", "panel"),
              ("button", "ROLL"), ("seat", "seat switches"), ("led", "LEDs"),
              ("buzzer", "buzzer"), ("amplifier", "amplifier"), ("free", "free")]
    x = 40
    for key, name in legend:
        out.append(f'<circle cx="{x}" cy="{height - 28}" r="7" fill="{COLOURS[key]}"/>')
        out.append(f'<text x="{x + 12}" y="{height - 24}">{escape(name)}</text>')
        x += 14 + 8 * len(name) + 22
    out.append("</svg>")
    return "\n".join(out) + "\n"
