"""The main screens in all four languages, pixel for pixel as checked in.

A difference means the screens changed: if that was meant, regenerate with
``.venv/bin/python -m tests.make_screens`` and look at the new PNGs.
"""

from __future__ import annotations

import functools

import pytest
from PIL import Image

from firmware.display.fonts import DEBIAN_PACKAGES
from firmware.display.render import render
from firmware.display.screen import Screen

from ..make_screens import HERE, STRIP, each_page, strip
from ..rig import FONTS
from ..screen_gallery import gallery


@functools.cache
def screens() -> dict[str, Screen]:
    """The gallery, made when a test first asks (not on import: a mutation run imports
    the tests once, then runs them on each mutant of the screens)."""
    return dict(gallery())


SCREENS = dict(gallery())  # the names the tests are made for (screens(): what they show)
PAGES = {page_name: (name, page) for name, screen in SCREENS.items()
         for page_name, page in each_page(name, screen)}


def test_the_fonts_of_the_references_are_installed() -> None:
    assert not FONTS.missing, f"install {DEBIAN_PACKAGES} (./test.sh does, as root)"


def test_every_reference_has_a_screen() -> None:
    assert sorted(p.stem for p in HERE.glob("*.png")) == sorted(PAGES)


@pytest.mark.parametrize("page_name", sorted(PAGES))
def test_screen_matches_its_reference(page_name: str) -> None:
    name, page = PAGES[page_name]
    expected = Image.open(HERE / f"{page_name}.png").convert("1")
    assert render(screens()[name], FONTS, page).tobytes() == expected.tobytes()


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screens_are_crisp_one_bit(name: str) -> None:
    image = render(screens()[name], FONTS)
    assert image.mode == "1" and image.size == (128, 64)


def test_long_text_pages() -> None:
    long = Screen(title="T", body=("word " * 60,), footer="F")
    assert render(long, FONTS, 0).tobytes() != render(long, FONTS, 1).tobytes()


def test_the_readme_strip_is_made_of_the_references() -> None:
    assert Image.open(STRIP).convert("L").tobytes() == strip().tobytes()


def test_every_screen_is_made_as_pinned() -> None:
    """Every screen function's output, field by field, read against what it should be
    (tests/reference/shown.txt, looked at when written: ``python -m
    tests.make_reference``), in every language: many more screens than the PNGs."""
    from ..make_reference import HERE as REFERENCE
    from ..make_reference import shown

    expected = (REFERENCE / "shown.txt").read_text(encoding="utf-8").splitlines()
    assert shown() == expected and len(expected) > 1500
