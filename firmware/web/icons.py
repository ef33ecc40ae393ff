"""The page's icons and its web manifest: what "Add to home screen" puts on a phone.

The icon is drawn here, once a size, with Pillow (the panel's own library): a die's
five on the page's dark ground, the pips in the first seats' colours. A maskable one
keeps the die within the middle 80 %, the part every phone's mask leaves. Drawn, not
shipped as files: four sizes of one picture stay one picture, and no binary is kept in
the tree for a thing this simple.

>>> png(192)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import functools
import io
import json

from PIL import Image, ImageDraw

from firmware.display.layout import SEAT_COLOURS
from firmware.web.words import say

BACKGROUND = "#111111"  # the page's own (style.css: --bg)
THEME = "#000000"  # the tabs' bar: a phone's status bar takes it
SIZES = (192, 512)  # the manifest's (Chrome asks for both)
TOUCH = 180  # the apple-touch-icon: iOS's home screen
FAVICON = 32
PIPS = ((0.28, 0.28), (0.72, 0.28), (0.5, 0.5), (0.28, 0.72), (0.72, 0.72))


@functools.cache
def png(size: int, maskable: bool = False) -> bytes:
    """The icon, ``size`` pixels square, as PNG; ``maskable``: the die in the safe zone."""
    scale = 4  # drawn large, then made small: smooth edges without a font or an SVG
    big = size * scale
    image = Image.new("RGB", (big, big), BACKGROUND)
    draw = ImageDraw.Draw(image)
    margin = big * (0.2 if maskable else 0.08)
    die = (margin, margin, big - margin, big - margin)
    draw.rounded_rectangle(die, radius=(big - 2 * margin) * 0.18, fill="#f4f4f4")
    side = big - 2 * margin
    radius = side * 0.09
    colours = [rgb for name, rgb in SEAT_COLOURS.values() if name != "white"]  # on white
    for (x, y), colour in zip(PIPS, colours, strict=False):
        cx, cy = margin + x * side, margin + y * side
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour)
    small = image.resize((size, size), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, "PNG", optimize=True)
    return out.getvalue()


def manifest(lang: str) -> bytes:
    """The web manifest in ``lang``: the page opens from the home screen in a window of
    its own, at Now."""
    icons = [{"src": f"/static/icon-{size}.png", "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": "any"} for size in SIZES]
    icons += [{"src": f"/static/icon-{size}-maskable.png", "sizes": f"{size}x{size}",
               "type": "image/png", "purpose": "maskable"} for size in SIZES]
    return json.dumps({
        "name": "Robinson", "short_name": "Robinson", "lang": lang,
        "description": say(lang, "app_about"), "start_url": "/", "scope": "/",
        "display": "standalone", "background_color": BACKGROUND, "theme_color": THEME,
        "icons": icons}, ensure_ascii=False).encode()


def icon(name: str) -> bytes | None:
    """A static icon by its file name, or None: icon-192.png, icon-512-maskable.png,
    apple-touch-icon.png, favicon.png."""
    if name == "apple-touch-icon.png":
        return png(TOUCH)
    if name == "favicon.png":
        return png(FAVICON)
    for size in SIZES:
        if name == f"icon-{size}.png":
            return png(size)
        if name == f"icon-{size}-maskable.png":
            return png(size, maskable=True)
    return None
