"""Run inside a private mount namespace (``unshare -m``) by test_faults: a table whose save
directory turns read-only, or fills up, mid-game, on a real tmpfs. Exits 0 if the table
behaved, 1 with a reason if not.

    python -m tests.broken_disk readonly|full|full-at-start|full-at-stop|freed-at-stop FOLDER

"readonly" needs ext4 and a loop device (mkfs.ext4, losetup): the test skips without them.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

from firmware.display import screens
from firmware.saves.faults import Fault
from firmware.saves.store import Store
from firmware.table.state import Mode

from .rig import Rig


def main(kind: str, folder: Path) -> int:
    if kind == "readonly":  # ext4 on a loop device, as an SD card is: it can be made to fail
        image = folder.with_name("disk.img")
        with open(image, "wb") as file:
            file.truncate(8 << 20)
        subprocess.run(["mkfs.ext4", "-q", str(image)], check=True)
        subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(image), str(folder)],
                       check=True)
    else:
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)],
                       check=True)
    if kind == "full-at-start":
        return full_at_start(folder)
    if kind in ("full-at-stop", "freed-at-stop"):
        return full_at_stop(folder, freed=kind == "freed-at-stop")
    rig = Rig(folder / "state", seats_on=(1, 2), faces=[3, 4, 5], animate=False)
    rig.wait(2.5)
    rig.long()
    rig.short()
    filler = folder / "filler"
    if kind == "readonly":
        # What the kernel does to an SD card that fails under a mounted ext4 (errors=
        # remount-ro): read-only at once, files open or not (a remount would refuse).
        device = os.path.basename(os.path.realpath(_source(folder)))
        Path(f"/sys/fs/ext4/{device}/trigger_fs_error").write_text("robinson test\n")
        code = errno.EROFS
    else:  # every block taken: the next save meets ENOSPC from the kernel
        _fill(filler)
        code = errno.ENOSPC
    rig.short()  # this save fails
    rig.run()
    game = rig.table.game
    problems = []
    if game is None or len(game.actions) != 2 or rig.table.mode is not Mode.PLAY:
        problems.append(f"the game did not go on in memory: {game}")
    words = rig.table.words
    text = words("save_failed", reason=words(Fault.of_errno(code).key))
    if not rig.showing(screens.message_screen(rig.table.words("notice"), text)):
        problems.append("the screen did not say that saving fails")
    saved = Store(folder / "state", read_only=True).load().game  # as a restart finds it
    if saved is None or len(saved.actions) != 1:
        problems.append(f"the disk should still hold the game before: {saved}")
    if kind == "full":
        filler.unlink()  # space again: the next save catches up
        rig.wait(7)
        rig.short()
        if Store(folder / "state", read_only=True).load().game != rig.table.game:
            problems.append("the save after space returned did not catch up")
    rig.close()
    print("; ".join(problems) or "ok")
    return 1 if problems else 0


def full_at_start(folder: Path) -> int:
    """The disk is full before the table starts: it plays the saved game, says it
    cannot save, sets nothing aside; once there is space, the next press is saved."""
    from .saves.test_store_faults import IN_PLAY, folder_with_games

    state = folder_with_games(folder / "state")
    filler = _fill(folder / "filler")
    rig = Rig(state, seats_on=(1, 2, 3), faces=[5, 6], animate=False)
    problems = []
    words = rig.table.words
    if rig.table.game != IN_PLAY:
        problems.append(f"the saved game was not played on: {rig.table.game}")
    said = " ".join(rig.table.screen.body)  # the title, with what went wrong
    if words("save_failed", reason=words("fault_disk_full")) not in said:
        problems.append(f"the table did not say the disk is full: {said}")
    if (state / "damaged").exists():
        problems.append("something was set aside for a full disk")
    rig.wait(2.5)
    rig.short()  # resume
    rig.short()  # a roll: not saved
    filler.unlink()
    rig.wait(7)
    rig.short()  # space again: this one is saved, with the one before
    game = rig.table.game
    rig.close()
    saved = Store(state, read_only=True).load().game
    if game is None or len(game.actions) != 4 or saved != game:
        problems.append(f"the saves did not catch up: {saved} against {game}")
    print("; ".join(problems) or "ok")
    return 1 if problems else 0


def full_at_stop(folder: Path, freed: bool) -> int:
    """Two rolls the full disk refuses, then the stop: with the disk still full, the last
    frame says how many shown actions are not saved (and the journal); with space back
    just before the stop (``freed``), its last try saves them and the frame says saved."""
    from .saves.test_store_faults import IN_PLAY, folder_with_games

    state = folder_with_games(folder / "state")
    rig = Rig(state, seats_on=(1, 2, 3), faces=[5, 6], animate=False)
    rig.wait(2.5)
    rig.short()  # resume
    filler = _fill(folder / "filler")
    rig.short()
    rig.short()  # two rolls shown, neither on disk
    problems = []
    game = rig.table.game
    if rig.table.screen.badge != rig.table.words("unsaved_badge"):
        problems.append(f"no badge while the disk refuses: {rig.table.screen}")
    if freed:
        filler.unlink()  # before the retry's timer: only the stop's try can save them
    rig.table.stop()
    words = rig.table.words
    said = rig.table.screen.body
    rig.close()
    saved = Store(state, read_only=True).load().game
    if freed:
        if said != (words("switched_off"),) or saved != game:
            problems.append(f"the stop's try did not save: {said}, {saved} against {game}")
    else:
        if said != (words("switched_off_unsaved", count=2, reason=words("fault_disk_full")),):
            problems.append(f"the last frame said {said}")
        if saved != IN_PLAY:
            problems.append(f"the disk should hold the game before the rolls: {saved}")
    print("; ".join(problems) or "ok")
    return 1 if problems else 0


def _fill(filler: Path) -> Path:
    with open(filler, "wb") as file:
        try:
            while True:
                file.write(b"\0" * 65536)
                file.flush()
        except OSError:
            pass
    return filler


def _source(folder: Path) -> str:
    found = subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(folder)], capture_output=True,
                           text=True, check=True)
    return found.stdout.strip()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], Path(sys.argv[2])))
