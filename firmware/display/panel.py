"""The OLED as the table uses it: frames, dimming, blanking, burn-in shift, and faults survived.

The luma device itself is made elsewhere (``firmware.devices`` for the wired
panel, ``firmware.emulate`` for the same driver on a recording bus) and handed
in as ``make_device``; a panel that stops answering is retried every second.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Protocol

from PIL import Image, ImageChops

from firmware.display.device import LumaDevice
from firmware.display.partial import Box, Writer, writer_for

log = logging.getLogger("robinson.panel")

SHIFTS = ((0, 0), (1, 0), (1, 1), (0, 1))  # burn-in: move everything a pixel, in turn
RETRY_FIRST, RETRY_MAX = 1.0, 30.0  # seconds between tries of a silent panel, doubling
LOUD = 3  # faults of an outage logged each; then one line a minute (the SD card)
QUIET = 60.0
# The tumbling die goes out first and alone (120 data bytes at 128x64: 14 ms at I2C's
# standard 100 kHz, where the whole first frame took 80-86 ms), the rest of its frame
# REST_AFTER later in parts no longer on the wire than a tumbling frame's 80 ms there (9
# bits a byte, less each page's window command): the loop takes a press between two.
CHUNK = 700  # data bytes
FIRST_MOST = 200  # bytes on the bus of a box sent first, its pages' windows counted (18 ms
# at 100 kHz): a page more waits for the rest
REST_AFTER = 0.01  # s


class Scheduler(Protocol):
    """Where the panel sets its retry timer: the table's loop."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> object: ...


