"""The settings file on the SD card's boot partition (``robinson-table.toml``), which an
owner edits on any computer: read at every boot (``robinson-settings.service``, before
the table), checked with the config's own checks, and only then made the config.

A file that is wrong is never taken: the last good config stays, and the table is told
which line is wrong (``REFUSED``, shown on the title; with no panel the buzzer beeps the
line's number), as is the owner, in ``robinson-table-settings.txt`` beside the file.

>>> line_of('language = "fi"\\n[pins]\\n# seats\\nseats = [5, 6]\\n', "pins.seats[2]")
4
>>> line_of('[display]\\ncontrast = 9\\n', "display.rotate") is None
True
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware.config.file import MAX_CONFIG_BYTES, load
from firmware.config.phone import PHONE_FILE, layered
from firmware.config.settings import SYSTEM_STATE_DIR
from firmware.errors import ConfigError

BOOT_FILE = Path("/boot/firmware/robinson-table.toml")
REPORT = "robinson-table-settings.txt"  # beside the settings file, for the owner
REFUSED = Path("/run/robinson-table-settings-refused")  # "LINE<TAB>what", for the table
CONFIG = Path("/etc/robinson-table/config.toml")
INSTALLED = Path("/opt/robinson-table/bundle")  # which bundle robinson-first-boot installed
PHONE = SYSTEM_STATE_DIR / PHONE_FILE  # a phone's hardware settings (the table writes them)
BOOT_CONFIG = Path("/boot/firmware/config.txt")  # the firmware's: the amplifier's overlay
AMPLIFIER_OVERLAY = re.compile(r"^dtoverlay=max98357a\b", re.MULTILINE)
BOM = b"\xef\xbb\xbf"  # Windows' Notepad once began UTF-8 files with it; TOML has none


@dataclass(frozen=True)
class Outcome:
    """What became of the settings file: ``taken`` (and whether that ``changed`` the
    config), else refused with ``said`` and the ``line`` at fault (None: the whole file)."""

    taken: bool
    changed: bool = False
    said: str = ""
    line: int | None = None


def line_of(text: str, key: str) -> int | None:
    """The line (from 1) that sets ``key`` (``section.name``, ``name[3]``) in TOML text."""
    parts = re.sub(r"\[\d+\]$", "", key).split(".")
    section, name = (".".join(parts[:-1]), parts[-1])
    current = ""
    for number, line in enumerate(text.splitlines(), 1):
        header = re.match(r"\s*\[\s*([\w.-]+)\s*\]\s*(#.*)?$", line)
        if header:
            current = header.group(1)
            continue
        assigned = re.match(r"\s*([\w.-]+)\s*=", line)
        if assigned is None:
            continue
        whole = f"{current}.{assigned.group(1)}" if current else assigned.group(1)
        if whole == (f"{section}.{name}" if section else name):
            return number
        if current == section and assigned.group(1) == name:
            return number
    return None


def fault_line(said: str, text: str) -> int | None:
    """The line a config error (its message, without the file's name) is about."""
    found = re.search(r"\(at line (\d+), column \d+\)", said)
    if found:
        return int(found.group(1))
    unknown = re.match(r"unknown key (?:\[([\w.-]+)\] )?'([\w.-]+)'", said)
    if unknown:
        return line_of(text, ".".join(p for p in unknown.groups() if p))
    rule = re.match(r"\[rules\] (?:unknown )?house rule '?([\w-]+)", said)
    if rule:
        return line_of(text, f"rules.{rule.group(1)}")
    named = re.match(r"([A-Za-z_][\w.]*(?:\[\d+\])?) ", said)
    return line_of(text, named.group(1)) if named else None


def apply(source: Path, target: Path) -> Outcome | None:
    """Check ``source`` and, if good, make it ``target`` (written whole, then renamed);
    None when there is no ``source``. ``target`` is never touched by a bad file."""
    try:
        with open(source, "rb") as file:
            data = file.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        return Outcome(False, said=f"cannot read it ({error.strerror})")
    data = data.removeprefix(BOM)
    text = data.decode("utf-8", errors="replace")
    target.parent.mkdir(parents=True, exist_ok=True)
    trial = target.with_name(f".{target.name}.new")
    with open(trial, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.chmod(trial, 0o644)
    try:
        load(trial)  # the config's own checks, on the very bytes to be taken
    except ConfigError as error:
        trial.unlink()
        said = str(error).removeprefix(f"{trial}: ")
        return Outcome(False, said=said, line=fault_line(said, text))
    try:
        same = target.read_bytes() == data
    except OSError:
        same = False
    if same:
        trial.unlink()
        return Outcome(True)
    os.replace(trial, target)
    directory = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    return Outcome(True, changed=True)


def report(outcome: Outcome | None, name: str = BOOT_FILE.name) -> str:
    """The outcome in words, for the owner (the report file, the journal)."""
    if outcome is None:
        return f"no {name} on the boot partition: the table keeps its settings"
    if outcome.taken:
        return (f"{name} taken: the table runs with it" if outcome.changed
                else f"{name} unchanged: the table runs with it")
    where = f"line {outcome.line}" if outcome.line else "the file"
    return (f"{name} NOT taken, {where} is wrong: {outcome.said}. The table keeps its "
            f"last good settings; mend {where} and switch the table off and on again.")


def refused() -> tuple[int, str] | None:
    """What this boot's settings check refused (its line, 0 for the whole file, and why),
    if it refused the file: for the title, and the buzzer where there is no panel."""
    try:
        line, _, said = REFUSED.read_text(encoding="utf-8").partition("\t")
        return int(line), said.strip()
    except (OSError, ValueError):
        return None


def settle(source: Path = BOOT_FILE, target: Path = CONFIG, refused_to: Path = REFUSED,
           phone: Path = PHONE) -> tuple[Outcome | None, str]:
    """``robinson settings``: apply, then tell the owner (beside the file) and the table.
    A file taken that changed the config is newer than a phone's hardware settings: those
    are set aside (the card's file is what the owner last wrote)."""
    outcome = apply(source, target)
    said = report(outcome, source.name)
    if outcome is not None and outcome.changed and phone.exists():
        with contextlib.suppress(OSError):
            phone.unlink()
            said += "; the hardware settings a phone made were set aside: the file is newer"
    if outcome is not None:
        with contextlib.suppress(OSError):  # a read-only boot partition: the journal has it
            (source.parent / REPORT).write_text(said + "\n", encoding="utf-8")
    with contextlib.suppress(OSError):  # else the title cannot say it; the report can
        if outcome is not None and not outcome.taken:
            refused_to.write_text(f"{outcome.line or 0}\t{outcome.said}\n", encoding="utf-8")
            refused_to.chmod(0o644)
        else:
            refused_to.unlink(missing_ok=True)
    return outcome, said


def amplifier_to_switch(config: Path = CONFIG, phone: Path = PHONE,
                        boot_config: Path = BOOT_CONFIG) -> bool:
    """Whether the amplifier the settings in force ask for (a phone's over the config) is
    not the one the firmware's config.txt loads: the install must run again for it."""
    try:
        wanted = layered(load(config), phone)[0].voice.i2s_amplifier
        loaded = bool(AMPLIFIER_OVERLAY.search(boot_config.read_text(errors="replace")))
    except (ConfigError, OSError):
        return False
    return wanted != loaded


def beeps(line: int) -> list[float]:
    """The beeps that say a line's number: a long one for each ten, a short one for each
    one after (line 23: two long, three short).

    >>> beeps(23), beeps(10)
    ([0.9, 0.9, 0.15, 0.15, 0.15], [0.9])
    """
    return [0.9] * (line // 10) + [0.15] * (line % 10)


def beep(config: Path, line: int, factory: Any = None,
         sleep: Callable[[float], None] = time.sleep) -> int:
    """For a table with no panel to say it: the buzzer of the config in force (the last
    good one) beeps the wrong line's number, twice. How many beeps it gave: none where
    the config has no buzzer, or its pin cannot be had (the table's own unit holds it)."""
    try:
        pins = load(config).pins
    except ConfigError:
        return 0
    if not pins.use_buzzer or line <= 0:
        return 0
    try:
        from gpiozero import TonalBuzzer

        from firmware.runtime.tunes import BUZZER_MID

        buzzer = TonalBuzzer(pins.buzzer, mid_tone=BUZZER_MID, octaves=1, pin_factory=factory)
    except Exception:  # no GPIO here, the pin busy: the panel and the report still say it
        return 0
    given = 0
    try:
        for turn in range(2):
            for length in beeps(line):
                buzzer.play(BUZZER_MID)
                sleep(length)
                buzzer.stop()
                sleep(0.3)
                given += 1
            if turn == 0:
                sleep(1.5)
    finally:
        buzzer.close()
    return given
