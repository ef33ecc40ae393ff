"""The main screens in all four languages, pixel for pixel as checked in.

A difference means the screens changed: if that was meant, regenerate with
``.venv/bin/python -m tests.make_screens`` and look at the new PNGs.
"""

from __future__ import annotations

import pytest
from PIL import Image

from firmware.display.fonts import DEBIAN_PACKAGES
from firmware.display.render import Screen, render

from .make_screens import HERE
from .rig import FONTS
from .screen_gallery import gallery

SCREENS = dict(gallery())


def test_the_fonts_of_the_references_are_installed() -> None:
    assert not FONTS.missing, f"install {DEBIAN_PACKAGES} (./test.sh does, as root)"


def test_every_reference_has_a_screen() -> None:
    assert sorted(p.stem for p in HERE.glob("*.png")) == sorted(SCREENS)


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_reference(name: str) -> None:
    expected = Image.open(HERE / f"{name}.png").convert("1")
    assert render(SCREENS[name], FONTS).tobytes() == expected.tobytes()


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screens_are_crisp_one_bit(name: str) -> None:
    image = render(SCREENS[name], FONTS)
    assert image.mode == "1" and image.size == (128, 64)


def test_long_text_pages() -> None:
    long = Screen(title="T", body=("word " * 60,), footer="F")
    assert render(long, FONTS, 0).tobytes() != render(long, FONTS, 1).tobytes()
