"""The table's first frame comes before gpiozero's pins, the seam and the page load
(issue 63): the title is on the panel, and only then are they loaded, right after it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

LATER = ("gpiozero", "firmware.pins", "firmware.seam.server", "firmware.web")
"""What the first frame must not wait for: gpiozero (its board data and the entry points
of every installed package), our pins, the seam's server and the page's code."""

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


def test_the_title_is_out_before_the_pins_the_seam_and_the_page_load(tmp_path: Path) -> None:
    seen, said = run_table(tmp_path / "state")
    assert seen["first"] == [], seen["first"]
    assert {"gpiozero", "firmware.pins", "firmware.seam.server"} <= set(seen["last"]), seen
    assert "the first frame out" in said and "ms of CPU after start" in said, said
