"""The hardware settings a paired phone made (the panel, the pins, the amplifier), kept in
the state folder as ``hardware.toml`` and laid over the config at every start
(``firmware.config.layered``, with the config file's own checks). The table writes it;
nothing else does. An edit of the settings file on the SD card is newer: the boot's
settings check (``firmware.boot_settings``) sets this file aside when it takes one.

>>> print(toml({"display.display": "sh1106", "display.rotate": 2, "pins.seats": [5, 6]}))
# The hardware settings a paired phone made: laid over the config at every start.
# Edit the settings file instead; a newer one there sets this file aside.
display.display = "sh1106"
display.rotate = 2
pins.seats = [5, 6]
<BLANKLINE>
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from firmware.config.file import read_toml
from firmware.config.phone import PHONE_FILE, flat
from firmware.errors import ConfigError


def _value(value: object) -> str:
    """A value as TOML writes it: the phone's are words, whole numbers, true or false, and
    lists of pins (a JSON string of printable ASCII is a TOML basic string)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=True)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise ValueError(f"not a setting's value: {value!r}")


def toml(changes: Mapping[str, object]) -> str:
    """``changes`` (dotted keys) as the file's text."""
    lines = ["# The hardware settings a paired phone made: laid over the config at every "
             "start.", "# Edit the settings file instead; a newer one there sets this file "
             "aside."]
    lines += [f"{key} = {_value(value)}" for key, value in changes.items()]
    return "\n".join(lines) + "\n"


def kept(directory: Path) -> dict[str, object]:
    """The settings kept (dotted keys); none where the file is missing or not one."""
    try:
        return flat(read_toml(directory / PHONE_FILE))
    except ConfigError:  # a start sets such a file aside anyway
        return {}


def keep(directory: Path, changes: Mapping[str, object]) -> None:
    """Keep ``changes`` over those kept before, the file written whole (a new file,
    synced, then renamed): a cut leaves the old one or the new one. OSError if the disk
    refuses."""
    changes = {**kept(directory), **changes}
    target = directory / PHONE_FILE
    trial = directory / f".{PHONE_FILE}.new"
    descriptor = os.open(trial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o600)
    with open(descriptor, "w", encoding="utf-8") as file:
        file.write(toml(changes))
        file.flush()
        os.fsync(file.fileno())
    os.replace(trial, target)
    folder = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
