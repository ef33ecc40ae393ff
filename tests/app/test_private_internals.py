"""What the table leans on inside luma that it does not publish, pinned:
an upgrade that moves any of it fails here, by name, not somewhere downstream.

- ``luma.core.device`` registers an exit hook per device through its module's
  ``atexit`` (``devices._without_exit_hooks`` swaps that name while building).
- The SH1106/SH1107 keep their column offset in ``_page_address_offset``, the SSD1306
  family in ``_colstart`` (``partial.PageWriter`` addresses the same columns).
"""

from __future__ import annotations

import atexit

import luma.core
import luma.core.device
import luma.oled
import luma.oled.device
from luma.core.interface.serial import noop

from firmware.devices import _without_exit_hooks
from firmware.display.partial import PageWriter

from .test_pi_path import exit_hooks


def test_luma_registers_its_exit_hook_through_its_modules_atexit() -> None:
    assert luma.core.device.atexit is atexit
    before = exit_hooks()
    luma.core.device.device(serial_interface=noop())  # its hook runs at exit, harmlessly
    assert exit_hooks() == before + 1  # what the swap is there to stop
    with _without_exit_hooks():
        luma.core.device.device(serial_interface=noop())
    assert exit_hooks() == before + 1 and luma.core.device.atexit is atexit


def test_the_column_offsets_are_where_the_page_writer_reads_them() -> None:
    sh1106 = luma.oled.device.sh1106(noop())
    assert sh1106._page_address_offset == 2
    assert PageWriter(sh1106).column_offset == 2
    wide = luma.oled.device.ssd1306(noop(), width=128, height=64)
    small = luma.oled.device.ssd1306(noop(), width=64, height=32)
    assert (wide._colstart, small._colstart) == (0, 32)
    assert PageWriter(small).column_offset == 32


def test_the_versions_these_were_read_from() -> None:
    # luma.core 2.6.0 and luma.oled 3.16.0 when this was written; setup.cfg allows
    # luma.core 2.x and luma.oled 3.x, and the tests above hold across them.
    assert luma.core.__version__.split(".")[0] == "2"
    assert luma.oled.__version__.split(".")[0] == "3"
