"""The Raspberry Pi's 40-pin header, read from gpiozero's own board data (its ``pi_info``).

Every 40-pin Pi, from the B+ to the Pi 5, has the same header, so one model's
data serves all: BCM GPIO numbers to physical pins, and where GND and 3V3 are.

>>> PHYSICAL[17], GROUND[:2], POWER_3V3
(11, (6, 9), (1, 17))
"""

from __future__ import annotations

from gpiozero import pi_info

_J8 = pi_info("a02082").headers["J8"].pins  # a Pi 3B: any 40-pin model would do

PHYSICAL: dict[int, int] = {int(p.name[4:]): p.number for p in _J8.values()
                            if p.name.startswith("GPIO")}
"""BCM GPIO number -> physical pin of the header."""
GROUND: tuple[int, ...] = tuple(p.number for p in _J8.values() if p.name == "GND")
POWER_3V3: tuple[int, ...] = tuple(p.number for p in _J8.values() if p.name == "3V3")
USABLE = range(2, max(PHYSICAL) + 1)
"""The GPIOs a table may use: 0 and 1 belong to the HAT EEPROM."""
