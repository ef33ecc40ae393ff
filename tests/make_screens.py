"""Write tests/reference/screens/*.png: ``.venv/bin/python -m tests.make_screens``."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from firmware.display.paging import pages
from firmware.display.render import render
from firmware.display.screen import Screen

from .rig import FONTS
from .screen_gallery import gallery

HERE = Path(__file__).with_name("reference") / "screens"


def main() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    for old in HERE.glob("*.png"):
        old.unlink()
    count = 0
    for name, screen in gallery():
        for page_name, page in each_page(name, screen):
            render(screen, FONTS, page).save(HERE / f"{page_name}.png")
            count += 1
    strip().save(STRIP)
    print(f"{count} screens written to {HERE}, and {STRIP.name} for the README")


# The README's strip: one result of each kind a family meets most, in each language.
STRIP_SCREENS = ("pay_player", "bounce", "chain_25", "friday_sworn", "decision_tree",
                 "decision_tree-asked", "won_half", "menu-last")
STRIP = HERE.parent / "screens-strip.png"


def strip() -> Image.Image:
    """The strip: a row per language, the screens at twice their size, on grey."""
    from robinson_core.texts import LANGUAGES

    scale, gap = 2, 8
    tile_w, tile_h = 128 * scale, 64 * scale
    image = Image.new("L", (len(STRIP_SCREENS) * (tile_w + gap) + gap,
                            len(LANGUAGES) * (tile_h + gap) + gap), 96)
    for row, lang in enumerate(LANGUAGES):
        for col, name in enumerate(STRIP_SCREENS):
            tile = Image.open(HERE / f"{lang}-{name}.png").convert("L")
            image.paste(tile.resize((tile_w, tile_h), Image.Resampling.NEAREST),
                        (gap + col * (tile_w + gap), gap + row * (tile_h + gap)))
    return image

def each_page(name: str, screen: Screen) -> list[tuple[str, int]]:
    """A name per page of ``screen``: NAME for the first, NAME.p2 for the second..."""
    count = len(pages(screen, FONTS))
    return [(name if n == 0 else f"{name}.p{n + 1}", n) for n in range(count)]


if __name__ == "__main__":
    main()
