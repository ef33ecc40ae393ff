"""What a paired phone may change of the settings (the panel, the amplifier, the pins),
checked as the file is, and kept in the state folder (``firmware.saves.hardware``) to lie
over the file at each start."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from firmware.config.file import read_toml
from firmware.config.reading import found, parse
from firmware.config.settings import Config
from firmware.display.panels import Interface
from firmware.errors import ConfigError, HardwareError

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
            raise ConfigError(f"{source}: {found(key)} is not a setting a phone may change "
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


def set_aside(error: BaseException, phone: Path, by_phone: bool) -> BaseException:
    """``error``, or where the panel or the pins a phone chose cannot be had, that said,
    with the phone's hardware settings set aside: the next start (systemd's, in seconds)
    runs with the config's, and a phone can try again."""
    if not isinstance(error, HardwareError) or not by_phone:
        return error
    try:
        phone.replace(phone.with_name(PHONE_FILE + ".not-taken"))
    except OSError as why:
        return HardwareError(f"{error} (with the hardware settings a phone made, which could "
                             f"not be set aside: {why.strerror}; remove {phone})")
    return HardwareError(f"{error} (with the hardware settings a phone made: they are set "
                         f"aside as {PHONE_FILE}.not-taken; the next start runs with the "
                         "config's)")
