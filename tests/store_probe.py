"""Open a state folder as the table does, and print what was found as one JSON line:
for tests that run it under a fault (strace's fault injection, dropped capabilities).

    python -m tests.store_probe FOLDER [play]

``play`` also saves one more roll of the game in play. Exit status 2 and {"error": ...}
if the table could not start on the folder, as ``robinson table`` would.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from firmware.saves.faults import StateDirectoryError
from firmware.saves.store import Store
from firmware.table.prefs import PREF_KEYS
from robinson_core import Game, Roll


def main(folder: Path, play: bool) -> int:
    store = Store(folder, pref_keys=PREF_KEYS)
    try:
        store.lock()
        loaded = store.load()
    except StateDirectoryError as error:
        print(json.dumps({"error": str(error), "short": str(error.kind)}))
        return 2
    game = loaded.game
    found: dict[str, object] = {
        "actions": None if game is None else len(game.actions),
        "problem": loaded.problem, "fault": str(loaded.fault.kind) if loaded.fault else None,
        "problem_line": str(loaded.fault) if loaded.fault else None,
        "finished": len(store.finished(100)), "prefs": store.prefs(),
        "damaged": sorted(p.name for p in store.damaged_dir.iterdir())
        if store.damaged_dir.is_dir() else []}
    if play:
        try:
            store.save((game or Game((1, 2))).play(Roll(1)))
            found["saved"] = True
        except OSError as error:
            found["saved"] = error.strerror
    store.close()
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2:] == ["play"]))
