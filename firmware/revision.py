"""Which Raspberry Pi this is: its revision code, read as gpiozero reads it.

gpiozero's own reader (``gpiozero.pins.local.get_pi_revision``) is a dozen lines, but
importing it loads gpiozero, and gpiozero loads its board data and the entry points of
every installed package: some 60 ms of a Pi's start. The table asks whether it is on a
Pi before it draws its first frame, so it reads the same two places the same way here
(``tests/app/test_revision.py`` holds this reading to gpiozero's on the same files).
"""

from __future__ import annotations

import errno
import struct
from pathlib import Path

DEVICE_TREE = Path("/proc/device-tree/system/linux,revision")
CPUINFO = Path("/proc/cpuinfo")


def pi_revision(device_tree: Path = DEVICE_TREE, cpuinfo: Path = CPUINFO) -> int | None:
    """This board's revision code, or None if this is no Pi.

    The device tree's 4-byte big-endian ``linux,revision`` first; where it is absent,
    the ``Revision`` line of /proc/cpuinfo (the last one, as gpiozero takes it). An
    over-volted board's code ("1000" before it) is its last four digits. The service
    must be able to see one of them (the unit keeps /proc's system files visible).
    """
    revision = None
    try:
        with device_tree.open("rb") as tree:
            revision = f"{struct.unpack('>L', tree.read(4))[0]:x}"
    except struct.error:  # fewer than 4 bytes: gpiozero fails there too
        return None
    except OSError as error:
        if error.errno != errno.ENOENT:
            return None
        try:
            with cpuinfo.open(encoding="utf-8", errors="replace") as lines:
                for line in lines:
                    if line.startswith("Revision"):
                        revision = line.split(":")[1].strip().lower()
        except (OSError, IndexError):
            return None
    if revision is None:
        return None
    if revision.startswith("100"):  # over-volted
        revision = revision[-4:]
    try:
        return int(revision, 16)
    except ValueError:
        return None


def on_raspberry_pi() -> bool:
    """Whether this machine is a Raspberry Pi, as gpiozero will see it."""
    return pi_revision() is not None
