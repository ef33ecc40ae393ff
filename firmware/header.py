"""The Raspberry Pi's 40-pin header: which pins the buses (I2C, SPI, I2S) take, and the
rest read from gpiozero's own board data (its ``pi_info``).

Every 40-pin Pi, from the B+ to the Pi 5, has the same header, so one model's
data serves all: BCM GPIO numbers to physical pins, and where GND is. The board
data is read when first asked for, so the config's checks load no gpiozero.

>>> from firmware.header import GROUND, PHYSICAL
>>> PHYSICAL[17], GROUND[:2], USABLE
(11, (6, 9), range(2, 28))
"""

from __future__ import annotations

import functools
from typing import Any

USABLE = range(2, 28)
"""The GPIOs a table may use: 0 and 1 belong to the HAT EEPROM; 27 is the last on the header."""

SDA, SCL = 2, 3  # the I2C bus the panel is on (BCM numbers)
CE1, CE0, MISO, MOSI, SCLK = 7, 8, 9, 10, 11  # SPI
I2C_PINS = {SDA: "I2C SDA", SCL: "I2C SCL"}
SPI_PINS = {CE1: "SPI CE1", CE0: "SPI CE0", MISO: "SPI MISO", MOSI: "SPI MOSI", SCLK: "SPI SCLK"}
SPI1_PINS = {19: "SPI1 MISO", 20: "SPI1 MOSI", 21: "SPI1 SCLK"}  # the auxiliary SPI
SPI1_CE = {0: 18, 1: 17, 2: 16}  # its chip selects (dtoverlay=spi1-3cs): the one in use
I2S_PINS = {18: "I2S BCLK", 19: "I2S LRCLK", 20: "I2S DIN (unwired)", 21: "I2S DOUT"}
"""The pins the I2S overlay takes, as one group (``i2s_pins <18 19 20 21>`` in the
Pi 4's device tree, ``rp1_i2s0_18_21`` on the Pi 5): bit clock, word clock, the Pi's
data in (a MAX98357A leaves it unwired, but the group holds it) and data out."""

AMPLIFIER_PINS = (18, 19, 21)
"""The I2S pins a MAX98357A is wired to (its BCLK, LRC and DIN)."""


@functools.cache
def _header() -> dict[str, Any]:
    from gpiozero import pi_info

    pins = pi_info("a02082").headers["J8"].pins.values()  # a Pi 3B: any 40-pin model would do
    return {"PHYSICAL": {int(p.name[4:]): p.number for p in pins if p.name.startswith("GPIO")},
            "GROUND": tuple(p.number for p in pins if p.name == "GND"),
            "NAMES": {p.number: p.name for p in pins}}


PHYSICAL: dict[int, int]
"""BCM GPIO number -> physical pin of the header."""
GROUND: tuple[int, ...]
NAMES: dict[int, str]
"""Physical pin -> its name on the header: "GPIO17", "GND", "3V3", "5V"."""


def __getattr__(name: str) -> Any:
    if name in ("PHYSICAL", "GROUND", "NAMES"):
        return _header()[name]
    raise AttributeError(name)
