"""The Raspberry Pi's 40-pin header, read from gpiozero's own board data (its ``pi_info``).

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
