"""Which pin does what: the pins the panel's bus and its own lines and the amplifier take,
the ones the button, the seats, the LEDs and the buzzer are wired to, and the one check
that no pin is taken twice (the config's and a phone's settings; a phone's page draws the
header from ``taken``).
"""

from __future__ import annotations

from firmware.config.settings import Config, Display, Pins, Voice
from firmware.display.panels import Interface
from firmware.header import I2C_PINS, I2S_PINS, SPI1_CE, SPI1_PINS, SPI_PINS


def clash(pins: Pins, display: Display,
          voice: Voice | None = None) -> tuple[str, str, object] | None:
    """The first pin taken twice, as the settings would be told it: (the key that takes
    it, what is wrong, the value found); None when each pin has one use."""
    used: dict[int, str] = {}
    reserved: dict[int, str] = {}
    for key, pin, what in bus_pins(display, voice):
        if pin in reserved:
            if key == "voice.i2s_amplifier":
                return key, (f"needs GPIO {pin} for {what}, but the panel uses it "
                             f"({reserved[pin]})"), True
            return key, f"GPIO {pin} is taken by {reserved[pin]}", pin
        reserved[pin] = (f"{what} ({key}): wire it to a free pin"
                         if key == "voice.i2s_amplifier" else what)
    for key, pin in wired(pins):
        if pin in reserved:
            return key, f"GPIO {pin} is taken by {reserved[pin]}", pin
        if pin in used:
            return key, f"GPIO {pin} is already used by {used[pin]}", pin
        used[pin] = key
    return None


def bus_pins(display: Display, voice: Voice | None) -> list[tuple[str, int, str]]:
    """The pins the panel's bus, the panel's own lines and the amplifier take: (the key
    that takes it, the pin, what it is), the bus's first (SPI 2-6 are a Pi 4's or 5's,
    wired as its overlays say: unchecked)."""
    bus = (I2C_PINS if display.interface is Interface.I2C else
           SPI_PINS if display.spi_port == 0 else SPI1_PINS if display.spi_port == 1 else {})
    held = [("display.interface", pin, what) for pin, what in bus.items()]
    if display.interface is Interface.SPI and display.spi_port == 1 \
            and display.spi_device in SPI1_CE:
        held.append(("display.spi_device", SPI1_CE[display.spi_device],
                     f"SPI1 CE{display.spi_device}"))
    if display.interface is Interface.SPI:
        held += [("display.gpio_data_command", display.gpio_data_command,
                  "display.gpio_data_command"),
                 ("display.gpio_reset", display.gpio_reset, "display.gpio_reset")]
        if display.kind.package == "luma.lcd":
            held.append(("display.gpio_backlight", display.gpio_backlight,
                         "display.gpio_backlight"))
    if voice is not None and voice.i2s_amplifier:
        held += [("voice.i2s_amplifier", pin, what) for pin, what in I2S_PINS.items()]
    return held


def wired(pins: Pins) -> list[tuple[str, int]]:
    """The button's, the seats', and (where used) the LEDs' and the buzzer's pins."""
    found = [("pins.button", pins.button)]
    found += [(f"pins.seats[{i}]", p) for i, p in enumerate(pins.seats, 1)]
    if pins.use_leds:
        found += [(f"pins.leds[{i}]", p) for i, p in enumerate(pins.leds[:len(pins.seats)], 1)]
    if pins.use_buzzer:
        found.append(("pins.buzzer", pins.buzzer))
    return found


def taken(config: Config) -> dict[int, str]:
    """What each pin the config uses is taken by (a checked config takes each once): the
    header as a phone's page draws it."""
    return {**{pin: what for _, pin, what in bus_pins(config.display, config.voice)},
            **{pin: key for key, pin in wired(config.pins)}}
