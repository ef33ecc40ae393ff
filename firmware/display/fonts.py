"""The table's fonts: crisp bitmap fonts from Debian packages, at the sizes they were drawn for.

Latin (with č ć đ š ž ä ö) comes from Terminus 12 px; what Terminus lacks
(Japanese) from misaki 8 px, chosen glyph by glyph, because Pillow has no
font fallback. Without those packages the table still runs, on what there is.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from PIL import ImageDraw, ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

NOT_PRINTABLE = "?"  # drawn for a control or line-separator character
NO_BREAK = "\u00a0"  # drawn as a space; lines are never broken there (inside a name)
LATIN = (
    ("/usr/share/fonts/opentype/terminus/terminus-normal.otb", 12, 0),
    ("/usr/share/fonts/opentype/unifont/unifont.otf", 16, -3),
    ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 10, 0),
)
BOLD = (("/usr/share/fonts/opentype/terminus/terminus-bold.otb", 12, 0),)
WIDE = (
    ("/usr/share/fonts/truetype/misaki/misaki_gothic.ttf", 8, 3),
    ("/usr/share/fonts/opentype/unifont/unifont_jp.otf", 16, -3),
)
BIG = (("/usr/share/fonts/opentype/terminus/terminus-bold.otb", 24, 0),)
DEBIAN_PACKAGES = "fonts-terminus-otb fonts-misaki fonts-unifont"


@dataclass(frozen=True)
class Face:
    """A loaded font and how far to shift it down to sit on the row's baseline."""

    font: Font
    dy: int
    path: str


def _first(candidates: tuple[tuple[str, int, int], ...]) -> Face | None:
    for path, size, dy in candidates:
        if Path(path).is_file():
            try:
                return Face(ImageFont.truetype(path, size), dy, path)
            except OSError:
                continue
    return None


def _pillows_own() -> Face:
    """Pillow's built-in bitmap font, where no installed font is found (made only then:
    decoding it took 0.1 s of the service's start in the virtual Pi)."""
    return Face(ImageFont.load_default_imagefont(), 1, "Pillow built-in")


class Fonts:
    """Text measuring and drawing with per-glyph fallback."""

    def __init__(self) -> None:
        self.latin = _first(LATIN) or _pillows_own()
        self.bold = _first(BOLD) or self.latin
        self.wide = _first(WIDE)
        self.big = _first(BIG) or self.bold
        self.missing = [] if self.wide and "terminus" in self.latin.path else DEBIAN_PACKAGES

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one Fonts lives for the whole run
    def face_for(self, char: str, bold: bool = False) -> Face:
        primary = self.bold if bold else self.latin
        if self.wide is None or _has_glyph(primary.font, char):
            return primary
        return self.wide

    def runs(self, text: str, bold: bool = False) -> list[tuple[Face, str]]:
        """``text`` cut into runs that share a font; a character that is not printable (a
        control or line-separator character from a config or a file) is drawn as a box."""
        runs: list[tuple[Face, str]] = []
        for char in text:
            if char == NO_BREAK:  # a space that wrapping never breaks at
                char = " "
            if not char.isprintable():
                char = NOT_PRINTABLE
            face = self.face_for(char, bold)
            if runs and runs[-1][0] is face:
                runs[-1] = (face, runs[-1][1] + char)
            else:
                runs.append((face, char))
        return runs

    @functools.lru_cache(maxsize=8192)  # noqa: B019 - one Fonts lives for the whole run
    def width(self, text: str, bold: bool = False) -> int:
        """How wide ``text`` is drawn, in pixels. Kept: wrapping a row measures the same
        words and prefixes again and again (a sixth of the glance test's time was the
        fonts' getlength and these runs)."""
        return sum(_length(face, run) for face, run in self.runs(text, bold))

    def draw(self, draw: ImageDraw.ImageDraw, x: int, y: int, text: str, fill: int = 1,
             bold: bool = False) -> int:
        """Draw ``text`` with its top-left at (x, y); returns the x after it.

        Never raises: a run the font's layout refuses is drawn as boxes instead, so
        no name or text can stop the table (a crash here would repeat at every start).
        """
        for face, run in self.runs(text, bold):
            try:
                draw.text((x, y + face.dy), run, font=face.font, fill=fill)
            except (OSError, ValueError):
                run = NOT_PRINTABLE * len(run)
                draw.text((x, y + face.dy), run, font=self.latin.font, fill=fill)
            x += _length(face, run)
        return x


def _length(face: Face, run: str) -> int:
    try:
        return int(face.font.getlength(run))
    except (OSError, ValueError):  # the layout refuses the run: measured as boxes
        return int(face.font.getlength(NOT_PRINTABLE)) * len(run)


@functools.lru_cache(maxsize=16)
def _notdef(font: Font) -> bytes:
    """What the font draws for a character it does not have."""
    return bytes(font.getmask("\U0010fffd", mode="1"))


@functools.lru_cache(maxsize=8192)
def _has_glyph(font: Font, char: str) -> bool:
    return char.isspace() or bytes(font.getmask(char, mode="1")) != _notdef(font)