class Panel:
    """Shows images on a luma device: skips repeats, dims, blanks, shifts, survives faults."""

    def __init__(self, make_device: Callable[[], LumaDevice], contrast: int = 255,
                 on_frame: Callable[[Image.Image], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 on_change: Callable[[], None] | None = None,
                 scheduler: Scheduler | None = None) -> None:
        self._make_device = make_device
        self.contrast = contrast
        self.on_frame = on_frame
        self.on_change = on_change  # after anything reached the panel (the terminal redraws)
        self.clock = clock
        self.scheduler = scheduler  # None: no retries by itself (a one-shot screen)
        self.device: LumaDevice | None = None
        self.writer: Writer | None = None
        self.shown: Image.Image | None = None  # the last image the app asked for
        self.shift = 0
        self.dimmed = False
        self.blank = False
        self.faults = 0  # since the table started
        self.outage = 0  # faults since the panel last answered
        self.retry_in = RETRY_FIRST
        self._last_log = -1e9
        self._retrying = False
        self._resting = False  # the rest of a frame is due (call_later)
        self._connect()

    def _connect(self) -> bool:
        try:
            device = self.device = self._make_device()
            device.contrast(self._level())
            self.writer = writer_for(device)  # the panel's memory is unknown: send all
            return True
        except Exception as error:
            self._fault(error)
            return False

    def _drop(self) -> None:
        """Let go of a device that failed: close its bus (persist keeps the panel as is)."""
        device, self.device = self.device, None
        if device is not None:
            with contextlib.suppress(Exception):  # the bus may be gone already
                device.cleanup()

    def use(self, make_device: Callable[[], LumaDevice]) -> None:
        """Drive another panel from now on (a phone's, on trial, or the one before it
        again): the device in use let go, the new one made; the next ``show`` sends it
        all. One that does not answer is retried as a silent panel is."""
        self._drop()
        self._make_device = make_device
        self.writer, self.outage, self.retry_in = None, 0, RETRY_FIRST
        self._connect()

    def close(self) -> None:
        """At exit: the last frame stays on the panel; the bus is closed."""
        self._drop()

    def _level(self) -> int:
        return max(1, self.contrast // 8) if self.dimmed else self.contrast

    def _fault(self, error: BaseException) -> None:
        self._drop()
        self.faults += 1
        self.outage += 1
        now = self.clock()
        if self.outage <= LOUD:
            self._last_log = now
            log.warning("display: %s (the game goes on; retrying)", error)
        elif now - self._last_log >= QUIET:
            self._last_log = now
            log.warning("display: still no panel after %d tries (%s); retrying every %.0f s",
                        self.outage, error, self.retry_in)

    def _answered(self) -> None:
        if self.outage:
            log.warning("display: the panel answers again after %d failed tries", self.outage)
        self.outage = 0
        self.retry_in = RETRY_FIRST

    def show(self, image: Image.Image, first: Box | None = None) -> None:
        """Put ``image`` on the panel (nothing is sent if it is already there).

        ``first``: a box (left, top, right, bottom) whose changes go out first and alone,
        FIRST_MOST bytes at most (the tumbling die, or a decision's first changes: the first
        thing seen after a press), the rest REST_AFTER later; no part longer than CHUNK.
        If the panel does not answer, it is tried again, from every second to every 30
        seconds, until it does.
        """
        self.shown = image
        self._send(first=first)
        if not self.healthy and not self.blank and not self._retrying:
            self._retry_later()

    def _retry_later(self) -> None:
        if self.scheduler is None:
            return
        self._retrying = True
        self.scheduler.call_later(self.retry_in, self._retry)
        self.retry_in = min(RETRY_MAX, self.retry_in * 2)

    def _retry(self) -> None:
        self._retrying = False
        self.retry()
        if not self.healthy and not self.blank:
            self._retry_later()

    def _send(self, first: Box | None = None, rest: bool = False) -> None:
        """The image shown, or its part: ``first`` (Panel.show), ``rest`` (its next
        part). Without a scheduler to send the rest, always all of it."""
        if self.shown is None or self.blank:
            return
        if self.scheduler is None:
            first, rest = None, False
        if self.device is None and not self._connect():
            return
        image = self.shown
        dx, dy = SHIFTS[self.shift % len(SHIFTS)]
        if dx or dy:
            image = ImageChops.offset(image, dx, dy)
        if first is not None:
            first = (first[0] + dx, first[1] + dy, first[2] + dx, first[3] + dy)
        try:
            assert self.writer is not None
            sent = self.writer.display(image, first=first, budget=CHUNK if rest else (
                FIRST_MOST if first is not None else None))
        except Exception as error:
            self._fault(error)
            return
        self._answered()
        if self.writer.behind and self.scheduler is not None and not self._resting:
            self._resting = True
            self.scheduler.call_later(REST_AFTER, self._rest)
        if not sent:
            return  # already on the panel: nothing was sent
        if self.on_frame is not None:
            self.on_frame(image)
        if self.on_change is not None:
            self.on_change()

    def _rest(self) -> None:
        """The rest of the frame shown last (or of a newer one: it is what is shown)."""
        self._resting = False
        self._send(rest=True)

    def retry(self) -> None:
        """Try again to show the current image (after a fault)."""
        self._send()

    @property
    def healthy(self) -> bool:
        """The panel answers and holds a frame we sent."""
        return self.device is not None and self.writer is not None and self.writer.holds

    def set_contrast(self, level: int) -> None:
        self.contrast = level
        self._command(lambda device: device.contrast(self._level()))

    def dim(self, dimmed: bool) -> None:
        self.dimmed = dimmed
        self._command(lambda device: device.contrast(self._level()))

    def sleep(self) -> None:
        """Blank the panel against burn-in (the frame stays in the panel's memory); a TFT's
        backlight goes off too (luma.lcd), or it would glow all night."""
        self.blank = True
        self._command(lambda device: device.hide())
        self._command(lambda device: _backlight(device, False))

    def wake(self) -> None:
        self.blank = False
        self.dimmed = False
        self._command(lambda device: device.contrast(self._level()))
        self._command(lambda device: device.show())
        self._command(lambda device: _backlight(device, True))
        self._send()

    def next_shift(self) -> None:
        """Everything a pixel over, against burn-in: in parts as a frame's rest goes (a
        shift that comes while the die tumbles holds the loop no longer than they do)."""
        self.shift += 1
        self._send(rest=True)

    def _command(self, action: Callable[[LumaDevice], object]) -> None:
        if self.device is None:
            return
        try:
            action(self.device)
        except Exception as error:
            self._fault(error)
            return
        if self.on_change is not None:
            self.on_change()


def _backlight(device: LumaDevice, on: bool) -> None:
    """Switch a luma.lcd device's backlight (an OLED has none)."""
    switch = getattr(device, "backlight", None)
    if callable(switch):
        switch(on)
