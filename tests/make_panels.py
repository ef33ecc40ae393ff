"""Reference screens per size class, as each panel's real luma driver puts them in its
memory: a turn, a result and the end of a game, in every language.

``.venv/bin/python -m tests.make_panels`` writes tests/reference/panels/ (then look at
them: tests/reference/panels-strip.png shows them all).
"""

from __future__ import annotations

import functools
from pathlib import Path

from PIL import Image

from firmware.config.reading import display_option
from firmware.config.settings import Display
from firmware.display.partial import writer_for
from firmware.display.render import render
from firmware.display.screen import Screen
from firmware.emulate.rig import emulated_device, wire_for
from robinson_core.texts import LANGUAGES

from .rig import FONTS
from .screen_gallery import gallery

REFERENCE = Path(__file__).resolve().parent / "reference" / "panels"
PANELS_TRIED = ("ssd1306:128x32", "ssd1306", "ssd1315", "ssd1316", "sh1106", "ssd1309",
                "sh1107", "ssd1322", "ssd1351", "st7735", "st7789", "ili9341")
SCREENS = ("turn", "pay_player", "won_half")


@functools.cache
def reference_images() -> dict[str, Image.Image]:
    """name -> the panel's memory after its driver was sent the screen."""
    screens = dict(gallery())
    made = {}
    for option in PANELS_TRIED:
        for lang in LANGUAGES:
            for what in SCREENS:
                made[f"{option.replace(':', '-')}.{lang}.{what}"] = _through_driver(
                    display_option(option), screens[f"{lang}-{what}"])
    return made


def _through_driver(display: Display, screen: Screen) -> Image.Image:
    bus = wire_for(display)
    device = emulated_device(display, bus)
    writer_for(device).display(render(screen, FONTS, 0, display.layout))
    return bus.image()


def strip(images: dict[str, Image.Image]) -> Image.Image:
    """All of them on one sheet, a row per panel."""
    rows: dict[str, list[Image.Image]] = {}
    for name, image in sorted(images.items()):
        rows.setdefault(name.split(".")[0], []).append(image.convert("RGB"))
    width = max(sum(i.width + 4 for i in row) for row in rows.values())
    height = sum(max(i.height for i in row) + 4 for row in rows.values())
    sheet = Image.new("RGB", (width, height), (40, 40, 40))
    y = 0
    for row in rows.values():
        x = 0
        for image in row:
            sheet.paste(image, (x, y))
            x += image.width + 4
        y += max(i.height for i in row) + 4
    return sheet


def main() -> None:
    REFERENCE.mkdir(parents=True, exist_ok=True)
    for old in REFERENCE.glob("*.png"):
        old.unlink()
    images = reference_images()
    for name, image in images.items():
        image.save(REFERENCE / f"{name}.png")
    strip(images).save(REFERENCE.parent / "panels-strip.png")
    print(f"wrote {len(images)} screens to {REFERENCE}")


if __name__ == "__main__":
    main()
