"""The table's first frame comes before the game, gpiozero's pins, the seam and the page
load (issue 63): the title's name is on the panel, drawn by luma's driver, and only then
are they loaded, right after it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

LATER = ("gpiozero", "firmware.pins", "firmware.seam", "firmware.web", "firmware.table",
         "firmware.shell", "firmware.session", "firmware.saves.store", "robinson_core.engine",
         "robinson_core.game", "robinson_core.events")
"""What the first frame must not wait for: gpiozero (its board data and the entry points
of every installed package), our pins, the seam and the page, the machine and its shell,
the store and the game's engine."""

PROBE = """
import atexit, json, sys
from firmware.display import panel

LATER = %r
frames = []

def loaded():
    return sorted(name for name in sys.modules if name.startswith(LATER))

shown = panel.Panel.show

def show(self, *args, **kwargs):  # what was loaded when the first frame went out
    shown(self, *args, **kwargs)
    if not frames:
        frames.append(loaded())

panel.Panel.show = show
atexit.register(lambda: print(json.dumps({"first": frames[0], "last": loaded()})))
from firmware.cli import main
sys.exit(main(sys.argv[1:]))
"""


def run_table(state: Path, *args: str) -> tuple[dict[str, list[str]], str]:
    run = subprocess.run([sys.executable, "-c", PROBE % (LATER,), "table", "--emulate",
                          "--seats", "1,2,3", "--state-dir", str(state), *args],
                         input="q", capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1]), run.stderr


def test_the_titles_name_is_out_before_the_game_the_pins_the_seam_and_the_page_load(
        tmp_path: Path) -> None:
    seen, said = run_table(tmp_path / "state")
    assert seen["first"] == [], seen["first"]
    assert {"gpiozero", "firmware.pins", "firmware.seam.server", "firmware.table.machine",
            "firmware.saves.store", "robinson_core.engine"} <= set(seen["last"]), seen
    assert re.search(r"the first frame out \d+ ms of CPU after start; its title \d+; "
                     r"ready after \d+", said), said


def test_the_first_frame_is_the_titles_name_and_the_title_follows_over_it(
        tmp_path: Path) -> None:
    """The frames the panel was sent, in order: the title's name alone (the big ROBINSON
    of the title, drawn as the title draws it), then the whole title over it."""
    from PIL import Image, ImageChops

    from firmware.config.settings import Config
    from firmware.display.fonts import Fonts
    from firmware.display.render import drawn
    from firmware.display.screen import Screen
    from firmware.display.screens import title_screen
    from firmware.display.words import Words

    frames = tmp_path / "frames"
    run_table(tmp_path / "state", "--capture", str(frames))
    sent = sorted(frames.glob("frame-*.png"))
    layout, fonts = Config().display.layout, Fonts()
    expected = [drawn(Screen(big="ROBINSON"), fonts, 0, layout),
                drawn(title_screen(Words("en"), False), fonts, 0, layout)]
    for path, image in zip(sent, expected, strict=False):
        with Image.open(path) as frame:
            assert ImageChops.difference(frame.convert("1"), image.convert("1")).getbbox() \
                is None, path.name
    assert len(sent) >= 2, sent
