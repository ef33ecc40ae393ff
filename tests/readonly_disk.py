"""Run inside a private mount namespace (``unshare -m``) by test_faults: a table whose save
directory turns read-only mid-game. Exits 0 if the table behaved, 1 with a reason if not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from firmware.display import screens
from firmware.table.table import Mode

from .rig import Rig


def main(folder: Path) -> int:
    subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(folder)], check=True)
    rig = Rig(folder / "state", seats_on=(1, 2), faces=[3, 4, 5], animate=False)
    rig.wait(2.5)
    rig.long()
    rig.short()
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
    rig.short()  # this save meets a read-only file system
    rig.run()
    game = rig.table.game
    problems = []
    if game is None or len(game.actions) != 2 or rig.table.mode is not Mode.PLAY:
        problems.append(f"the game did not go on in memory: {game}")
    text = rig.table.words("save_failed", reason=os.strerror(30))  # EROFS
    if not rig.showing(screens.message_screen("!", text)):
        problems.append("the screen did not say that saving fails")
    saved = rig.store.load().game
    if saved is None or len(saved.actions) != 1:
        problems.append(f"the disk should still hold the game before: {saved}")
    rig.close()
    print("; ".join(problems) or "ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
