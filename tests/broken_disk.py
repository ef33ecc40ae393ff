"""Run inside a private mount namespace (``unshare -m``) by test_faults: a table whose save
directory turns read-only, or fills up, mid-game, on a real tmpfs. Exits 0 if the table
behaved, 1 with a reason if not.

    python -m tests.broken_disk readonly|full FOLDER
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

from firmware.display import screens
from firmware.table.table import Mode

from .rig import Rig


def main(kind: str, folder: Path) -> int:
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)], check=True)
    rig = Rig(folder / "state", seats_on=(1, 2), faces=[3, 4, 5], animate=False)
    rig.wait(2.5)
    rig.long()
    rig.short()
    filler = folder / "filler"
    if kind == "readonly":
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        code = errno.EROFS
    else:  # every block taken: the next save meets ENOSPC from the kernel
        with open(filler, "wb") as file:
            try:
                while True:
                    file.write(b"\0" * 65536)
                    file.flush()
            except OSError:
                pass
        code = errno.ENOSPC
    rig.short()  # this save fails
    rig.run()
    game = rig.table.game
    problems = []
    if game is None or len(game.actions) != 2 or rig.table.mode is not Mode.PLAY:
        problems.append(f"the game did not go on in memory: {game}")
    text = rig.table.words("save_failed", reason=os.strerror(code))
    if not rig.showing(screens.message_screen("!", text)):
        problems.append("the screen did not say that saving fails")
    saved = rig.store.load(repair=False).game
    if saved is None or len(saved.actions) != 1:
        problems.append(f"the disk should still hold the game before: {saved}")
    if kind == "full":
        filler.unlink()  # space again: the next save catches up
        rig.wait(7)
        rig.short()
        if rig.store.load().game != rig.table.game:
            problems.append("the save after space returned did not catch up")
    rig.close()
    print("; ".join(problems) or "ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], Path(sys.argv[2])))
