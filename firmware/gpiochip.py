"""Which /dev/gpiochipN drives the 40-pin header: found by the chip's label.

gpiozero guesses (chip 4 on a Pi 5 if /dev/gpiochip4 exists, else 0), rpi-lgpio 0.5
always took 4 on a Pi 5, and the Pi 5's chip numbers changed with kernel 6.6.45 and
again since. The label the kernel gives the header's controller does not change:
``pinctrl-rp1`` on a Pi 5 (the RP1), ``pinctrl-bcm2711`` on a Pi 4,
``pinctrl-bcm2835`` on a Pi 3 or Zero 2. It is read with the GPIO character device's
own ioctl, as ``gpiodetect`` reads it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

HEADER_LABELS = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835")
"""The header's controller on each Pi, the Pi 5's first (a Pi 5 also has brcmstb chips,
labelled gpio-brcmstb@…: the BCM2712's own pins, none of them on the header)."""

CHIPINFO = 0x8044B401  # GPIO_GET_CHIPINFO_IOCTL: _IOR(0xB4, 0x01, struct gpiochip_info)
CHIPINFO_SIZE = 68  # char name[32], char label[32], __u32 lines


def labels(dev: Path = Path("/dev")) -> dict[int, str]:
    """Each GPIO chip's number and label; a device that does not answer is left out."""
    found: dict[int, str] = {}
    for path in dev.glob("gpiochip*"):
        number = path.name[len("gpiochip"):]
        if not number.isdigit():
            continue
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            info = fcntl.ioctl(descriptor, CHIPINFO, bytes(CHIPINFO_SIZE))
        except OSError:
            continue
        finally:
            os.close(descriptor)
        found[int(number)] = info[32:64].split(b"\0")[0].decode("ascii", "replace")
    return found


def header_chip(found: dict[int, str]) -> int | None:
    """The number of the chip whose label is the header's controller, or None (not a Pi
    this knows: the libraries' own choice stands)."""
    for label in HEADER_LABELS:
        for number in sorted(found):
            if found[number] == label:
                return number
    return None


def header() -> tuple[int | None, dict[int, str]]:
    """The header's chip (None: not a Pi this knows) and every chip's label, found now;
    rpi-lgpio, which drives an SPI panel's D/C and reset lines for luma, is told the same
    chip (``RPI_LGPIO_CHIP``, read as it first opens one): the panel is made before
    gpiozero's pins, and both must drive the header."""
    found = labels()
    chip = header_chip(found)
    if chip is not None:
        os.environ.setdefault("RPI_LGPIO_CHIP", str(chip))
    return chip, found
