"""The OLED: a luma.oled device built from the config, and what the app asks of it.

The real panel is built by luma.core's own cmdline (``--display``,
``--interface``…); the emulated one is the same luma driver on a PanelBus.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from luma.core import cmdline
from luma.core.interface.serial import i2c
from PIL import Image, ImageChops

from firmware.config import Display
from firmware.display.partial import PartialWriter
from firmware.emulate.bus import PanelBus

log = logging.getLogger("robinson.panel")

SHIFTS = ((0, 0), (1, 0), (1, 1), (0, 1))  # burn-in: move everything a pixel, in turn


def real_device(display: Display) -> Any:
    """The luma device for the wired panel (raises if it is not there)."""
    parser = cmdline.create_parser(description="Robinson Table panel")
    args = parser.parse_args(display.luma_args())
    device = cmdline.create_device(args)
    device.persist = True  # keep the last frame at exit: the 'switched off' screen
    return device


def emulated_device(display: Display, bus: PanelBus) -> Any:
    """The same luma driver class, writing to a PanelBus instead of /dev/i2c."""
    import luma.oled.device

    driver = getattr(luma.oled.device, display.display)
    device = driver(i2c(bus=bus, address=display.i2c_address), width=128, height=64,
                    rotate=display.rotate)
    device.persist = True
    return device


class Panel:
    """Shows images on a luma device: skips repeats, dims, blanks, shifts, survives faults."""

    def __init__(self, make_device: Callable[[], Any], contrast: int = 255,
                 on_frame: Callable[[Image.Image], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 on_change: Callable[[], None] | None = None) -> None:
        self._make_device = make_device
        self.contrast = contrast
        self.on_frame = on_frame
        self.on_change = on_change  # after anything reached the panel (the terminal redraws)
        self.clock = clock
        self.device: Any = None
        self.writer: PartialWriter | None = None
        self.shown: Image.Image | None = None  # the last image the app asked for
        self.shift = 0
        self.dimmed = False
        self.blank = False
        self.faults = 0
        self._last_log = -1e9
        self._connect()

    def _connect(self) -> bool:
        try:
            self.device = self._make_device()
            self.device.contrast(self._level())
            self.writer = PartialWriter(self.device)  # the panel's memory is unknown: send all
            return True
        except Exception as error:
            self._fault(error)
            self.device = None
            return False

    def _level(self) -> int:
        return max(1, self.contrast // 8) if self.dimmed else self.contrast

    def _fault(self, error: BaseException) -> None:
        self.faults += 1
        now = self.clock()
        if now - self._last_log >= 1.0:  # at most one line a second, however bad the bus
            self._last_log = now
            log.warning("display: %s (the game goes on; retrying)", error)

    def show(self, image: Image.Image) -> None:
        """Put ``image`` on the panel (nothing is sent if it is already there)."""
        self.shown = image
        self._send()

    def _send(self) -> None:
        if self.shown is None or self.blank:
            return
        if self.device is None and not self._connect():
            return
        image = self.shown
        dx, dy = SHIFTS[self.shift % len(SHIFTS)]
        if dx or dy:
            image = ImageChops.offset(image, dx, dy)
        try:
            assert self.writer is not None
            if not self.writer.display(image):
                return  # already on the panel: nothing was sent
        except Exception as error:
            self._fault(error)
            self.device = None
            return
        if self.on_frame is not None:
            self.on_frame(image)
        if self.on_change is not None:
            self.on_change()

    def retry(self) -> None:
        """Try again to show the current image (after a fault)."""
        self._send()

    @property
    def healthy(self) -> bool:
        """The panel answers and holds a frame we sent."""
        return self.device is not None and self.writer is not None \
            and self.writer.memory is not None

    def set_contrast(self, level: int) -> None:
        self.contrast = level
        self._command(lambda: self.device.contrast(self._level()))

    def dim(self, dimmed: bool) -> None:
        self.dimmed = dimmed
        self._command(lambda: self.device.contrast(self._level()))

    def sleep(self) -> None:
        """Blank the panel against burn-in (the frame stays in the panel's memory)."""
        self.blank = True
        self._command(lambda: self.device.hide())

    def wake(self) -> None:
        self.blank = False
        self.dimmed = False
        self._command(lambda: (self.device.contrast(self._level()), self.device.show()))
        self._send()

    def next_shift(self) -> None:
        self.shift += 1
        self._send()

    def _command(self, action: Callable[[], object]) -> None:
        if self.device is None:
            return
        try:
            action()
        except Exception as error:
            self._fault(error)
            self.device = None
            return
        if self.on_change is not None:
            self.on_change()
