"""Write tests/reference/screens/*.png: ``.venv/bin/python -m tests.make_screens``."""

from __future__ import annotations

from pathlib import Path

from firmware.display.render import render

from .rig import FONTS
from .screen_gallery import gallery

HERE = Path(__file__).with_name("reference") / "screens"


def main() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    for old in HERE.glob("*.png"):
        old.unlink()
    count = 0
    for name, screen in gallery():
        render(screen, FONTS).save(HERE / f"{name}.png")
        count += 1
    print(f"{count} screens written to {HERE}")


if __name__ == "__main__":
    main()
