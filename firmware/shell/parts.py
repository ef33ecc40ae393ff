"""What the table's shell is given: the devices it drives, how this run plays, and who
else is told what the panel shows (``firmware.shell.table.Table``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from firmware.config.settings import Config, Display
from firmware.display.device import LumaDevice
from firmware.display.panel import Panel
from firmware.display.screen import Screen
from firmware.runtime.loop import Loop
from firmware.runtime.outputs import Outputs
from firmware.runtime.speaker import Record, Utterance
from firmware.shell.buttons import Input


class Pins(Protocol):
    """The devices on the table's pins (``firmware.pins.Pins``)."""

    @property
    def button(self) -> Input: ...

    @property
    def seats(self) -> Sequence[Input]: ...

    @property
    def outputs(self) -> Outputs: ...


class Devices(Protocol):
    """What the table drives, built from the config (``firmware.devices.Rigging``, or the
    emulator's): the panel at once, the pins at the first ``wire()``."""

    @property
    def config(self) -> Config: ...

    @property
    def loop(self) -> Loop: ...

    @property
    def panel(self) -> Panel: ...

    @property
    def panel_for(self) -> Callable[[Display], Callable[[], LumaDevice]]: ...

    def wire(self) -> Pins: ...


class Voice(Protocol):
    """The banker's voice (``firmware.runtime.speaker.Speaker``)."""

    def say(self, utterance: Utterance, after: bool = False) -> None: ...

    def hush(self) -> None: ...

    def voicing(self, volume: int, speed: int) -> None: ...


@dataclass(frozen=True)
class Run:
    """How this run plays, as the command line asked."""

    lang: str | None = None  # over the saved preference and the config
    animate: bool = True
    badge: str = ""  # DEMO
    voice_on: bool | None = None  # --voice: over the saved preference
    mounts: Callable[[], str | None] | None = None  # /proc/self/mountinfo's text (None:
    # the table does not ask whether its saves outlive a reboot: emulated, in a test)
    settings: int | None = None  # this boot's settings file refused: its wrong line (0:
    # the whole file; firmware.boot_settings)
    restart: Callable[[], None] | None = None  # start the table again, the config read
    # anew (a phone's new pins); None: it cannot (a test's table)


@dataclass(frozen=True)
class Told:
    """Who else hears what the panel shows: the voice, a WAV per utterance (``--capture``),
    a text view of each page (emulated, piped)."""

    voice: Voice | None = None
    record: Record | None = None
    on_page: Callable[[Screen, int], None] | None = None
