"""Rendering on its own: a Screen becomes a 128x64 1-bit image, pure and repeatable."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

from firmware.display.layout import CLASSIC
from firmware.display.paging import body_rows, pages, wrap
from firmware.display.render import render
from firmware.display.screen import Picture, Screen

from ..rig import FONTS


def test_a_screen_is_a_128x64_one_bit_image_and_the_same_every_time() -> None:
    screen = Screen(title="Turn 3", body=("Ana rolls 4", "Ana: 3 → 7"), footer="▶ press",
                    picture=Picture.die(4))
    first, again = render(screen, FONTS), render(screen, FONTS)
    assert first.size == (CLASSIC.width, CLASSIC.height) and first.mode == "1"
    assert first.tobytes() == again.tobytes()
    assert first.tobytes() != render(Screen(title="Turn 3"), FONTS).tobytes()


def test_every_wrapped_row_fits_the_panel() -> None:
    text = "Robinson rafts guns and tools from the wreck to his cave, one trip at a time"
    rows = wrap(text, CLASSIC.width, FONTS)
    assert len(rows) >= 2 and all(FONTS.width(r) <= CLASSIC.width for r in rows)
    assert " ".join(rows) == text  # nothing lost at the breaks


def test_japanese_wraps_without_spaces_and_fits() -> None:
    rows = wrap("ロビンソンは難破船から銃と道具をいかだで運びます", 100, FONTS)
    assert len(rows) >= 2 and all(FONTS.width(r) <= 100 for r in rows)
    assert "".join(rows) == "ロビンソンは難破船から銃と道具をいかだで運びます"


def test_a_long_body_pages_and_each_page_renders_differently() -> None:
    screen = Screen(title="Standings", body=tuple(f"Seat {n}: square {n * 5}" for n in range(8)),
                    footer="▶ press")
    shown = pages(screen, FONTS)
    assert len(shown) == -(-8 // body_rows(screen)) and sum(map(len, shown)) == 8
    images = {render(screen, FONTS, page).tobytes() for page in range(len(shown))}
    assert len(images) == len(shown)


def test_without_any_installed_font_the_table_draws_in_pillows_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No Debian font package at all: Pillow's built-in font, made only then, still draws
    every row (the fallback of an install without fonts-terminus-otb and the others)."""
    from firmware.display import fonts

    for name in ("LATIN", "BOLD", "WIDE", "BIG"):
        monkeypatch.setattr(fonts, name, (("/nonexistent/font.otb", 12, 0),))
    bare = fonts.Fonts()
    assert bare.latin.path == bare.bold.path == bare.big.path == "Pillow built-in"
    assert bare.wide is None and bare.missing
    builtin = ImageFont.load_default_imagefont()
    for text in ("7 chips · pot 50", "Leaving the island"):
        image = render(Screen(title="Seat 2 → 43", body=(text,)), bare)
        assert image.size == (128, 64)
        body = image.crop((0, 14, 128, 64))  # the row under the title bar
        drawn = body.crop(body.getbbox())
        # the same text in Pillow's own font, pixel for pixel
        alone = Image.new("1", (200, 30))
        ImageDraw.Draw(alone).text((0, 0), text, font=builtin, fill=255)
        assert drawn.tobytes() == alone.crop(alone.getbbox()).tobytes(), text
